"""Random play through each RL interface against the engine's own random play, one core.

Run: ``.venv/bin/python bench/rl.py [--runs 5] [--hands 40] [--variant scopa]``

Every path plays the same deals (hand seeds ``bench-<run>-<hand>``: ``reset(options=
{"deal": ...})`` for the environments, the same deck card by card at OpenSpiel's chance
nodes), one deal each in turn, timed in CPU time of this process, after a warm-up that
fills the engine's capture tables. Every interface plays whole hands at
random (a uniformly random legal action at every
decision) and the rates are counted in engine moves (plays of a card) per second, so an
interface whose move takes two actions is not flattered; its actions per second are shown
too. The baseline, in the same run and interleaved with the others (paired rounds, medians
over ``--runs``), is the engine's public path: deal a hand, ``legal_moves`` and ``play``
until it is over. Lines:

- ``engine``: the baseline;
- ``engine+view``: the same plus ``game.view(seat)`` of the seat to move at every move (what
  any fair player, bot or agent, is given);
- ``pettingzoo``: ``env.last()`` (observation vector and action mask) and ``env.step``;
- ``gymnasium``: ``SingleAgentEnv(["random"])``: the learner's observation at each of its
  steps, our random bot at the other seats;
- ``openspiel``: ``legal_actions`` and ``apply_action`` (dealing by 40 chance nodes
  included); ``openspiel+tensor`` also reads the information-state tensor at each decision
  (``state.information_state_tensor()``: OpenSpiel copies it into a new Python list of
  floats, thousands of them, at every call), ``openspiel+observer`` reads the same tensor
  as a numpy array through OpenSpiel's ``make_observation`` (the observer's ``set_from``).

The ratio column is the median over rounds of the interface's time per move over the
engine's in the same round (target: at most 3), with the lowest and highest round; "x
best" is the best round of the interface over the best round of the engine (on a loaded
machine the least disturbed rounds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import warnings
from collections.abc import Callable

import pyspiel
from open_spiel.python.observation import make_observation

import scopa.rl as rl
import scopa.rl.openspiel  # noqa: F401
from scopa import Rules
from scopa.match import Match
from scopa.view import PlayerView

#: a path plays one deal and says how many engine moves and actions it took
Play = Callable[[str], tuple[int, int]]


def engine(rules: Rules, seed: int, view: bool = False) -> Play:
    rng = random.Random(seed)

    def play(deal: str) -> tuple[int, int]:
        g = Match(rules, hand_seed=deal).hand
        moves = 0
        while not g.hand_over:
            if view:
                PlayerView.of(g, g.to_move)
            legal = g.legal_moves()
            g.play(legal[int(rng.random() * len(legal))])
            moves += 1
        g.hand_result()
        return moves, moves

    return play


def pettingzoo(rules: Rules, seed: int) -> Play:
    env = rl.env(rules.variant, rules.players)
    rng = random.Random(seed)

    def play(deal: str) -> tuple[int, int]:
        actions = 0
        env.reset(options={"deal": deal})
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
            actions += 1
        return len(env.unwrapped.episode.game.hand.history), actions

    return play


def gymnasium(rules: Rules, seed: int) -> Play:
    env = rl.SingleAgentEnv(["random"], rules.variant, rules.players)
    rng = random.Random(seed)

    def play(deal: str) -> tuple[int, int]:
        obs, _ = env.reset(seed=rng.getrandbits(32), options={"deal": deal})
        actions = 0
        done = False
        while not done:
            legal = obs["action_mask"].nonzero()[0]
            obs, _, term, trunc, _ = env.step(int(legal[int(rng.random() * len(legal))]))
            actions += 1
            done = term or trunc
        return len(env.episode.game.hand.history), actions

    return play


def openspiel(rules: Rules, seed: int, tensor: str = "") -> Play:
    game = pyspiel.load_game("python_scopa", {"variant": rules.variant, "players": rules.players})
    rng = random.Random(seed)
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))

    def play(deal: str) -> tuple[int, int]:
        state = game.new_initial_state()
        deck = iter(DECKS[deal])
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.chance_outcomes()  # what a sampler reads; the card is the deal's
                state.apply_action(next(deck))
                continue
            if tensor == "list":
                state.information_state_tensor()
            elif tensor == "observer":
                observer.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            actions += 1
        return len(state.game.history), actions

    return play


#: each deal's deck in deal order, made before the timing (OpenSpiel deals it card by card)
DECKS: dict[str, list[int]] = {}


def deals_of(rules: Rules, name: str, hands: int) -> list[str]:
    deals = [f"bench-{name}-{h}" for h in range(hands)]
    for deal in deals:
        deck = Match(rules, hand_seed=deal).deck
        assert deck is not None
        DECKS[deal] = deck
    return deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--variant", default="scopa")
    ap.add_argument("--players", type=int, default=None)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rules = Rules.preset(args.variant, **({"players": args.players} if args.players else {}))
    paths: dict[str, Callable[[Rules, int], Play]] = {
        "engine": engine,
        "engine+view": lambda r, s: engine(r, s, view=True),
        "pettingzoo": pettingzoo,
        "gymnasium": gymnasium,
        "openspiel": openspiel,
        "openspiel+tensor": lambda r, s: openspiel(r, s, tensor="list"),
        "openspiel+observer": lambda r, s: openspiel(r, s, tensor="observer"),
    }
    per_move: dict[str, list[float]] = {k: [] for k in paths}
    per_action: dict[str, list[float]] = {k: [] for k in paths}
    # warm the engine's capture tables and the imports: the first path timed would pay
    warm = engine(rules, 0)
    for deal in deals_of(rules, "warm", 20 * args.hands):
        warm(deal)
    for make in paths.values():
        play = make(rules, 99)
        for deal in deals_of(rules, "warm", args.hands):
            play(deal)
    names = list(paths)
    for run in range(args.runs):
        players = {k: make(rules, run) for k, make in paths.items()}
        spent = dict.fromkeys(paths, 0.0)
        moves = dict.fromkeys(paths, 0)
        actions = dict.fromkeys(paths, 0)
        # paired at the finest grain: every path plays each deal in turn (the order
        # rotating), so a burst of load on the machine falls on all of them alike
        for h, deal in enumerate(deals_of(rules, str(run), args.hands)):
            for k in names[h % len(names) :] + names[: h % len(names)]:
                start = time.process_time()
                m, a = players[k](deal)
                spent[k] += time.process_time() - start
                moves[k] += m
                actions[k] += a
        for k in paths:
            per_move[k].append(spent[k] / moves[k])
            per_action[k].append(spent[k] / actions[k])
    print(f"{rules.variant}, {rules.players} players, {args.hands} hands x {args.runs} runs "
          "(medians of CPU time)")
    print(f"{'path':19s} {'moves/s':>10s} {'actions/s':>10s} {'us/move':>8s} {'x engine':>9s}"
          f" {'ratios':>14s} {'x best':>7s}")
    for k in paths:
        m = statistics.median(per_move[k])
        a = statistics.median(per_action[k])
        # the ratio of each round (paired with that round's engine), then their median
        ratios = [t / e for t, e in zip(per_move[k], per_move["engine"], strict=True)]
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        best = min(per_move[k]) / min(per_move["engine"])
        print(f"{k:19s} {1 / m:10.0f} {1 / a:10.0f} {m * 1e6:8.1f} "
              f"{statistics.median(ratios):9.2f} {spread:>14s} {best:7.2f}")


if __name__ == "__main__":
    main()
