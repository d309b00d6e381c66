"""Compare two runs of ``bench/strength.py --json`` deal by deal.

Two versions of a bot measured on the same deals (same ``--seed`` and ``--deals``) share
most of the deals' luck: the per-deal margins of two champion runs against ``heuristic``
correlated at 0.95 over 400 deals. The standard error of the paired difference (about
0.025 a deal) is then a third of what comparing the two margins' own errors suggests, so
small changes can be told from noise. Usage:

    .venv/bin/python bench/strength.py --only champion2 --json before.json
    (change the bot)
    .venv/bin/python bench/strength.py --only champion2 --json after.json
    .venv/bin/python bench/paired.py before.json after.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any


def _lines(path: str) -> dict[tuple[str, ...], dict[str, Any]]:
    with open(path) as f:
        data = json.load(f)
    return {(ln["section"], *ln["bots"], ln["variant"]): ln for ln in data["lines"]}


def paired(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """Mean and standard error of ``b - a`` deal by deal, and the runs' correlation."""
    if len(a) != len(b) or len(a) < 2:
        raise ValueError("the runs must cover the same deals (at least two)")
    d = [y - x for x, y in zip(a, b, strict=True)]
    return statistics.mean(d), statistics.stdev(d) / len(d) ** 0.5, statistics.correlation(a, b)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("before")
    p.add_argument("after")
    args = p.parse_args(argv)
    before, after = _lines(args.before), _lines(args.after)
    shared = [key for key in before if key in after]
    if not shared:
        print("no match-up appears in both runs", file=sys.stderr)
        return 1
    for key in shared:
        a = before[key].get("deal_margins")
        b = after[key].get("deal_margins")
        if not a or not b:
            print(f"{' '.join(key)}: a run has no deal margins (older --json)", file=sys.stderr)
            continue
        try:
            mean, se, corr = paired(a, b)
        except ValueError as err:
            print(f"{' '.join(key)}: {err}", file=sys.stderr)
            continue
        section, first, second, variant = key
        print(
            f"[{section}] {second} vs {first} ({variant}, {len(a)} deals): "
            f"{before[key]['margin']:+.3f} -> {after[key]['margin']:+.3f}, "
            f"paired difference {mean:+.3f} ± {se:.3f} (runs correlate {corr:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
