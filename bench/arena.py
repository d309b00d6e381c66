"""Arena throughput: duplicate deals per second, random vs random by default.

    .venv/bin/python bench/arena.py [--deals 400] [--runs 5] [--jobs 2] [--variant scopa]
                                    [--players N] [--bots A B] [--ray ADDRESS]

Prints the median of several runs for:
- baseline: the same hands played by a bare loop (public engine API, random moves, one
  hand per seating), no bots, no arena;
- the same with RandomBots choosing from their seat's view (what bots and views cost);
- the arena with one job (ratio to the bots loop: the arena's own overhead of seating,
  seeding, timing and summing up);
- the arena with --jobs worker processes (ratio to one job: the parallel speed-up, which
  can only approach the number of idle cores);
- with ``--ray ADDRESS``, the arena on that Ray cluster one task at a time and --jobs at a
  time (one connection for the whole run, made before the first: its cost is printed
  apart), and each backend's cost per task: the median round trip of a task that does
  nothing, sent --jobs at a time.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time

from scopa.arena import run_arena
from scopa.arena.executor import open_executor
from scopa.bots import make_bot
from scopa.game import Game
from scopa.rules import Rules


def baseline(rules: Rules, deals: int, seed: int) -> float:
    """Seconds to play each deal once per seating with random moves, nothing else."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(deals):
        for _ in range(max(2, rules.teams)):
            game = Game(rules, hand_seed=f"{seed}:deal:{i}")
            while not game.hand_over:
                game.play(rng.choice(game.legal_moves()))
            game.hand_result()
    return time.perf_counter() - start


def bots_loop(rules: Rules, deals: int, seed: int) -> float:
    """The same with two RandomBots choosing from their views: what the arena adds to
    this is its own overhead (seating, seeding, timing, summing up)."""
    start = time.perf_counter()
    for i in range(deals):
        for r in range(max(2, rules.teams)):
            game = Game(rules, hand_seed=f"{seed}:deal:{i}")
            bots = [make_bot("random", seed * 7919 + r * 31 + s) for s in range(rules.players)]
            while not game.hand_over:
                seat = game.to_move
                game.play(bots[seat].choose(game.view(seat), None))
            game.hand_result()
    return time.perf_counter() - start


def arena(
    rules: Rules, deals: int, jobs: int, seed: int, bots: list[str], ray: str | None = None
) -> float:
    start = time.perf_counter()
    run_arena(bots, rules, deals, jobs=jobs, seed=seed, matches=0, ray=ray)
    return time.perf_counter() - start


def nothing(x: int) -> int:
    """A task that does nothing: its round trip is a backend's own cost per task."""
    return x


def task_cost(jobs: int, ray: str | None, tasks: int = 200) -> float:
    """Seconds per task of ``tasks`` tasks that do nothing, ``jobs`` at a time (the
    backend already started: a first batch warms its workers up)."""
    with open_executor(jobs, ray) as ex:
        ex.ordered(nothing, list(range(jobs * 4)))
        start = time.perf_counter()
        ex.ordered(nothing, list(range(tasks)))
        return (time.perf_counter() - start) / tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variant", default="scopa")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--bots", nargs=2, default=["random", "random"],
                        help="the two arena bots (the baselines always use random)")
    parser.add_argument("--ray", default=None, metavar="ADDRESS",
                        help="also run the arena on the Ray cluster at ADDRESS")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.ray:
            start = time.perf_counter()
            stack.enter_context(open_executor(args.jobs, args.ray))
            print(f"connected to Ray at {args.ray} in {time.perf_counter() - start:.1f} s")
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """Every row, interleaved run by run; then the medians."""
    opts = {"players": args.players} if args.players else {}
    rules = Rules.preset(args.variant, **opts)
    times: dict[str, list[float]] = {
        "baseline": [], "bots loop": [], "arena, 1 job": [], "arena, jobs": [],
        "ray, 1": [], "ray, jobs": [], "task, local": [], "task, ray": [],
    }
    for run in range(args.runs):  # interleaved, so machine load affects all alike
        times["baseline"].append(baseline(rules, args.deals, run))
        times["bots loop"].append(bots_loop(rules, args.deals, run))
        times["arena, 1 job"].append(arena(rules, args.deals, 1, run, args.bots))
        times["arena, jobs"].append(arena(rules, args.deals, args.jobs, run, args.bots))
        times["task, local"].append(task_cost(args.jobs, None))
        if args.ray:
            times["ray, 1"].append(arena(rules, args.deals, 1, run, args.bots, args.ray))
            times["ray, jobs"].append(
                arena(rules, args.deals, args.jobs, run, args.bots, args.ray))
            times["task, ray"].append(task_cost(args.jobs, args.ray))
    med = {k: statistics.median(v) for k, v in times.items() if v}
    print(f"{args.variant}, {rules.players} players, {' vs '.join(args.bots)}, {args.deals} "
          f"duplicate deals x {max(2, rules.teams)} seatings, median of {args.runs} runs")
    base_rate = args.deals / med["baseline"]
    loop_rate = args.deals / med["bots loop"]
    one_rate = args.deals / med["arena, 1 job"]
    jobs_rate = args.deals / med["arena, jobs"]
    print(f"  baseline (bare engine loop)  {base_rate:9.1f} deals/s")
    print(f"  bots in a bare loop          {loop_rate:9.1f} deals/s   "
          f"{loop_rate / base_rate:5.2f} x baseline")
    same = args.bots == ["random", "random"]  # else the loops play other bots: no ratio
    print(f"  arena, 1 job                 {one_rate:9.1f} deals/s   "
          + (f"{one_rate / loop_rate:5.2f} x bots loop" if same else "(other bots)"))
    print(f"  arena, {args.jobs} jobs                {jobs_rate:9.1f} deals/s   "
          f"{jobs_rate / one_rate:5.2f} x one job")
    if args.ray:
        ray1 = args.deals / med["ray, 1"]
        rayn = args.deals / med["ray, jobs"]
        print(f"  Ray, 1 task at a time        {ray1:9.1f} deals/s   "
              f"{ray1 / one_rate:5.2f} x one job")
        print(f"  Ray, {args.jobs} tasks at a time       {rayn:9.1f} deals/s   "
              f"{rayn / ray1:5.2f} x Ray one at a time, {rayn / jobs_rate:5.2f} x "
              f"{args.jobs} jobs")
    print(f"  cost a task, {args.jobs} local processes {1000 * med['task, local']:7.2f} ms")
    if args.ray:
        print(f"  cost a task, Ray             {1000 * med['task, ray']:7.2f} ms")
    for key, values in times.items():
        if values:
            print(f"    {key:14s} " + " ".join(f"{v:.3f}" for v in values) + " s")


if __name__ == "__main__":
    main()
