"""The compiled kernel against the pure-Python path: same outcomes, speed, and strength.

    .venv/bin/python bench/kernel.py agree [--deals 100000] [--all-seatings]
    .venv/bin/python bench/kernel.py speed [--runs 7] [--deals 20000]
    .venv/bin/python bench/kernel.py strength [--deals 100] [--ms 20] [--rollout random]
                                              [--opponent heuristic]

- ``agree``: every preset's random deals (``playout.random_deals``: the deck shuffled and
  played out by the shared playout generator) through both paths from one seed; counts
  the deals whose points differ (it must be 0) and reports both paths' deals per second.
- ``speed``: 2-player Scopa, paired runs (the same deals, the two paths alternating, CPU
  time of this process), medians and the ratio, for (a) whole random deals (shuffle, deal,
  play out, score) and (b) what a search rollout does with a dealt state (``copy``,
  ``random_playout``, ``hand_totals``). Floor (issue 17): 300,000 deals/s through the
  kernel on one core.
- ``strength``: what the speed buys at equal time. The search bot (``--rollout``, its
  default otherwise) plays duplicate deals (both seatings) against ``--opponent``, given
  ``--ms`` per move, in a pure-Python process (SCOPA_PURE_PYTHON=1) and in a process with
  the kernel, side by side (the same machine load) on the same deals; prints both
  margins, the simulations a move each managed, and the paired difference with its
  standard error (bench/paired.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from scopa import VARIANTS, Rules
from scopa.bots.base import Limit, make_bot
from scopa.bots.search import SearchBot, search_view
from scopa.kernel import KERNEL, PURE_ENV
from scopa.playout import kernel_playout, python_playout, random_deals
from scopa.rules import VARIANT_SEATINGS
from scopa.scoring import hand_totals

sys.path.insert(0, str(Path(__file__).parent))
from paired import paired  # noqa: E402  (bench/paired.py, beside this script)
from scopa.hand import Hand
from scopa.match import Match
from scopa.view import PlayerView


def _need_kernel() -> None:
    if KERNEL is None:
        raise SystemExit("the compiled kernel is not in use (not built, or SCOPA_PURE_PYTHON)")


def agree(deals: int, all_seatings: bool, seed: int) -> None:
    _need_kernel()
    print(f"random deals through both paths, {deals:,} a preset, seed {seed}")
    for variant in VARIANTS:
        counts = sorted(VARIANT_SEATINGS[variant]) if all_seatings else [None]
        for players in counts:
            rules = Rules.preset(variant, **({"players": players} if players else {}))
            t0 = time.process_time()
            python = random_deals(rules, seed, deals, pure=True)
            t1 = time.process_time()
            kernel = random_deals(rules, seed, deals)
            t2 = time.process_time()
            differ = sum(a != b for a, b in zip(python, kernel, strict=True))
            mean = [statistics.fmean(t[i] for t in kernel) for i in range(rules.teams)]
            print(f"  {variant:20s} {rules.players}p  differing deals {differ}   "
                  f"python {deals / (t1 - t0):>9,.0f}/s  kernel {deals / (t2 - t1):>11,.0f}/s"
                  f"  mean points {' '.join(f'{m:.3f}' for m in mean)}")


def _rollouts(games: list[Hand], run: Callable[[Hand, int], int], seed: int) -> float:
    """Rollouts per CPU second: copy a dealt state, play it out, score it."""
    x = seed
    t0 = time.process_time()
    for g in games:
        h = g.copy()
        x = run(h, x)
        hand_totals(h.rules, h.captured, h.scope)
    return len(games) / (time.process_time() - t0)


def speed(runs: int, deals: int) -> None:
    _need_kernel()
    rules = Rules.preset("scopa")
    games = [Match(rules, seed=f"kernel-{i}").hand for i in range(deals // 4)]
    random_deals(rules, 0, 2000, pure=True)  # warm the Python capture caches
    results: dict[str, list[float]] = {}
    for run in range(runs):  # the same deals for both paths, in alternating order
        for pure in (True, False) if run % 2 == 0 else (False, True):
            name = "python" if pure else "kernel"
            n = deals // 10 if pure else deals  # the first deals of the same sequence
            t0 = time.process_time()
            random_deals(rules, run, n, pure=pure)
            rate = n / (time.process_time() - t0)
            results.setdefault(f"whole deals, {name}", []).append(rate)
            fn = python_playout if pure else kernel_playout
            results.setdefault(f"rollouts, {name}", []).append(_rollouts(games, fn, run))
    med = {k: statistics.median(v) for k, v in results.items()}
    print(f"2-player Scopa, {runs} paired runs (CPU time), medians (min, max)")
    for k, v in med.items():
        print(f"  {k:24s} {v:>11,.0f}/s   ({min(results[k]):,.0f}, {max(results[k]):,.0f})")
    for what in ("whole deals", "rollouts"):
        ratios = [k / p for k, p in zip(results[f"{what}, kernel"],
                                        results[f"{what}, python"], strict=True)]
        print(f"  {what}: kernel / python, median of paired ratios "
              f"{statistics.median(ratios):.1f}x")
    print("floor (issue 17): 300,000 random 2-player deals/s through the kernel")


def _search_bot(seed: int, rollout: str | None) -> SearchBot:
    return SearchBot(seed, rollout=rollout)


def margins(
    deals: int, ms: float, rollout: str | None, opponent: str, seed: int, variant: str
) -> dict[str, object]:
    """Per deal, the search bot's side's margin against ``opponent`` (both seatings
    averaged; at four seats two partners each), the search given ``ms`` per move; and its
    simulations a move on the positions met."""
    rules = Rules.preset(variant)
    limit = Limit(seconds=ms / 1000)
    out = []
    sims: list[int] = []
    for i in range(deals):
        per_seating = []
        for mine in (0, 1):
            bots = [
                _search_bot(seed * 1000 + i, rollout) if s % 2 == mine
                else make_bot(opponent, seed * 1000 + i)
                for s in range(rules.players)
            ]
            g = Match(rules, hand_seed=f"kernel-strength:{seed}:{i}").hand
            while not g.hand_over:
                view = PlayerView.of(g, g.to_move)
                searched = len(sims) < 40 and (g.stock or g.in_hands > 8)
                if g.to_move % 2 == mine and searched and len(view.legal_codes()) > 1:
                    stats = search_view(view, limit, random.Random(i), rollout=rollout)
                    sims.append(sum(st.count for st in stats))
                g.play(bots[g.to_move].choose(view, limit if g.to_move % 2 == mine else None))
            pts = hand_totals(rules, g.captured, g.scope)
            per_seating.append(pts[mine] - pts[1 - mine])
        out.append(statistics.fmean(per_seating))
    return {"margins": out, "simulations": statistics.median(sims) if sims else 0}


def strength(
    deals: int, ms: float, rollout: str | None, opponent: str, seed: int, variant: str
) -> None:
    """The same bot on the same deals, once in a pure-Python process and once here with
    the kernel: the paired difference of its margins (bench/paired.py's method)."""
    _need_kernel()
    argv = [sys.executable, __file__, "margins", "--deals", str(deals), "--ms", str(ms),
            "--opponent", opponent, "--seed", str(seed), "--variant", variant]
    if rollout:
        argv += ["--rollout", rollout]
    # both sides at once, each in its own process: on a shared machine they meet the
    # same load, so "the same time a move" stays a fair comparison
    runs = [
        subprocess.Popen(argv, env={**os.environ, PURE_ENV: env}, stdout=subprocess.PIPE,
                         text=True)
        for env in ("1", "0")
    ]
    pure, kernel = (json.loads(run.communicate()[0]) for run in runs)
    if any(run.returncode for run in runs):
        raise SystemExit("a side failed")
    a, b = pure["margins"], kernel["margins"]
    mean, se, corr = paired(a, b)
    name = f"search({rollout or 'default'} rollouts, {ms:g} ms a move)"
    print(f"{variant}, {deals} duplicate deals x 2 seatings against {opponent}")
    print(f"  {name}, pure Python: {statistics.fmean(a):+.3f} a deal, "
          f"{pure['simulations']:.0f} simulations a move (median)")
    print(f"  {name}, kernel:      {statistics.fmean(b):+.3f} a deal, "
          f"{kernel['simulations']:.0f} simulations a move (median)")
    print(f"  kernel - pure, paired: {mean:+.3f} ± {se:.3f} a deal (runs correlate {corr:.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    a = sub.add_parser("agree")
    a.add_argument("--deals", type=int, default=100_000)
    a.add_argument("--all-seatings", action="store_true")
    a.add_argument("--seed", type=int, default=17)
    s = sub.add_parser("speed")
    s.add_argument("--runs", type=int, default=7)
    s.add_argument("--deals", type=int, default=20_000)
    for name in ("strength", "margins"):
        t = sub.add_parser(name)
        t.add_argument("--deals", type=int, default=100)
        t.add_argument("--ms", type=float, default=20.0)
        t.add_argument("--rollout", default=None, help="the search's rollout (its default)")
        t.add_argument("--opponent", default="heuristic")
        t.add_argument("--seed", type=int, default=1)
        t.add_argument("--variant", default="scopa", help="a 2- or 4-player preset")
    args = ap.parse_args()
    if args.what == "agree":
        agree(args.deals, args.all_seatings, args.seed)
    elif args.what == "speed":
        speed(args.runs, args.deals)
    elif args.what == "margins":  # one side of ``strength``, in its own process
        print(json.dumps(margins(args.deals, args.ms, args.rollout, args.opponent, args.seed,
                                 args.variant)))
    else:
        strength(args.deals, args.ms, args.rollout, args.opponent, args.seed, args.variant)


if __name__ == "__main__":
    main()
