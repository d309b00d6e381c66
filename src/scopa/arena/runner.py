"""``run_arena``: many duplicate deals and matches, in parallel, summed up per bot.

Work is cut into chunks of deal and match numbers; each chunk runs in a worker process
(``jobs > 1``), on a Ray cluster (``ray=ADDRESS``, see ``executor``) or in this one. Every
deal's outcome depends only on the arena seed and its number, and outcomes are summed in
number order, so the result (apart from timings) is the same for any ``jobs`` and on any
cluster.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..bots.base import Bot, Limit, register_bot, registered
from ..rules import Rules
from .executor import Executor, open_executor
from .play import BotFactory, DuplicateOutcome, play_duplicate
from .progress import ArenaPlan, ArenaProgress
from .seating import arrangements
from .specs import bot_factory, command_line, is_registered, short_name, unique_names
from .stats import RunningMean, fit_ratings, mean_se, percentile, won_drawn_lost

#: called once before the first deal (the plan) and after each finished deal or match
Progress = Callable[[ArenaProgress], None]
#: given each finished deal's or match's game records (kind, number, one per seating), in
#: this process, when the caller keeps them
Records = Callable[[str, int, list[dict[str, Any]]], None]


@dataclass
class BotStats:
    """One bot's line in the arena report."""

    #: a registered bot's name, or the name an outside program gave in ``ready``; made
    #: unique with ``#2``, ``#3``... when two bots share one
    name: str
    #: the command line of an outside program (None for a registered bot)
    command: str | None
    #: mean point margin per deal over the opponents, and its standard error
    margin: float
    margin_se: float
    #: duplicate deals (each played from every seating) with a margin above, at, below 0
    deals_won: int
    deals_drawn: int
    deals_lost: int
    #: fraction of duplicated matches to the target won, and its standard error (None
    #: when no matches were played)
    win_rate: float | None
    win_rate_se: float | None
    #: seconds per decision
    move_median: float
    move_p99: float
    moves: int
    #: openskill's Plackett-Luce model fitted to all deals at once, each deal ranked by
    #: margin (``stats.fit_ratings``)
    rating_mu: float
    rating_sigma: float

    @property
    def rating(self) -> float:
        """Conservative rating (mu - 3 sigma)."""
        return self.rating_mu - 3 * self.rating_sigma


@dataclass
class ArenaResult:
    bots: list[BotStats]
    rules: dict[str, Any]
    deals: int
    matches: int
    seed: int | str
    jobs: int
    seconds: float
    arrangements: list[list[int]]
    #: per deal, the margin of each bot (in deal order)
    deal_margins: list[list[float]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for stats, d in zip(self.bots, out["bots"], strict=True):
            d["rating"] = stats.rating
        return out


@dataclass
class _Task:
    specs: list[str]
    labels: list[str]
    rules: Rules
    seed: str
    items: list[tuple[str, int]]
    limit: Limit | None
    timeout: float
    #: the registered bots among ``specs`` with their factories, for workers that are not
    #: forks of this process (a Ray cluster) and so lack what was registered at run time
    registered: dict[str, Callable[[int | str | None], Bot]] = field(default_factory=dict)
    #: bring back each table's game record
    records: bool = False


def _work_seed(seed: int | str, kind: str, number: int) -> str:
    return f"{seed}:{kind}:{number}"


#: kind, number, margins, wins, move times per bot, and the tables' game records (empty
#: unless asked for)
ItemResult = tuple[str, int, list[float], list[float], list[list[float]], list[dict[str, Any]]]


def _run_task(task: _Task) -> list[ItemResult]:
    """Play a chunk in a worker process, with bots of its own."""
    for name, factory in task.registered.items():
        register_bot(name, factory)
    factories: list[BotFactory] = [bot_factory(s, task.timeout) for s in task.specs]
    try:
        return _play_items(task, factories)
    finally:
        close_factories(factories)


def _play_items(
    task: _Task, factories: Sequence[BotFactory],
    on_item: Callable[[ItemResult], None] | None = None,
) -> list[ItemResult]:
    """Play a chunk; per item: kind, number, margins, wins, move times per bot."""
    out = []
    for kind, number in task.items:
        o: DuplicateOutcome = play_duplicate(
            factories, task.rules, _work_seed(task.seed, kind, number), kind == "match",
            task.limit, task.labels, task.records,
        )
        times: list[list[float]] = [[] for _ in task.specs]
        for table in o.tables:
            for b, dt in table.times:
                times[b].append(dt)
        kept = [t.record for t in o.tables if t.record is not None]
        item = (kind, number, o.margins, o.wins, times, kept)
        out.append(item)
        if on_item is not None:
            on_item(item)
    return out


def close_factories(factories: Sequence[BotFactory]) -> None:
    """Stop the programs behind external bots' factories."""
    for f in factories:
        close = getattr(f, "close", None)
        if close is not None:
            close()


def report_names(specs: Sequence[str], factories: Sequence[BotFactory]) -> list[str]:
    """Report names: an outside program's own ``ready`` name (its shortened command if
    it gives none), a registered bot's name; unique with ``#2``, ``#3``..."""
    names = []
    for spec, factory in zip(specs, factories, strict=True):
        ask = getattr(factory, "ready_name", None)
        names.append((ask() if ask is not None else None) or short_name(spec))
    return unique_names(names)


def _chunks(
    items: list[tuple[str, int]], jobs: int, workers: bool
) -> list[list[tuple[str, int]]]:
    """Small enough chunks for workers' even load and a lively progress bar (all at once
    in this process)."""
    if not workers:
        return [items]
    size = max(1, min(10, len(items) // (jobs * 4)))
    return [items[i : i + size] for i in range(0, len(items), size)]


def run_arena(
    bot_names: Sequence[str],
    rules: Rules,
    deals: int,
    jobs: int | None = None,
    seed: int | str = 0,
    progress: Progress | None = None,
    matches: int = 0,
    limit: Limit | None = None,
    timeout: float = 10.0,
    ray: str | None = None,
    records: Records | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals and ``matches`` duplicate matches (none unless asked)
    between the bots and report per bot.

    A bot is a registered name or ``cmd:<command line>`` (an external program speaking the
    bot protocol; ``timeout`` seconds per answer). Each program is started once here,
    before any deal, to learn its name.

    ``jobs`` worker processes (default 1: this one); with ``ray`` (a Ray cluster's
    address) the chunks run there instead, ``jobs`` at once (default: its CPUs). An outside
    program must then be at the same path on every node."""
    specs = list(bot_names)
    if len(specs) < 2:
        raise ValueError("an arena needs at least two bots")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if jobs is not None and jobs < 1:
        raise ValueError("jobs must be at least 1")
    if matches < 0:
        raise ValueError("matches must be 0 or more")
    factories: list[BotFactory] = [bot_factory(s, timeout) for s in specs]
    executor: Executor | None = None
    try:
        names = report_names(specs, factories)
        if ray or (jobs or 1) > 1:
            executor = open_executor(jobs, ray)
            close_factories(factories)  # the workers start programs of their own
        plan = ArenaPlan(names, rules.variant, rules.players, deals, matches,
                         len(arrangements(len(specs), rules.teams)), seed,
                         executor.workers if executor else 1, ray)
        return _run(specs, factories, plan, rules, limit, timeout, progress, executor, records)
    finally:
        close_factories(factories)
        if executor is not None:
            executor.close()


def _run(
    specs: list[str], factories: list[BotFactory], plan: ArenaPlan, rules: Rules,
    limit: Limit | None, timeout: float, progress: Progress | None,
    executor: Executor | None, records: Records | None = None,
) -> ArenaResult:
    """Play the plan, in this process (no executor, with ``factories``) or in workers."""
    items = ([("deal", i) for i in range(plan.deals)]
             + [("match", i) for i in range(plan.matches)])
    shipped: dict[str, Callable[[int | str | None], Bot]] = {}
    if executor is not None and executor.remote:
        shipped = {s: registered(s) for s in specs if is_registered(s)}
    tasks = [_Task(specs, plan.names, rules, str(plan.seed), c, limit, timeout, shipped,
                   records is not None)
             for c in _chunks(items, plan.jobs, executor is not None)]
    start = time.perf_counter()
    results: dict[tuple[str, int], tuple[list[float], list[float], list[list[float]]]] = {}
    running = [RunningMean() for _ in specs]
    done = {"deal": 0, "match": 0}

    def report() -> None:
        if progress is not None:
            progress(ArenaProgress(plan, done["deal"], done["match"],
                                   time.perf_counter() - start, [r.mean_se() for r in running]))

    def collect_one(item: ItemResult) -> None:
        kind, number, margins, wins, times, kept = item
        results[(kind, number)] = (margins, wins, times)
        if records is not None:
            records(kind, number, kept)
        done[kind] += 1
        if kind == "deal":
            for r, m in zip(running, margins, strict=True):
                r.add(m)
        report()

    report()

    if executor is None:
        _play_items(tasks[0], factories, collect_one)
    else:  # a broken bot or Ctrl-C leaves the loop: the tasks not started are cancelled
        for _, chunk in executor.unordered(_run_task, tasks):
            for item in chunk:
                collect_one(item)
    elapsed = time.perf_counter() - start
    return _summarise(specs, plan, rules, elapsed, results)


def _summarise(
    specs: list[str], plan: ArenaPlan, rules: Rules, elapsed: float,
    results: dict[tuple[str, int], Any],
) -> ArenaResult:
    k = len(specs)
    deal_margins = [results[("deal", i)][0] for i in range(plan.deals)]
    match_wins = [results[("match", i)][1] for i in range(plan.matches)]
    times: list[list[float]] = [[] for _ in specs]
    for key in sorted(results):
        for b, ts in enumerate(results[key][2]):
            times[b].extend(ts)
    ratings = fit_ratings(deal_margins, k)
    stats = []
    for b, (name, spec) in enumerate(zip(plan.names, specs, strict=True)):
        margins = [d[b] for d in deal_margins]
        margin, margin_se = mean_se(margins)
        won, drawn, lost = won_drawn_lost(margins)
        win, win_se = mean_se([m[b] for m in match_wins]) if match_wins else (None, None)
        stats.append(
            BotStats(
                name=name, command=command_line(spec), margin=margin, margin_se=margin_se,
                deals_won=won, deals_drawn=drawn, deals_lost=lost,
                win_rate=win, win_rate_se=win_se,
                move_median=percentile(times[b], 50), move_p99=percentile(times[b], 99),
                moves=len(times[b]), rating_mu=ratings[b][0], rating_sigma=ratings[b][1],
            )
        )
    return ArenaResult(
        bots=stats, rules=rules.to_dict(), deals=plan.deals, matches=plan.matches,
        seed=plan.seed, jobs=plan.jobs, seconds=elapsed,
        arrangements=arrangements(k, rules.teams), deal_margins=deal_margins,
    )
