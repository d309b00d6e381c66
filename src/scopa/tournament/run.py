"""Running a whole event whose entrants need no person (bots): pair a round, play its
tables, enter the results, until the event is over.

How a deal or a match is played is handed in (the command line plays them with the
arena's ``play_table``), so this package needs nothing above the rules core and the
server can use the same loop for bot-only events. What is played comes from the event
alone: each table's deals, its match seed, and the knockout decider.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .event import Event, Round
from .results import Result, Score

#: plays one deal: (hand seed, the side the home entrant holds) -> (home, away) points
PlayDeal = Callable[[str, int], Score]
#: plays one match to the target, home on side 0: match seed -> final (home, away) score
PlayMatch = Callable[[str], Score]


@dataclass(frozen=True)
class TableJob:
    """Everything needed to play one table of a round, picklable for worker processes."""

    round: int
    table: int
    home: str
    away: str
    #: the event's rules (``Rules.to_dict``)
    rules: dict[str, Any]
    #: fixed deals: (hand seed, side the home entrant holds), in order
    deals: tuple[tuple[str, int], ...]
    #: an event played to a target: the match seed (None for fixed deals)
    match_seed: str | None
    #: a knockout table: the decider's deals, played one by one while they are drawn
    decider: tuple[tuple[str, int], ...] = ()


def table_jobs(event: Event, rnd: Round) -> list[TableJob]:
    """The tables of a round still to be played (byes and forfeits need no play)."""
    rules = event.rules().to_dict()
    out = []
    for t in rnd.tables:
        if t.away is None or t.result is not None:
            continue
        target = event.target is not None
        out.append(TableJob(
            rnd.number, t.number, t.home, t.away, rules,
            () if target else tuple(event.deal_seeds(rnd.number, t.number)),
            event.match_seed(rnd.number, t.number) if target else None,
            tuple(event.decider_seeds(rnd.number, t.number))
            if event.format == "knockout" else (),
        ))
    return out


def play_job(job: TableJob, play_deal: PlayDeal, play_match: PlayMatch) -> Result:
    """Play a table: its deals or its match, then, if it ended level in a knockout, decider
    deals until one is won (or they run out: then the better seed goes through)."""
    if job.match_seed is not None:
        result = Result(score=play_match(job.match_seed))
    else:
        result = Result(deals=tuple(play_deal(seed, side) for seed, side in job.deals))
    home, away = result.points
    if home != away or not job.decider:
        return result
    decider = []
    for seed, side in job.decider:
        deal = play_deal(seed, side)
        decider.append(deal)
        if deal[0] != deal[1]:
            break
    return Result(deals=result.deals, score=result.score, decider=tuple(decider))


def run_event(
    event: Event,
    play_round: Callable[[Sequence[TableJob]], list[Result]],
    on_round: Callable[[Round], None] | None = None,
) -> Event:
    """Play the event's remaining rounds; ``play_round`` plays a round's tables (in any
    order or in parallel) and returns their results in the order of the jobs."""
    while not event.finished:
        rnd = event.current if event.current is not None and not event.current.complete \
            else event.next_round()
        jobs = table_jobs(event, rnd)
        results = play_round(jobs)
        for job, result in zip(jobs, results, strict=True):
            event.enter_result(job.round, job.table, result)
        if on_round is not None:
            on_round(rnd)
    return event
