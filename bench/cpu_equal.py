"""CPU time per move of bots on the same positions, and the ``alphabeta`` world count that
costs the same CPU as another bot: equal time that does not depend on the machine's load.

Wall-clock "equal time" on a shared machine is meaningless (the load changes during a
run), so this measures ``time.process_time`` of each bot's ``choose`` on one fixed set of
positions (every decision with a choice in hands of ``heuristic`` self-play, seeded), and
gives ``alphabeta`` at a depth as many worlds as match the other bot's mean CPU per move
(mean, not median: the total time over the hand is what is equal).

    .venv/bin/python bench/cpu_equal.py --variant scopone-scientifico --hands 4 champion alphabeta
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from scopa import Rules
from scopa.bots import Bot, Limit, make_bot
from scopa.bots.abpimc import AlphaBetaBot
from scopa.bots.heuristic import HeuristicBot
from scopa.match import Match
from scopa.view import PlayerView


def sample_views(variant: str, hands: int, seed: str = "cpu") -> list[PlayerView]:
    """Every decision with more than one legal move in ``hands`` hands of heuristic
    self-play (seeded: the same positions every time)."""
    rules = Rules.preset(variant)
    out = []
    for h in range(hands):
        game = Match(rules, seed=f"{seed}:{h}").hand
        bots = [HeuristicBot(f"{seed}:{h}:{s}") for s in range(rules.players)]
        while not game.hand_over:
            view = PlayerView.of(game, game.to_move)
            if len(view.legal_codes()) > 1:
                out.append(view)
            game.play(bots[game.to_move].choose(view))
    return out


def cpu_per_move(
    make: Callable[[], Bot], views: list[PlayerView], limit: Limit | None = None
) -> list[float]:
    """Seconds of CPU (``process_time``) each position's ``choose`` took (a fresh bot per
    position, so every position starts alike)."""
    out = []
    for view in views:
        bot = make()
        start = time.process_time()
        bot.choose(view, limit)
        out.append(time.process_time() - start)
    return out


def alphabeta_world_cost(
    views: list[PlayerView], depth: int, worlds: int = 2
) -> tuple[list[float], float]:
    """``alphabeta`` with ``worlds`` worlds at ``depth`` timed on ``views``: its CPU
    seconds a move, and the mean CPU seconds one world costs (its cost is linear in the
    worlds)."""
    spent = cpu_per_move(lambda: AlphaBetaBot(0, worlds=worlds, depth=depth), views)
    return spent, statistics.fmean(spent) / worlds


def worlds_costing(seconds_per_move: float, per_world: float) -> int:
    """The ``alphabeta`` world count whose mean CPU a move is ``seconds_per_move`` (at
    least one world), from one world's cost (``alphabeta_world_cost``)."""
    return max(1, round(seconds_per_move / per_world))


def nearest_rank(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``xs`` by nearest rank (a time that was measured)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def summary(times: list[float]) -> str:
    """Mean, median, p90 and p99 in milliseconds."""
    ms = sorted(1000 * t for t in times)
    p90, p99 = nearest_rank(ms, 0.9), nearest_rank(ms, 0.99)
    return (
        f"mean {statistics.fmean(ms):.1f}, median {statistics.median(ms):.1f}, "
        f"p90 {p90:.1f}, p99 {p99:.1f} ms ({len(ms)} positions)"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("bots", nargs="+", help="registered bot or level names")
    p.add_argument("--variant", default="scopone-scientifico")
    p.add_argument("--hands", type=int, default=4)
    p.add_argument("--seed", default="cpu")
    p.add_argument("--simulations", type=int, default=None,
                   help="a simulation count for every bot (no clock)")
    args = p.parse_args(argv)
    views = sample_views(args.variant, args.hands, args.seed)
    limit = Limit(simulations=args.simulations) if args.simulations else None
    for name in args.bots:
        times = cpu_per_move(lambda name=name: make_bot(name, 0), views, limit)
        print(f"{name:24s} {summary(times)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
