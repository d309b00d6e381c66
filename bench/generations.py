"""Measure a generation of the round value network (issue 32: values from self-play).

A generation is kept only if its champion wins against the pool, not just against its
parent, so each is measured three ways on the same duplicate deals (same ``--seed``), the
champion on its level's simulation count with no clock (load changes only the time):

- ``head``: the champion valuing round ends by ``--net`` against the one using
  ``--parent`` (``shipped``: the level itself, ``champion@2000``);
- ``pool``: the champion using ``--net`` (or the shipped one) against ``alphabeta``
  (12 worlds, depth 5);
- ``--pair A.json B.json``: plays nothing; the paired difference B - A of two ``pool`` runs
  deal by deal (``bench/paired.py``'s arithmetic).

Each run is one arena (one job under the machine's lock) and also reports CPU a move
(``process_time``, ``bench/cpu_equal.py``) of the measured champion over the decisions of
``--cpu-hands`` heuristic self-play hands.

    .venv/bin/python bench/generations.py head --net g1.json --json g1-head.json --jobs 2
    .venv/bin/python bench/generations.py pool --json g0-pool.json --jobs 2
    .venv/bin/python bench/generations.py pool --net g1.json --json g1-pool.json --jobs 2
    .venv/bin/python bench/generations.py --pair g0-pool.json g1-pool.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from scopa import Rules
from scopa.arena import run_arena
from scopa.bots import Bot, Limit, SearchBot, register_bot

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_equal import cpu_per_move, nearest_rank, sample_views  # noqa: E402
from paired import paired  # noqa: E402
from strength import CHAMPION_OPTIONS, _Counted, _Fixed, _line  # noqa: E402

SIMULATIONS = 2000


class _NetChampion:
    """A picklable factory for the champion level's search valuing round ends by the
    network file ``net`` (as ``_Counted("champion", ...)``: a fixed count, no clock)."""

    def __init__(self, net: str, simulations: int = SIMULATIONS) -> None:
        self.net = net
        self.simulations = simulations

    def __call__(self, seed: int | str | None = None) -> Bot:
        limit = Limit(simulations=self.simulations)
        bot = SearchBot(seed, default_limit=limit, value_net=self.net, **CHAMPION_OPTIONS)
        return _Fixed(bot, limit)


def _register(net: str | None, sims: int) -> str:
    """Register the champion using ``net`` (None or "shipped": the level) under a name."""
    if net in (None, "shipped"):
        name = f"champion@{sims}"
        register_bot(name, _Counted("champion", sims))
    else:
        name = f"champion-{os.path.splitext(os.path.basename(net))[0]}@{sims}"
        register_bot(name, _NetChampion(os.path.abspath(net), sims))
    return name


def _cpu(name: str, hands: int) -> list[float]:
    """Median, p99 and mean CPU ms a move of the registered bot ``name``."""
    from scopa.bots import make_bot

    views = sample_views("scopa", hands, "generations:cpu")
    ms = [1000 * t for t in cpu_per_move(lambda: make_bot(name, 0), views)]
    return [
        round(statistics.median(ms), 2),
        round(nearest_rank(ms, 0.99), 2),
        round(statistics.fmean(ms), 2),
    ]


def _pair(a_path: str, b_path: str) -> int:
    with open(a_path) as f:
        a = json.load(f)["line"]
    with open(b_path) as f:
        b = json.load(f)["line"]
    mean, se, corr = paired(a["deal_margins"], b["deal_margins"])
    print(
        f"{b['bots'][1]} minus {a['bots'][1]}, both against {a['bots'][0]} "
        f"({len(a['deal_margins'])} deals): {a['margin']:+.3f} -> {b['margin']:+.3f}, "
        f"paired difference {mean:+.3f} ± {se:.3f} (runs correlate {corr:.2f})"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", nargs="?", choices=("head", "pool"))
    p.add_argument("--net", default=None, help="the generation's network file")
    p.add_argument("--parent", default="shipped", help="head: the parent's network file")
    p.add_argument("--opponent", default="alphabeta", help="pool: the sparring bot")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", default="strength")
    p.add_argument("--simulations", type=int, default=SIMULATIONS)
    p.add_argument("--cpu-hands", type=int, default=3)
    p.add_argument("--json", default=None)
    p.add_argument("--pair", nargs=2, metavar=("A", "B"), default=None)
    args = p.parse_args(argv)
    if args.pair:
        return _pair(*args.pair)
    if args.what is None:
        p.error("say head or pool (or --pair A B)")
    me = _register(args.net, args.simulations)
    other = _register(args.parent, args.simulations) if args.what == "head" else args.opponent
    if other == me:
        p.error("the generation and its parent are the same network")
    start = time.perf_counter()
    res = run_arena(
        [other, me],
        Rules.preset("scopa"),
        deals=args.deals,
        jobs=args.jobs,
        seed=args.seed,
        matches=0,
    )
    line = _line(res)
    cpu = _cpu(me, args.cpu_hands)
    print(
        f"[{args.what}] {me} vs {other} ({res.deals} deals): {line['margin']:+.3f} ± "
        f"{line['margin_se']:.3f} points per deal; wall ms a move (median, p99) "
        f"{line['move_ms']}; CPU ms a move of {me} (median, p99, mean) {cpu} "
        f"({time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "line": line, "cpu_ms": cpu}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
