"""The search bot: determinized Monte Carlo over sampled hidden states (PIMC).

For each sampled world (a full state consistent with the view, weighted by what the other
players' plays reveal: ``worlds``), every legal move is played and the rest of the hand is
finished by a rollout, or solved exactly once the stock is empty and few cards are left.
The same worlds serve every move (common random numbers), so the comparison between moves
is fair. The value of a finished hand is its point margin for the mover's side (cards,
coins, settebello, primiera, sweeps, variant bonuses), plus, in a match, a bonus when the
hand decides the match.

Heads-up, where a learned value of the position between rounds exists (``round_value``),
rollouts stop when the next round is dealt and take that value instead of playing the
later rounds out with every card known. With ``algorithm="minimax"`` (the champion level)
the rollout is replaced by alpha-beta to the end of the round in each world, valued there by
the same network (``minimax``): no rollout noise, and the opponent's best reply is seen.

Heads-up, once nothing is hidden (the last round), the values are exact and the search
breaks ties between equally good moves by a good player's likely replies (``endgame``).

Among partners (Scopone), worlds are solved from more cards, and once every world is
solved the exact values decide, ties going to a good player's likely replies (``teams``).

``oracle`` runs the same search on the true state: an analysis tool and a yardstick.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

from ..hand import Hand
from ..moves import DECLARE, Move
from ..rules import Rules
from ..view import PlayerView
from .base import Bot, Limit, forced_move, imagined
from .endgame import break_ties, model_value
from .exact import solve
from .heuristic import heuristic_score
from .minimax import round_leaf, round_minimax
from .movestat import DEFAULT_SIMULATIONS, MoveStat
from .points import utility
from .rollout import ROLLOUTS, ROUND_ROLLOUTS, SEEDED_ROLLOUTS
from .round_value import RoundValue, given_net, net_for
from .teams import EXACT_CARDS, choose_solved, exact_cards, solve_cost, solved_phase
from .worlds import WorldSampler, check_clues

#: simulations of the budget one move's round search in one world counts as (``minimax``):
#: at a round's first move it searches six plies, so a level's count keeps the heads-up
#: champion's 99th percentile CPU a move near 250 ms (2000 simulations: 800 round searches)
#: while tables that play rollouts keep the count they measured with
ROUND_SEARCH_COST = 2.5
#: ``pimc``: rollouts in each world; ``minimax``: alpha-beta to the round's end in each world
#: (the champion's, heads-up). Information-set MCTS and one search over the information set
#: were measured and not kept (docs/bots.md, docs/notes/2026-12-06-core-house.md)
ALGORITHMS = ("pimc", "minimax")
#: rollouts that sweep whenever they can: uniform rollouts hardly ever find the sweeping
#: card in a 10-card hand, so they misjudge Scopone (measured, see docs/bots.md). In Scopone
#: Scientifico 'sound' measured the same against heuristic (+0.866 against +0.854 at 600
#: simulations, 400 deals) at 1.4 times the cost, so four or more players keep these.
DEFAULT_ROLLOUT = "capture"
#: heads-up and at three, rollouts that also keep from laying into the next hand's sweep:
#: champion against heuristic in 2-player Scopa +0.85 +- 0.08 with them, +0.62 +- 0.08
#: with capture rollouts (the same 400 deals)
SMALL_TABLE_ROLLOUT = "sound"


def default_rollout(players: int) -> str:
    """The rollout policy the search uses at a table of ``players``."""
    return SMALL_TABLE_ROLLOUT if players <= 3 else DEFAULT_ROLLOUT


#: weight of the heuristic score added to a move's sampled value when choosing, at tables
#: of four or more players. Measured against ``heuristic`` in Scopone Scientifico (200 deals):
#: at 150 simulations weight 1 is level, 3 gives +0.55; at 600, 1 gives +0.64 and 3 +0.77.
PRIOR = 3.0
#: ... and heads-up or at three: with 3 cards in hand the sampled values are steady enough.
#: In 2-player Scopa weights 0 to 2 measured alike (+0.69 to +0.74 at 600 simulations),
#: and 3 at the champion budget lower (+0.52 +- 0.06 against +0.62 and +0.69 without, 400
#: deals each); the prior also lifted a 150-simulation search to the level of a 2000 one.
PRIOR_SMALL_TABLE = 0.0


def default_prior(players: int) -> float:
    """The heuristic prior's weight for a table of ``players``."""
    return PRIOR_SMALL_TABLE if players <= 3 else PRIOR


#: points one side rarely passes in a single hand: a match-aware search plays the hand out
#: (the learned round value knows nothing of the match) once a side is this close to the
#: target
MATCH_REACH = 6


def round_value_for(
    rules: Rules,
    scores: tuple[int, ...] | list[int],
    match_aware: bool,
    net: RoundValue | None = None,
) -> RoundValue | None:
    """The learned value between rounds the search may stop its rollouts at, if any:
    ``net`` (a network under trial) in place of the shipped one, where that one applies."""
    if match_aware and max(scores) + MATCH_REACH >= rules.target:
        return None
    shipped = net_for(rules)
    return net if net is not None and shipped is not None else shipped


def _exact_ok(g: Hand, cards: int = EXACT_CARDS) -> bool:
    """Solve ``g`` exactly: the stock is empty and at most ``cards`` are in hands."""
    return not g.stock and g.in_hands <= cards


def evaluate(
    draw: Callable[[], Hand],
    codes: list[int],
    side: int,
    limit: Limit,
    rng: random.Random,
    *,
    rollout: str = DEFAULT_ROLLOUT,
    match_aware: bool = False,
    unique_world: bool = False,
    round_value: RoundValue | None = None,
    model_endgame: bool = True,
    round_search: bool = False,
    solve_from: int = EXACT_CARDS,
) -> list[MoveStat]:
    """Value every root move over worlds from ``draw`` until the limit is used up.

    A simulation is one move evaluated in one world (a round search counts as
    ``ROUND_SEARCH_COST``); at least one world is always searched.
    ``unique_world``: the hidden state is fully known, so an exact solve needs one world.
    ``round_value``: stop rollouts when the next round is dealt and take this network's
    value there (only for a rollout policy in ``ROUND_ROLLOUTS``); with it, a world whose
    last round has just been dealt is valued by ``endgame.model_value`` if
    ``model_endgame``, else by the network too. ``round_search`` (with ``round_value``): value
    each move in each world by alpha-beta to the end of the round instead of a rollout
    (``minimax.round_minimax``)."""
    leaf = None
    if round_search and round_value is not None:
        leaf = round_leaf(side, round_value, match_aware)
    if round_value is not None and rollout in ROUND_ROLLOUTS:
        play_out = ROUND_ROLLOUTS[rollout]
    else:
        play_out = ROLLOUTS[rollout]
        round_value = None
    seeded = SEEDED_ROLLOUTS.get(rollout) if round_value is None else None
    # value a world whose last round has just been dealt by the model's replies
    fresh_last = round_value is not None and model_endgame
    stats = [MoveStat(c) for c in codes]
    #: exact values by (move, world's hands and stock): a world drawn again is not re-solved
    solved: dict[tuple[int, ...], float] = {}
    sims = limit.simulations
    if sims is None and limit.seconds is None:
        sims = DEFAULT_SIMULATIONS
    deadline = None if limit.seconds is None else time.perf_counter() + limit.seconds
    used: float = 0
    # Every move's rollout in a world replays the same random stream (common random
    # numbers): the difference between two moves then owes less to rollout luck.
    stream = random.Random()
    clock = time.perf_counter
    spent = 0  # simulations charged beyond one a move for this world's exact solves
    while True:
        world = draw()
        seed = rng.getrandbits(64)
        if seeded is None:
            stream.seed(seed)
            state = stream.getstate()
        all_exact = True
        values = []
        for st in stats:
            if deadline is not None and used and clock() >= deadline:
                return stats  # out of time mid-world: drop the unfinished world
            g = world.copy()
            g.play_code(st.code)
            if leaf is not None and (g.round != world.round or not _exact_ok(g, solve_from)):
                # alpha-beta to the end of the round (minimax.py)
                all_exact = False
                values.append(round_minimax(g, side, world.round, leaf))
            elif fresh_last and g.round != world.round and _exact_ok(g, solve_from):
                # this move ends the round before the last (see below)
                all_exact = False
                values.append(model_value(g, side, match_aware))
            elif _exact_ok(g, solve_from):
                # late in a hand the sampler draws the same few worlds again and again
                key = (st.code, *world.hands, *world.stock)
                value = solved.get(key)
                if value is None:
                    value = solved[key] = solve(g, side, match_aware)
                    # a solve from many cards costs many rollouts: charge it so
                    spent += solve_cost(g.in_hands) - 1
                values.append(value)
            else:
                all_exact = False
                if seeded is None:
                    stream.setstate(state)
                    play_out(g, stream)
                else:
                    seeded(g, seed)
                if round_value is None or g.hand_over:
                    values.append(utility(g, side, match_aware))
                elif fresh_last and _exact_ok(g, solve_from):
                    # the round just dealt is the last: in this world it hides nothing,
                    # so value it as it will be played, our best against a good
                    # player's likely replies (endgame.py), in a fraction of a millisecond
                    values.append(model_value(g, side, match_aware))
                else:
                    values.append(round_value.of(g, side))
        for st, value in zip(stats, values, strict=True):
            st.total += value
            st.count += 1
        used += len(stats) * (1 if leaf is None else ROUND_SEARCH_COST) + spent
        spent = 0
        if all_exact and unique_world:
            break
        if sims is not None and used >= sims:
            break
        if deadline is not None and clock() >= deadline:
            break
    return stats


def known_world(view: PlayerView) -> bool:
    """True when the view leaves nothing hidden (the stock is empty and at most one other
    seat holds cards), so every sample is the same world."""
    if view.stock_size:
        return False
    holders = [s for s, k in enumerate(view.hand_sizes) if k and s != view.seat]
    return len(holders) <= 1


def exact_heads_up(view: PlayerView) -> bool:
    """Heads-up with nothing hidden (the last round): the search's values are exact and
    ties between them are broken by a good player's likely replies (``endgame``)."""
    return view.rules.players == 2 and known_world(view)


def best(stats: list[MoveStat]) -> MoveStat:
    """The move with the highest mean (the first such in the legal order on a tie)."""
    top = stats[0]
    for st in stats[1:]:
        if st.mean > top.mean + 1e-12:
            top = st
    return top


def search_view(
    view: PlayerView,
    limit: Limit | None,
    rng: random.Random,
    *,
    rollout: str | None = None,
    clues: bool | str = True,
    match_aware: bool = False,
    algorithm: str = "pimc",
    learned: bool = True,
    model_endgame: bool = True,
    partner_endgame: bool = True,
    value_net: RoundValue | None = None,
) -> list[MoveStat]:
    """Every legal move of the view's seat with its value from determinized search over
    worlds weighted by ``clues`` (``worlds``). ``learned``: end the rollouts at the round's
    end where a learned value exists; ``model_endgame``: value a freshly dealt last round
    against the model's replies; ``partner_endgame``: among partners, solve exactly from
    more cards (``teams``). ``minimax``: value each world by alpha-beta to the end of the
    round where a learned value exists (else by rollouts). ``value_net``: the learned
    value to use instead of the shipped one (``round_value_for``)."""
    if not view.my_turn:
        raise ValueError("it is not this seat's turn")
    codes = view.legal_codes()
    if rollout is None:
        rollout = default_rollout(view.rules.players)
    sampler = WorldSampler(view, rng, clues)
    side = view.seat % view.rules.teams
    net = round_value_for(view.rules, view.scores, match_aware, value_net) if learned else None
    return evaluate(
        sampler.draw,
        codes,
        side,
        limit or Limit(),
        rng,
        rollout=rollout,
        match_aware=match_aware,
        unique_world=known_world(view),
        round_value=net,
        model_endgame=model_endgame,
        round_search=algorithm == "minimax",
        solve_from=exact_cards(view.rules) if partner_endgame else EXACT_CARDS,
    )


def _check_rollout(rollout: str | None) -> None:
    if rollout is not None and rollout not in ROLLOUTS:
        raise ValueError(f"unknown rollout {rollout!r}; choose one of {', '.join(ROLLOUTS)}")


class SearchBot(Bot):
    """The strongest fair bot: determinized search of sampled worlds (see module doc).

    Its settings are what the levels (``levels.py``), the studies still run
    (``bench/strength.py``: each part that models the opponent off in turn;
    ``bench/kernel.py``: the rollout policies; ``bench/generations.py``: a network under
    trial) and the learned value's training (``scripts/train_value.py``) set. It always
    plays for the match (a hand that decides it is worth more) with the table's prior
    (``default_prior``)."""

    name = "search"

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        default_limit: Limit | None = None,
        rollout: str | None = None,
        clues: bool | str = True,
        algorithm: str = "pimc",
        learned: bool = True,
        model_ties: bool = True,
        partner_endgame: bool = True,
        value_net: RoundValue | str | Path | None = None,
    ) -> None:
        super().__init__(seed)
        _check_rollout(rollout)
        check_clues(clues)
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {ALGORITHMS}")
        self.default_limit = default_limit or Limit(simulations=DEFAULT_SIMULATIONS)
        self.rollout = rollout
        self.clues = clues
        self.algorithm = algorithm
        self.learned = learned
        self.model_ties = model_ties
        self.partner_endgame = partner_endgame
        #: a value network (or its file) in place of the shipped one: a generation under trial
        self.value_net = None if value_net is None else given_net(value_net)

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        forced = forced_move(view)
        if forced is not None:
            return forced
        stats = search_view(
            view,
            limit or self.default_limit,
            self.rng,
            rollout=self.rollout,
            clues=self.clues,
            match_aware=True,
            algorithm=self.algorithm,
            learned=self.learned,
            model_endgame=self.model_ties,
            partner_endgame=self.partner_endgame,
            value_net=self.value_net,
        )
        if self.model_ties and exact_heads_up(view):
            # every card is known and the values are exact: break ties by a good
            # player's likely replies (endgame.py)
            world = imagined(view.sample(self.rng))
            return Move.from_code(break_ties(world, stats, True).code)
        if self.model_ties and self.partner_endgame and solved_phase(view):
            # partners, every world solved exactly: the values decide, a good player's
            # likely replies break ties, then the heuristic (teams.py)
            sampler = WorldSampler(view, self.rng, self.clues)
            chosen = choose_solved(
                stats,
                lambda code: heuristic_score(view, Move.from_code(code)),
                sampler.draw,
                view.seat % view.rules.teams,
                True,
            )
            return Move.from_code(chosen.code)
        prior = default_prior(view.rules.players)
        if prior:
            # Sampled values are noisy with few worlds; the heuristic's one-ply judgement
            # (sweep risk over the unseen cards) steadies close calls.
            moves = [Move.from_code(st.code) for st in stats]
            scores = [
                st.mean + prior * heuristic_score(view, m)
                for st, m in zip(stats, moves, strict=True)
            ]
            return moves[scores.index(max(scores))]
        return Move.from_code(best(stats).code)


def oracle_values(
    game: Hand,
    limit: Limit,
    rng: random.Random,
    rollout: str | None = None,
    match_aware: bool = True,
) -> list[MoveStat]:
    """Every legal move of the seat to move valued on the true full state (every hand and
    the stock's order seen): solved exactly once the stock is empty and few cards are left
    (one world is enough), else by rollouts in that one world up to ``limit``. Not fair:
    the oracle's yardstick and the review's hindsight."""
    return evaluate(
        lambda: imagined(game.copy()),
        game.legal_codes(),
        game.to_move % game.rules.teams,
        limit,
        rng,
        rollout=rollout or default_rollout(game.rules.players),
        match_aware=match_aware,
        unique_world=True,
    )


def oracle_exact(game: Hand) -> bool:
    """Whether ``oracle_values`` solves every move of ``game`` exactly (no rollout): the
    stock is empty and few enough cards are left once the move is played."""
    return _exact_ok(game, EXACT_CARDS + 1)


class OracleBot(Bot):
    """The same search on the true full state: not fair, a yardstick and analysis tool.
    Hosts call ``choose_full(game, limit)``; ``choose(view)`` is refused."""

    name = "oracle"
    omniscient = True

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        default_limit: Limit | None = None,
        rollout: str | None = None,
        match_aware: bool = True,
        model_ties: bool = True,
    ) -> None:
        super().__init__(seed)
        _check_rollout(rollout)
        self.default_limit = default_limit or Limit(simulations=DEFAULT_SIMULATIONS)
        self.rollout = rollout
        self.match_aware = match_aware
        self.model_ties = model_ties

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        raise TypeError("the oracle sees the full state: call choose_full(game, limit)")

    def choose_full(self, game: Hand, limit: Limit | None = None) -> Move:
        if game.hand_over:
            raise ValueError("the hand is over: no move to choose")
        if game.deciding:
            return Move.from_code(DECLARE)  # as every bot of ours (base.declaration)
        codes = game.legal_codes()
        if len(codes) == 1:
            return Move.from_code(codes[0])
        stats = oracle_values(
            game, limit or self.default_limit, self.rng, self.rollout, self.match_aware
        )
        if self.model_ties and game.rules.players == 2 and _exact_ok(game):
            return Move.from_code(break_ties(game, stats, self.match_aware).code)
        return Move.from_code(best(stats).code)
