"""The compiled kernel against the pure-Python path: same outcomes, speed, and strength.

    .venv/bin/python bench/kernel.py agree [--deals 100000] [--all-seatings]
    .venv/bin/python bench/kernel.py speed [--runs 7] [--deals 20000]
    .venv/bin/python bench/kernel.py strength [--deals 100] [--ms 20] [--rival random-python]

- ``agree``: every preset's random deals (``playout.random_deals``: the deck shuffled and
  played out by the shared playout generator) through both paths from one seed; counts
  the deals whose points differ (it must be 0) and reports both paths' deals per second.
- ``speed``: 2-player Scopa, paired runs (the same deals, the two paths alternating, CPU
  time of this process), medians and the ratio, for (a) whole random deals (shuffle, deal,
  play out, score) and (b) what a search rollout does with a dealt state (``copy``,
  ``random_playout``, ``hand_totals``). Floor (issue 17): 300,000 deals/s through the
  kernel on one core.
- ``strength``: duplicate deals (each deal played from both seatings) of the search bot
  with ``random`` rollouts (the kernel) against the same bot with ``random-python``
  rollouts (or another rollout, ``--rival``), both given the same time per move; prints
  the margin per deal of the kernel bot with its standard error, and the simulations
  each side completes in that time on sample positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from scopa import VARIANTS, Game, Rules
from scopa.bots.base import Limit
from scopa.bots.search import SearchBot, search_view
from scopa.kernel import KERNEL
from scopa.playout import kernel_playout, python_playout, random_deals
from scopa.rules import VARIANT_SEATINGS
from scopa.scoring import hand_totals


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


def _rollouts(games: list[Game], run: Callable[[Game, int], int], seed: int) -> float:
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
    games = [Game(rules, seed=f"kernel-{i}") for i in range(deals // 4)]
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


def _simulations(rollout: str, ms: float, views: list, seed: int) -> float:
    rng = random.Random(seed)
    done = []
    for view in views:
        stats = search_view(view, Limit(seconds=ms / 1000), rng, rollout=rollout)
        done.append(sum(st.count for st in stats))
    return statistics.median(done)


def strength(deals: int, ms: float, rival: str, seed: int) -> None:
    _need_kernel()
    rules = Rules.preset("scopa")
    limit = Limit(seconds=ms / 1000)
    margins = []
    views = []
    for i in range(deals):
        per_seating = []
        for kernel_seat in (0, 1):
            bots = {
                kernel_seat: SearchBot(seed * 1000 + i, rollout="random"),
                1 - kernel_seat: SearchBot(seed * 1000 + i, rollout=rival),
            }
            g = Game(rules, hand_seed=f"kernel-strength:{seed}:{i}")
            while not g.hand_over:
                view = g.view(g.to_move)
                if len(views) < 60 and len(view.legal_codes()) > 2 and g.stock:
                    views.append(view)
                g.play(bots[g.to_move].choose(view, limit))
            pts = hand_totals(rules, g.captured, g.scope)
            per_seating.append(pts[kernel_seat] - pts[1 - kernel_seat])
        margins.append(statistics.fmean(per_seating))
    mean = statistics.fmean(margins)
    se = statistics.stdev(margins) / len(margins) ** 0.5
    sims_k = _simulations("random", ms, views, seed)
    sims_r = _simulations(rival, ms, views, seed)
    print(f"2-player Scopa, {deals} duplicate deals x 2 seatings, {ms:g} ms a move each")
    print(f"  search(random rollouts, kernel) vs search({rival} rollouts): "
          f"{mean:+.3f} ± {se:.3f} points a deal")
    print(f"  simulations a move in {ms:g} ms (median over {len(views)} positions): "
          f"kernel {sims_k:.0f}, {rival} {sims_r:.0f}")


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
    t = sub.add_parser("strength")
    t.add_argument("--deals", type=int, default=100)
    t.add_argument("--ms", type=float, default=20.0)
    t.add_argument("--rival", default="random-python")
    t.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.what == "agree":
        agree(args.deals, args.all_seatings, args.seed)
    elif args.what == "speed":
        speed(args.runs, args.deals)
    else:
        strength(args.deals, args.ms, args.rival, args.seed)


if __name__ == "__main__":
    main()
