"""Arena throughput: duplicate deals per second, random vs random by default.

    .venv/bin/python bench/arena.py [--deals 400] [--runs 5] [--jobs 2] [--variant scopa]
                                    [--players N] [--bots A B] [--ray ADDRESS]
                                    [--simulations N]

Prints the median of several runs for:
- baseline: the same hands played by a bare loop (public engine API, random moves, one
  hand per seating), no bots, no arena;
- the same with RandomBots choosing from their seat's view (what bots and views cost);
- the arena with one job (ratio to the bots loop: the arena's own overhead of seating,
  seeding, timing and summing up);
- the arena with --jobs worker processes (ratio to one job: the parallel speed-up, which
  can only approach the number of idle cores);
- with ``--ray ADDRESS``, the arena on that Ray cluster one task at a time and --jobs at a
  time (one connection for both, made before them and closed after: its time is printed
  apart; local worker processes are never forked while it is open), and each backend's
  cost per task: the median round trip of a task that does nothing, sent --jobs at a time.

Wall-clock rates on a shared machine measure the share of the CPU the run got as much as
the run (Linux gives each session an equal share, however many processes it has). So every
row also gets its CPU seconds a deal: this process and its worker processes, and with
``--cluster-pid`` (the ``ray start --head --block`` process of a cluster on this machine)
every process of the cluster too (Ray's own daemons included).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import time

from scopa.arena import run_arena
from scopa.arena.executor import open_executor
from scopa.bots import Limit, make_bot
from scopa.match import Match
from scopa.rules import Rules
from scopa.view import PlayerView


def baseline(rules: Rules, deals: int, seed: int) -> float:
    """Seconds to play each deal once per seating with random moves, nothing else."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(deals):
        for _ in range(max(2, rules.teams)):
            game = Match(rules, hand_seed=f"{seed}:deal:{i}").hand
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
            game = Match(rules, hand_seed=f"{seed}:deal:{i}").hand
            bots = [make_bot("random", seed * 7919 + r * 31 + s) for s in range(rules.players)]
            while not game.hand_over:
                seat = game.to_move
                game.play(bots[seat].choose(PlayerView.of(game, seat), None))
            game.hand_result()
    return time.perf_counter() - start


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its descendants (their children reaped included)."""
    tick = os.sysconf("SC_CLK_TCK")
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
            total += sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue  # it ended meanwhile
    return total


def cpu_now(cluster_pid: int | None) -> float:
    """CPU seconds so far of this process, its reaped children and the local cluster."""
    own = sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
              for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own + (_tree_cpu(cluster_pid) if cluster_pid else 0.0)


#: CPU seconds of each arena row's runs (``arena`` appends)
CPU: dict[str, list[float]] = {}


def arena(
    rules: Rules, deals: int, jobs: int, seed: int, bots: list[str], ray: str | None = None,
    limit: Limit | None = None, row: str = "", cluster_pid: int | None = None,
) -> float:
    cpu = cpu_now(cluster_pid)
    start = time.perf_counter()
    run_arena(bots, rules, deals, jobs=jobs, seed=seed, matches=0, ray=ray, limit=limit)
    elapsed = time.perf_counter() - start
    CPU.setdefault(row, []).append(cpu_now(cluster_pid) - cpu)
    return elapsed


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
    parser.add_argument("--simulations", type=int, default=None,
                        help="every arena bot's budget a move, with no clock: searching "
                             "bots then cost CPU, not wall time, whatever the load")
    parser.add_argument("--cluster-pid", type=int, default=None,
                        help="with --ray on a cluster on this machine: its head's "
                             "'ray start --block' process, to count the cluster's CPU time")
    args = parser.parse_args()
    measure(args)


def measure(args: argparse.Namespace) -> None:
    """Every row, interleaved run by run; then the medians."""
    opts = {"players": args.players} if args.players else {}
    rules = Rules.preset(args.variant, **opts)
    limit = Limit(simulations=args.simulations) if args.simulations else None
    times: dict[str, list[float]] = {
        "baseline": [], "bots loop": [], "arena, 1 job": [], "arena, jobs": [],
        "ray, 1": [], "ray, jobs": [], "task, local": [], "task, ray": [], "connect": [],
    }
    for run in range(args.runs):  # interleaved, so machine load affects all alike
        times["baseline"].append(baseline(rules, args.deals, run))
        times["bots loop"].append(bots_loop(rules, args.deals, run))
        pid = args.cluster_pid
        times["arena, 1 job"].append(
            arena(rules, args.deals, 1, run, args.bots, None, limit, "arena, 1 job"))
        times["arena, jobs"].append(
            arena(rules, args.deals, args.jobs, run, args.bots, None, limit, "arena, jobs"))
        times["task, local"].append(task_cost(args.jobs, None))
        if not args.ray:
            continue
        start = time.perf_counter()
        with open_executor(args.jobs, args.ray):  # the rows below reuse this connection
            times["connect"].append(time.perf_counter() - start)
            times["ray, 1"].append(
                arena(rules, args.deals, 1, run, args.bots, args.ray, limit, "ray, 1", pid))
            times["ray, jobs"].append(arena(rules, args.deals, args.jobs, run, args.bots,
                                            args.ray, limit, "ray, jobs", pid))
            times["task, ray"].append(task_cost(args.jobs, args.ray))
    med = {k: statistics.median(v) for k, v in times.items() if v}
    print(f"{args.variant}, {rules.players} players, {' vs '.join(args.bots)}, {args.deals} "
          f"duplicate deals x {max(2, rules.teams)} seatings, median of {args.runs} runs"
          + (f", {args.simulations} simulations a move" if limit else ""))
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
    print("  CPU seconds a deal (this process, its workers"
          + (", the cluster's processes)" if args.cluster_pid else ")"))
    for key, values in CPU.items():
        print(f"    {key:14s} {statistics.median(values) / args.deals * 1000:8.1f} ms   runs: "
              + " ".join(f"{v:.2f}" for v in values) + " s")
    print("  wall seconds of each run")
    for key, values in times.items():
        if values:
            ms = key.startswith("task")
            print(f"    {key:14s} " + " ".join(f"{v * 1000 if ms else v:.3f}" for v in values)
                  + (" ms" if ms else " s"))


if __name__ == "__main__":
    main()
