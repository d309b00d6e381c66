"""Ties in the known last round are broken by a good player's likely replies."""

from __future__ import annotations

import random

import pytest

from scopa import Move, Rules
from scopa.bots import Limit, SearchBot
from scopa.bots.analysis import analyse
from scopa.bots.endgame import break_ties, model_replies, model_value
from scopa.bots.exact import solve
from scopa.bots.heuristic import HeuristicBot
from scopa.bots.movestat import MoveStat
from scopa.bots.round_value import net_for
from scopa.bots.search import OracleBot, evaluate
from scopa.hand import Hand
from scopa.match import Match
from scopa.view import PlayerView

RULES = Rules.preset("scopa")


def last_rounds(count: int, prefix: str = "eg") -> list[Hand]:
    """Positions at the start of the last round of heuristic self-play hands."""
    out = []
    for k in range(count):
        g = Match(RULES, hand_seed=f"{prefix}{k}").hand
        bots = [HeuristicBot(f"{prefix}{k}-{s}") for s in range(2)]
        while g.stock or g.in_hands < 6:
            g.play(bots[g.to_move].choose(PlayerView.of(g, g.to_move)))
        out.append(g)
    return out


def exact_stats(g: Hand) -> list[MoveStat]:
    side = g.to_move
    out = []
    for code in g.legal_codes():
        h = g.copy()
        h.play_code(code)
        out.append(MoveStat(code, solve(h, side), 1))
    return out


@pytest.fixture(scope="module")
def positions() -> list[Hand]:
    return last_rounds(40)


def test_model_replies_are_the_heuristic_bots_choices(positions: list[Hand]) -> None:
    narrowed = 0
    for g in positions:
        picks = model_replies(g)
        assert picks and set(picks) <= set(g.legal_codes())
        narrowed += len(picks) < len(g.legal_codes())
        chosen = set()
        for seed in range(6):
            move = HeuristicBot(seed).choose(PlayerView.of(g, g.to_move))
            chosen.add(move.card | move.capture << 6)
        assert chosen <= set(picks)
        if len(picks) == 1:
            assert chosen == set(picks)
    assert narrowed >= 20


def test_the_model_opponent_is_never_better_than_perfect_play(positions: list[Hand]) -> None:
    """Against any replies, playing your best is worth at least the minimax value; against
    the model's it is worth more in some positions (else the tie-break would be idle)."""
    better = 0
    for g in positions:
        for side in (0, 1):
            exact = solve(g, side)
            against_model = model_value(g, side)
            assert against_model >= exact - 1e-9
            better += against_model > exact + 1e-9
    assert better >= 5


def test_break_ties_keeps_the_exact_value_and_gains_against_the_model() -> None:
    changed = 0
    for g in last_rounds(60, "bt"):
        while not g.hand_over:
            stats = exact_stats(g)
            top = max(st.mean for st in stats)
            chosen = break_ties(g, stats)
            assert chosen.mean == pytest.approx(top)
            first = next(st for st in stats if st.mean >= top - 1e-9)
            if chosen.code != first.code:
                side = g.to_move
                a, b = g.copy(), g.copy()
                a.play_code(chosen.code)
                b.play_code(first.code)
                assert model_value(a, side) > model_value(b, side)
                changed += 1
            g.play_code(random.Random(g.in_hands).choice(g.legal_codes()))
    assert changed >= 3


def test_a_wide_margin_gives_up_exact_value_only_for_the_model() -> None:
    """With an unbounded margin the choice is the model's best response: never worse
    against the model than the exact choice."""
    for g in last_rounds(20, "wm"):
        stats = exact_stats(g)
        side = g.to_move
        tie = break_ties(g, stats)
        wide = break_ties(g, stats, margin=float("inf"))
        a, b = g.copy(), g.copy()
        a.play_code(wide.code)
        b.play_code(tie.code)
        assert model_value(a, side) >= model_value(b, side) - 1e-9


def test_search_oracle_and_hint_play_the_tie_break_in_the_last_round(
    positions: list[Hand],
) -> None:
    """The fair search (whose view then hides nothing), the oracle and the analysis a hint
    shows all put first the move ``break_ties`` picks; with ``model_ties=False`` the search
    keeps the first best."""
    differ = 0
    for g in positions:
        stats = exact_stats(g)
        want = break_ties(g, stats).code
        first = max(stats, key=lambda st: st.mean).code
        limit = Limit(simulations=50)
        view = PlayerView.of(g, g.to_move)
        assert SearchBot(0, default_limit=limit).choose(view) == Move.from_code(want)
        assert OracleBot(0, default_limit=limit).choose_full(g.copy()) == Move.from_code(want)
        assert analyse(view, limit)[0].move == Move.from_code(want)
        plain = SearchBot(0, default_limit=limit, model_ties=False).choose(view)
        assert plain == Move.from_code(first)
        differ += want != first
    assert differ >= 1


def test_a_move_that_deals_the_last_round_is_valued_against_the_model() -> None:
    """Heads-up with the learned value, the search values a position where the last round
    has just been dealt (nothing hidden in that world) by ``model_value``, not by the
    network or the perfect-play solve; with ``model_endgame=False``, by the solve."""
    net = net_for(RULES)
    assert net is not None
    differ = 0
    for k in range(30):
        g = Match(RULES, hand_seed=f"pen{k}").hand
        bots = [HeuristicBot(f"pen{k}-{s}") for s in range(2)]
        while not (len(g.stock) == 6 and g.in_hands == 1):
            g.play(bots[g.to_move].choose(PlayerView.of(g, g.to_move)))
        codes = g.legal_codes()
        side = g.to_move
        stats = evaluate(
            g.copy, codes, side, Limit(simulations=len(codes)), random.Random(k),
            rollout="sound", round_value=net,
        )
        for st in stats:
            child = g.copy()
            child.play_code(st.code)
            assert not child.stock and child.in_hands == 6
            assert st.count == 1
            assert st.mean == pytest.approx(model_value(child, side))
            differ += abs(st.mean - solve(child, side)) > 1e-9
        plain = evaluate(
            g.copy, codes, side, Limit(simulations=len(codes)), random.Random(k),
            rollout="sound", round_value=net, model_endgame=False,
        )
        for st in plain:
            child = g.copy()
            child.play_code(st.code)
            assert st.mean == pytest.approx(solve(child, side))
    assert differ >= 3
