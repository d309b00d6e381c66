"""Engine speed of two source trees, paired: is a change slower than its base commit?

Run: ``.venv/bin/python bench/engine_pair.py BASE_TREE [NEW_TREE] [--pairs 10]``

A tree is a checkout holding ``src/scopa`` and ``bench/engine.py``: the base commit's with
``git archive 6b90367 | tar -x -C /tmp/base`` (or ``git worktree add``); NEW_TREE defaults
to this checkout. Each pair runs ``bench/engine.py``'s workloads once per tree, each in a
fresh Python process importing that tree's ``scopa`` (``PYTHONPATH``), the two in
alternating order, with the clock set to CPU time (``time.process_time``): the machine is
shared, and wall time counts other people's work. Prints each tree's median per path and
the median of the per-pair ratios (new speed / base speed: above 1.0 is faster).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
#: paths measured in deals per second (higher is faster); the rest in ns (lower is faster)
RATES = ("public 2p deals/s", "public 4p deals/s", "internal 2p deals/s", "internal 4p deals/s")
TIMES = ("movegen public ns", "movegen internal ns")


def child(tree: Path, deals: int, runs: int) -> dict[str, float]:
    """Measure one tree in this process (started with that tree's ``src`` first on the path)."""
    spec = importlib.util.spec_from_file_location("engine_bench", tree / "bench" / "engine.py")
    assert spec is not None and spec.loader is not None
    bench: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.time = types.SimpleNamespace(perf_counter=time.process_time)  # CPU time
    import scopa

    if not Path(scopa.__file__).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"imported {scopa.__file__}, not the tree {tree}")
    rules = bench.Rules
    rng = random.Random(1)
    setups = {p: rules.preset("scopa", players=p) for p in (2, 4)}
    positions = {p: bench._positions(r, 200) for p, r in setups.items()}
    if hasattr(bench, "loaded"):
        games = {p: bench.loaded(positions[p]) for p in setups}
    else:  # a tree from before issue 41 (one ``Game`` class): the base of its study
        games = {p: [bench.Game.from_position(pos) for pos in positions[p]] for p in setups}
    states = bench._midgame_states(setups[2], 400)
    bench.public_deals(positions[2], 300, rng)
    bench.public_deals(positions[4], 300, rng)
    bench.internal_deals(games[2], 300, rng)
    results: dict[str, list[float]] = {}
    for _ in range(runs):
        for p in setups:
            results.setdefault(f"public {p}p deals/s", []).append(
                bench.public_deals(positions[p], deals, rng))
            results.setdefault(f"internal {p}p deals/s", []).append(
                bench.internal_deals(games[p], deals, rng))
        gen = bench.movegen_ns(states, 10)
        results.setdefault("movegen public ns", []).append(gen["public"])
        results.setdefault("movegen internal ns", []).append(gen["internal"])
    return {k: statistics.median(v) for k, v in results.items()}


def run_tree(tree: Path, deals: int, runs: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(tree), "--deals", str(deals),
         "--runs", str(runs)],
        env=env, capture_output=True, text=True,
    )
    if out.returncode:
        raise SystemExit(f"measuring {tree} failed:\n{out.stderr}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path, nargs="?", help="the base tree")
    ap.add_argument("new", type=Path, nargs="?", default=HERE, help="the changed tree")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--deals", type=int, default=1500, help="deals per path and run")
    ap.add_argument("--runs", type=int, default=3, help="runs per process (their median)")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.deals, args.runs)))
        return 0
    if args.base is None:
        ap.error("give the base tree")
    trees = {"base": args.base, "new": args.new}
    seen: dict[str, list[dict[str, float]]] = {"base": [], "new": []}
    for i in range(args.pairs):
        order = ("base", "new") if i % 2 == 0 else ("new", "base")
        for name in order:
            seen[name].append(run_tree(trees[name], args.deals, args.runs))
        print(f"pair {i + 1}/{args.pairs} done", file=sys.stderr)
    print(f"engine pair: {args.pairs} pairs, {args.runs} runs x {args.deals} deals each, "
          f"CPU time, medians")
    print(f"  base {args.base}\n  new  {args.new}")
    print(f"  {'path':22s} {'base':>10s} {'new':>10s} {'new/base speed':>15s}")
    for key in (*RATES, *TIMES):
        base = [s[key] for s in seen["base"]]
        new = [s[key] for s in seen["new"]]
        if key in RATES:
            ratios = [n / b for b, n in zip(base, new, strict=True)]
        else:  # a time: the speed ratio is base / new
            ratios = [b / n for b, n in zip(base, new, strict=True)]
        print(f"  {key:22s} {statistics.median(base):>10,.0f} {statistics.median(new):>10,.0f} "
              f"{statistics.median(ratios):>8.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
