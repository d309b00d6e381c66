"""``run_arena``: many duplicate deals and matches, in parallel, summed up per bot.

Work is cut into chunks of deal and match numbers; each chunk runs in a worker process
(``jobs > 1``) or in this one. Every deal's outcome depends only on the arena seed and its
number, and outcomes are summed in number order, so the result (apart from timings) is the
same for any ``jobs``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

from ..bots.base import Limit
from ..rules import Rules
from .play import BotFactory, DuplicateOutcome, play_duplicate
from .seating import arrangements
from .specs import bot_factory, display_names
from .stats import mean_se, openskill_ratings, percentile

#: progress(done, total) after each finished deal or match
Progress = Callable[[int, int], None]


@dataclass
class BotStats:
    """One bot's line in the arena report."""

    name: str
    #: mean point margin per deal over the opponents, and its standard error
    margin: float
    margin_se: float
    #: fraction of duplicated matches to the target won, and its standard error
    win_rate: float
    win_rate_se: float
    #: seconds per decision
    move_median: float
    move_p99: float
    moves: int
    #: openskill (Plackett-Luce) over the deals, each deal ranked by margin
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
    rules: Rules
    seed: str
    items: list[tuple[str, int]]
    limit: Limit | None
    timeout: float


def _work_seed(seed: int | str, kind: str, number: int) -> str:
    return f"{seed}:{kind}:{number}"


ItemResult = tuple[str, int, list[float], list[float], list[list[float]]]


def _run_task(
    task: _Task, on_item: Callable[[ItemResult], None] | None = None
) -> list[ItemResult]:
    """Play a chunk; per item: kind, number, margins, wins, move times per bot."""
    factories: list[BotFactory] = [bot_factory(s, task.timeout) for s in task.specs]
    labels = display_names(task.specs)
    out = []
    try:
        for kind, number in task.items:
            o: DuplicateOutcome = play_duplicate(
                factories, task.rules, _work_seed(task.seed, kind, number), kind == "match",
                task.limit, labels,
            )
            times: list[list[float]] = [[] for _ in task.specs]
            for table in o.tables:
                for b, dt in table.times:
                    times[b].append(dt)
            item = (kind, number, o.margins, o.wins, times)
            out.append(item)
            if on_item is not None:
                on_item(item)
    finally:
        for f in factories:
            close = getattr(f, "close", None)
            if close is not None:
                close()
    return out


def _chunks(items: list[tuple[str, int]], jobs: int) -> list[list[tuple[str, int]]]:
    """Small enough chunks for an even load and a lively progress bar."""
    if jobs == 1:
        return [items]
    size = max(1, min(10, len(items) // (jobs * 4)))
    return [items[i : i + size] for i in range(0, len(items), size)]


def run_arena(
    bot_names: Sequence[str],
    rules: Rules,
    deals: int,
    jobs: int = 1,
    seed: int | str = 0,
    progress: Progress | None = None,
    matches: int | None = None,
    limit: Limit | None = None,
    timeout: float = 10.0,
) -> ArenaResult:
    """Play ``deals`` duplicate deals and ``matches`` duplicate matches (default: one per
    ten deals, at least one) between the bots and report per bot.

    A bot is a registered name or ``cmd:<command line>`` (an external program speaking the
    bot protocol; ``timeout`` seconds per answer)."""
    specs = list(bot_names)
    if len(specs) < 2:
        raise ValueError("an arena needs at least two bots")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    for s in specs:
        bot_factory(s, timeout, check_only=True)
    n_matches = max(1, deals // 10) if matches is None else matches
    if n_matches < 0:
        raise ValueError("matches must be 0 or more")
    items = [("deal", i) for i in range(deals)] + [("match", i) for i in range(n_matches)]
    tasks = [_Task(specs, rules, str(seed), c, limit, timeout) for c in _chunks(items, jobs)]
    start = time.perf_counter()
    results: dict[tuple[str, int], tuple[list[float], list[float], list[list[float]]]] = {}

    def collect_one(item: ItemResult) -> None:
        kind, number, margins, wins, times = item
        results[(kind, number)] = (margins, wins, times)
        if progress is not None:
            progress(len(results), len(items))

    def collect(chunk: list[ItemResult]) -> None:
        for item in chunk:
            collect_one(item)

    if jobs == 1:
        _run_task(tasks[0], collect_one)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_run_task, t) for t in tasks]
            try:
                for fut in as_completed(futures):
                    collect(fut.result())
            except BaseException:  # a broken bot or Ctrl-C: do not play the rest
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    elapsed = time.perf_counter() - start
    return _summarise(specs, rules, deals, n_matches, seed, jobs, elapsed, results)


def _summarise(
    specs: list[str], rules: Rules, deals: int, n_matches: int, seed: int | str, jobs: int,
    elapsed: float, results: dict[tuple[str, int], Any],
) -> ArenaResult:
    k = len(specs)
    deal_margins = [results[("deal", i)][0] for i in range(deals)]
    match_wins = [results[("match", i)][1] for i in range(n_matches)]
    times: list[list[float]] = [[] for _ in specs]
    for key in sorted(results):
        for b, ts in enumerate(results[key][2]):
            times[b].extend(ts)
    ratings = openskill_ratings(deal_margins, k)
    stats = []
    for b, name in enumerate(display_names(specs)):
        margin, margin_se = mean_se([d[b] for d in deal_margins])
        win, win_se = mean_se([m[b] for m in match_wins])
        stats.append(
            BotStats(
                name=name, margin=margin, margin_se=margin_se, win_rate=win, win_rate_se=win_se,
                move_median=percentile(times[b], 50), move_p99=percentile(times[b], 99),
                moves=len(times[b]), rating_mu=ratings[b][0], rating_sigma=ratings[b][1],
            )
        )
    return ArenaResult(
        bots=stats, rules=rules.to_dict(), deals=deals, matches=n_matches, seed=seed, jobs=jobs,
        seconds=elapsed, arrangements=arrangements(k, rules.teams), deal_margins=deal_margins,
    )
