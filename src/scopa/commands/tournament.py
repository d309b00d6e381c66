"""``scopa tournament``: an event among bots, played with the arena's bots and tables and
the tournament package's pairings and standings (docs/tournaments.md)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .bots import OPTION_HELP, TEAMS_HELP, VARIANT_HELP, parse_options


@dataclass(frozen=True)
class _Task:
    """One table for a worker: the job and the two entrants' bot specs."""

    job: Any
    specs: tuple[str, str]
    limit: Any
    timeout: float


def _play(job: Any, factories: Sequence[Any], limit: Any) -> Any:
    """Play one table with the arena's ``play_table``: bots sit by side, the home bot on
    the side the event gives it for each deal."""
    from ..arena.play import play_table
    from ..arena.seating import seat_bots
    from ..rules import Rules
    from ..tournament import play_job

    rules = Rules.from_dict(job.rules)
    labels = [job.home, job.away]

    def deal(seed: str, side: int) -> tuple[int, int]:
        arrangement = [0, 1] if side == 0 else [1, 0]
        out = play_table(factories, rules, seat_bots(arrangement, rules.players), seed,
                         False, limit, labels)
        return out.points[side], out.points[1 - side]

    def match(seed: str) -> tuple[int, int]:
        out = play_table(factories, rules, seat_bots([0, 1], rules.players), seed, True,
                         limit, labels)
        return out.points[0], out.points[1]

    return play_job(job, deal, match)


def _play_task(task: _Task) -> Any:
    """A table in a worker process, with bots (and outside programs) of its own."""
    from ..arena.runner import close_factories
    from ..arena.specs import bot_factory

    factories = [bot_factory(s, task.timeout) for s in task.specs]
    try:
        return _play(task.job, factories, task.limit)
    finally:
        close_factories(factories)


def tournament_command(
    bots: list[str] = typer.Argument(
        ..., metavar="BOT", help="two or more entrants, bots as arena takes them: a name, a "
        "frozen bot (champion-2026-12) or cmd:<program>; the order is the seeding (best first)"
    ),
    fmt: str = typer.Option("swiss", "--format", help="swiss, round-robin or knockout"),
    rounds: int | None = typer.Option(
        None, min=1, help="rounds (default: Swiss ceil(log2 entrants), round robin one "
        "cycle, knockout the bracket's)"),
    deals_per_round: int | None = typer.Option(
        None, "--deals-per-round", min=1,
        help="deals each table plays a round (default 4, unless --target)"),
    target: int | None = typer.Option(
        None, min=1, help="each table plays one match to this target instead of fixed deals"),
    duplicate: bool = typer.Option(
        False, "--duplicate",
        help="every table of a round plays the same deals; standings lead with the score "
        "against the others who held the same cards"),
    variant: str = typer.Option("scopa", help=VARIANT_HELP),
    players: int | None = typer.Option(None, help="players at a table (default: the variant's)"),
    teams: int | None = typer.Option(None, help=TEAMS_HELP),
    option: list[str] = typer.Option([], "--option", help=OPTION_HELP),
    seed: str = typer.Option("0", help="event seed: the same seed replays the same event"),
    jobs: int | None = typer.Option(
        None, min=1, show_default=False, help="worker processes (default 1)"),
    time_limit: float | None = typer.Option(
        None, "--time", min=0.001, help="seconds per move given to each bot"),
    timeout: float = typer.Option(10.0, min=0.01, help="seconds before an external bot fails"),
    as_json: bool = typer.Option(False, "--json", help="print the event and standings as JSON"),
) -> None:
    """Run a tournament among bots: Swiss, round robin or knockout, one entrant a side
    (in Scopone a bot plays both seats of its side), and print the standings.

    Standings: match points (win 2, draw 1), then points difference, then Buchholz (Swiss)
    or head-to-head (round robin); in --duplicate events the score against the field
    first. The result is the same for any --jobs: every deal's seed comes from --seed."""
    from ..arena import ArenaError
    from ..arena.executor import Executor, open_executor
    from ..arena.runner import close_factories, report_names
    from ..arena.specs import bot_factory
    from ..bots.base import Limit
    from ..protocol import BotProtocolError
    from ..tournament import Entrant, Event, TournamentError, run_event, standings

    err = Console(stderr=True)
    limit = Limit(seconds=time_limit) if time_limit else None
    factories: list[Any] = []
    executor: Executor | None = None
    try:
        try:  # the settings: anything wrong is a bad argument
            if len(bots) < 2:
                raise ValueError("a tournament needs at least two entrants")
            factories = [bot_factory(s, timeout) for s in bots]
            names = report_names(bots, factories)
            event = Event(
                [Entrant(n) for n in names], format=fmt, rounds=rounds, variant=variant,
                players=players, teams=teams, options=parse_options(option),
                deals_per_round=deals_per_round, target=target, duplicate=duplicate,
                seed=seed,
            )
        except (TournamentError, ValueError) as e:
            raise typer.BadParameter(str(e)) from None
        spec_of = dict(zip(names, bots, strict=True))
        by_name = dict(zip(names, factories, strict=True))
        if (jobs or 1) > 1:
            executor = open_executor(jobs)
            close_factories(factories)  # the workers start programs of their own

        def play_round(jobs_: Sequence[Any]) -> list[Any]:
            if executor is None:
                return [_play(j, [by_name[j.home], by_name[j.away]], limit) for j in jobs_]
            tasks = [_Task(j, (spec_of[j.home], spec_of[j.away]), limit, timeout)
                     for j in jobs_]
            return executor.ordered(_play_task, tasks)

        def report(rnd: Any) -> None:
            byes = f"; bye: {', '.join(rnd.byes)}" if rnd.byes else ""
            played = len(rnd.tables) - len(rnd.byes)
            err.print(f"round {rnd.number}/{event.rounds} played "
                      f"({played} table{'s' if played != 1 else ''}{byes})",
                      markup=False, highlight=False)

        run_event(event, play_round, report)
    except (ArenaError, BotProtocolError) as e:
        err.print(f"[red]tournament stopped:[/red] {escape(str(e))}", markup=True,
                  highlight=False)
        raise typer.Exit(1) from None
    finally:
        if executor is not None:
            executor.close()
        close_factories(factories)
    lines = standings(event)
    if as_json:
        out = {"event": event.to_dict(), "bots": spec_of,
               "standings": [s.to_dict() for s in lines]}
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return
    Console().print(standings_table(event, lines))


def _reached(event: Any, reached: int | None) -> str:
    """How far an entrant went in a knockout, in words."""
    rounds = event.rounds
    if reached is None:
        return ""
    if reached > rounds:
        return "won" if event.finished else "in"
    return {rounds: "final", rounds - 1: "semi-final"}.get(reached, f"round {reached}")


def standings_table(event: Any, lines: Sequence[Any]) -> Table:
    """The standings: one row per entrant, the columns the format's tie-breaks use."""
    play = (f"to {event.target}" if event.target is not None
            else f"{event.deals_per_round} deal{'s' if event.deals_per_round != 1 else ''} a round")
    table = Table(
        box=box.SIMPLE_HEAD,
        title=f"{event.variant} {event.format}, {event.rounds} rounds, {play}"
        f"{', duplicate' if event.duplicate else ''}, seed {event.seed}",
        caption="MP: match points (win 2, draw 1); diff: game points for minus against"
        + {"swiss": "; Buchholz: opponents' match points",
           "round-robin": "; h2h: match points among those level",
           "knockout": ""}[event.format]
        + ("; field: points per deal better than the others with the same cards"
           if event.duplicate else ""),
    )
    table.add_column("#", justify="right")
    table.add_column("entrant", overflow="fold")
    extra = {"swiss": ["Buchholz"], "round-robin": ["h2h"], "knockout": ["reached"]}
    columns = ["field"] if event.duplicate else []
    columns += ["MP", "W/D/L", "byes", "for-against", "diff", *extra[event.format]]
    for col in columns:
        table.add_column(col, justify="right", no_wrap=True)
    for s in lines:
        cells = [f"{s.field:+.2f}"] if event.duplicate and s.field is not None else []
        cells += [str(s.match_points), f"{s.won}/{s.drawn}/{s.lost}", str(s.byes),
                  f"{s.points_for}-{s.points_against}", f"{s.difference:+d}"]
        cells += [{"swiss": str(s.buchholz), "round-robin": str(s.head_to_head),
                   "knockout": _reached(event, s.reached)}[event.format]]
        name = Text(s.entrant + (" (withdrawn)" if s.withdrawn else ""))
        table.add_row(str(s.rank), name, *cells)
    return table


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament_command)
