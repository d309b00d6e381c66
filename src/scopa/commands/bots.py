"""``scopa play``, ``scopa arena``, ``scopa analyse`` and ``scopa bot``: the bot-facing
commands. Each is a thin shell over ``scopa.terminal``, ``scopa.arena`` and
``scopa.protocol``."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..notation import dump_position
from ..rules import OPTION_NAMES, TABLE_FIELDS, VARIANTS, Rules, table_rules


def _rules(
    variant: str,
    players: int | None = None,
    target: int | None = None,
    teams: int | None = None,
    options: list[str] | None = None,
) -> Rules:
    """The table's rules from the command line (the lobby reads its form the same way)."""
    try:
        return table_rules(variant, parse_options(options or []), players=players, teams=teams,
                           target=target)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


#: how each option's value is written, from the type ``Rules`` declares for it
_VALUE_FORMS = {"bool": "true|false", "int": "N", "int | None": "N|null", "str": "TEXT",
                "tuple[int, ...]": "[N,...]"}
OPTION_FORMS = {
    f.name: _VALUE_FORMS.get(str(f.type), "VALUE")
    for f in dataclasses.fields(Rules) if f.name in OPTION_NAMES and f.name not in TABLE_FIELDS
}


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs as rules options; a value is read as JSON when it is JSON
    (``true``, ``3``, ``null``, ``[3,3]``) and as text otherwise. Unknown keys are refused
    with the list of options; bad values by the rules' own checks, which name the allowed
    values."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"--option takes KEY=VALUE, got {pair!r}")
        if key not in OPTION_NAMES:
            raise ValueError(f"unknown option {key!r}; the options are "
                             + ", ".join(f"{k}={v}" for k, v in OPTION_FORMS.items()))
        if key in out:
            raise ValueError(f"option {key} given twice")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


VARIANT_HELP = "variant: " + ", ".join(VARIANTS)
TARGET_HELP = "points to win the match (default: the variant's)"
TEAMS_HELP = "number of sides; seat s plays for side s % teams (default: the variant's)"
OPTION_HELP = ("a rules option as KEY=VALUE, repeatable (docs/rules.md): "
               + ", ".join(f"{k}={v}" for k, v in OPTION_FORMS.items()))


# -- arena ------------------------------------------------------------------------------
def arena_command(
    bots: list[str] = typer.Argument(
        ..., help="two or more bots: a name, a frozen bot (champion-2026-12) or cmd:<program>"
    ),
    variant: str = typer.Option("scopa", help=VARIANT_HELP),
    players: int | None = typer.Option(None, help="players (2-6; default: the variant's)"),
    target: int | None = typer.Option(None, help=TARGET_HELP),
    teams: int | None = typer.Option(None, help=TEAMS_HELP),
    option: list[str] = typer.Option([], "--option", help=OPTION_HELP),
    deals: int = typer.Option(100, min=1, help="duplicate deals to play"),
    matches: int = typer.Option(
        0, min=0,
        help="duplicate matches to the target, after the deals (opt-in: a match costs many deals)",
    ),
    jobs: int | None = typer.Option(
        None, min=1, show_default=False,
        help="worker processes (default 1); with --ray, tasks at once (default: the "
        "cluster's CPUs)",
    ),
    ray: str | None = typer.Option(
        None, "--ray", metavar="ADDRESS",
        help="run the deals on the Ray cluster at ADDRESS (host:port of its head, or auto) "
        "instead of local processes; needs pip install 'scopa[ray]' and scopa on every node",
    ),
    seed: str = typer.Option("0", help="arena seed: the same seed replays the same deals"),
    time_limit: float | None = typer.Option(
        None, "--time", min=0.001, help="seconds per move given to each bot"
    ),
    timeout: float = typer.Option(10.0, min=0.01, help="seconds before an external bot fails"),
    as_json: bool = typer.Option(False, "--json", help="print the results as JSON"),
    record: Path | None = typer.Option(
        None, "--record", metavar="FOLDER",
        help="save every game as a record in FOLDER (made if need be): deal-N-S.txt, "
        "match-N-S.txt for deal or match N from seating S, for scopa replay and verify",
    ),
) -> None:
    """Play duplicate deals between bots and report margins, deals won, speed, ratings.

    Every deal (and every match) is played once from each seating of the bots: bots sit by
    side (partners are the same kind of bot); with k bots and s sides there are max(k, s)
    seatings, side j going to bot (j + r) mod max(k, s) mod k in seating r, so every bot
    plays every side of the same cards. The margin is a bot's points minus the mean points
    of the sides held by other bots, averaged over its seats.

    What will be played is printed to stderr first; then a progress bar on a terminal, or a
    plain line every 5% (deals done, time, margin so far) when stderr is a file or pipe.

    The result is the same for any --jobs and on any Ray cluster: each deal's cards and
    bots' seeds come from the arena seed and the deal's number alone."""
    from ..arena import ArenaError, run_arena
    from ..arena.executor import ExecutorError
    from ..bots.base import Limit
    from ..protocol import BotProtocolError
    from .files import writable, write_record

    rules = _rules(variant, players, target, teams, option)
    limit = Limit(seconds=time_limit) if time_limit else None
    err = Console(stderr=True)
    keep = None
    if record is not None:
        writable(record)
        record.mkdir(exist_ok=True)

        def keep(kind: str, number: int, records: list[dict[str, Any]]) -> None:
            for seating, rec in enumerate(records):
                write_record(record / f"{kind}-{number}-{seating}.txt", rec)
    try:
        with _arena_progress(err, transient=as_json) as progress:
            result = run_arena(
                bots, rules, deals, jobs=jobs, seed=seed, progress=progress, matches=matches,
                limit=limit, timeout=timeout, ray=ray, records=keep,
            )
    except (ArenaError, BotProtocolError) as e:
        err.print(f"[red]arena stopped:[/red] {escape(str(e))}", markup=True, highlight=False)
        raise typer.Exit(1) from None
    except ExecutorError as e:  # --ray without Ray, or no cluster there
        err.print(f"[red]arena cannot start:[/red] {escape(str(e))}", markup=True,
                  highlight=False)
        raise typer.Exit(1) from None
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")
        return
    Console().print(arena_table(result))


@contextmanager
def _arena_progress(err: Console, transient: bool) -> Iterator[Callable[[Any], None]]:
    """The plan, then a Rich bar on a terminal; plain lines every 5% anywhere else (a log
    file must show a long run is alive)."""
    from ..arena.progress import ArenaProgress, ProgressLines

    if not err.is_terminal:
        yield ProgressLines(err.file)
        return
    columns = (TextColumn("arena"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))
    with Progress(*columns, console=err, transient=transient) as bar:
        task = bar.add_task("", total=None)

        def update(p: ArenaProgress) -> None:
            if p.done == 0:
                bar.console.print(p.plan.describe(), markup=False, highlight=False)
            text = p.margin_text() if p.deals_done else ""
            bar.update(task, completed=p.done, total=p.total, description=escape(text))

        yield update


def arena_table(result: Any) -> Table:
    """The arena report: one row per bot."""
    table = Table(
        box=box.SIMPLE_HEAD,
        caption="margin: points per deal over the other bots' sides; deals won/drawn/lost: "
        "by that margin; rating: openskill mu±sigma fitted to all deals (docs/bots.md)",
        title=f"{result.rules['variant']}, {result.rules['players']} players: "
        f"{result.deals} duplicate deals, {result.matches} matches, seed {result.seed}, "
        f"{result.seconds:.1f} s"
    )
    widest = max(len(b.name) for b in result.bots)
    table.add_column("bot", overflow="fold", min_width=min(widest, 30))
    matches = ["match wins"] if result.matches else []  # none played: no column
    for col in ("margin", "± se", "deals W/D/L", *matches, "ms/move", "p99 ms", "rating"):
        table.add_column(col, justify="right", no_wrap=True)
    for b in result.bots:
        wins = []
        if b.win_rate is not None and b.win_rate_se is not None:
            wins = [f"{b.win_rate:.0%}±{b.win_rate_se:.0%}"]
        table.add_row(
            Text(b.name),
            f"{b.margin:+.3f}",
            f"{b.margin_se:.3f}",
            f"{b.deals_won}/{b.deals_drawn}/{b.deals_lost}",
            *wins,
            f"{b.move_median * 1000:.2f}",
            f"{b.move_p99 * 1000:.1f}",
            f"{b.rating_mu:.1f}±{b.rating_sigma:.1f}",
        )
    return table


# -- bot --------------------------------------------------------------------------------
def bot_command(
    ctx: typer.Context,
    level: str = typer.Argument(..., help="bot name or level to serve, or online (below)"),
    seed: str | None = typer.Option(None, help="seed when the host does not send one"),
) -> None:
    """Serve one of our bots over the bot protocol on stdin/stdout (docs/bot-protocol.md).

    scopa bot online --server URL --token T "cmd:PROGRAM": put a program that speaks the
    protocol online on a scopa server (scopa bot online --help)."""
    if level == "online":
        online_app(ctx.args, prog_name="scopa bot online", standalone_mode=False)
        return
    if ctx.args:
        raise typer.BadParameter(f"unexpected arguments: {' '.join(ctx.args)}")
    from ..protocol.serve import serve_named

    try:
        code = serve_named(level, sys.stdin, sys.stdout, seed)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    raise typer.Exit(code)


online_app = typer.Typer(add_completion=False)


@online_app.command()
def bot_online(
    program: str = typer.Argument(..., metavar="PROGRAM",
                                  help="the bot: cmd:COMMAND LINE, or one of our levels"),
    server: str = typer.Option(..., help="the server's address, e.g. https://scopa.example"),
    token: str = typer.Option(..., envvar="SCOPA_BOT_TOKEN",
                              help="the bot's API token (or SCOPA_BOT_TOKEN)"),
    tables: int = typer.Option(4, min=1, max=100, help="tables to play at once at most"),
    variant: list[str] = typer.Option([], "--variant",
                                      help="accept only these variants (repeat)"),
) -> None:
    """Put a program that speaks the bot protocol online on a scopa server: it accepts
    challenges and plays them, one copy of the program a table, reconnecting when the
    server goes away (docs/bot-protocol.md, "Online")."""
    import asyncio
    import shlex

    from .. import extras
    from ..protocol.online import Bridge

    absent = extras.missing("online")
    if absent:
        typer.echo(f"scopa bot online: {extras.install_hint('online', absent)}", err=True)
        raise typer.Exit(1)
    if program.startswith("cmd:"):
        command = shlex.split(program[4:])
    else:
        command = [sys.executable, "-m", "scopa.protocol", program]
    if not command:
        raise typer.BadParameter("give the program's command line after cmd:")

    def say(line: str) -> None:
        typer.echo(f"scopa bot online: {line}", err=True)

    try:
        bridge = Bridge(server, token, command, tables=tables, variants=variant, say=say)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    try:
        code = asyncio.run(bridge.run())
    except KeyboardInterrupt:
        code = 0
    raise typer.Exit(code)


# -- play -------------------------------------------------------------------------------
def play_command(
    levels: list[str] = typer.Argument(
        None, metavar="OPPONENTS", help="more bot levels, after --opponents or alone",
        show_default=False,
    ),
    variant: str = typer.Option("scopa", help=VARIANT_HELP),
    players: int | None = typer.Option(None, help="players (2-6; default: the variant's)"),
    opponents: list[str] = typer.Option(
        [], "--opponents", "-o",
        help="bots for the other seats in turn, as arena takes them: --opponents expert "
        "champion-2026-12, or repeat -o (cycled; default intermediate)",
    ),
    seed: str | None = typer.Option(None, help="match seed, to replay the same deals"),
    target: int | None = typer.Option(None, help=TARGET_HELP),
    teams: int | None = typer.Option(None, help=TEAMS_HELP),
    option: list[str] = typer.Option([], "--option", help=OPTION_HELP),
    record: Path | None = typer.Option(
        None, "--record", metavar="FILE",
        help="save the match as a game record when it ends or you quit, for scopa replay "
        "and verify (FILE.txt: the text form, else JSON)",
    ),
    position: Path | None = typer.Option(
        None, "--position", metavar="FILE",
        help="save the position where the match stopped (quit in mid-hand) as JSON, for "
        "scopa analyse",
    ),
    lang: str | None = typer.Option(
        None, "--lang", help="the language of the match: en, it or es (default: the "
        "environment's locale, LC_ALL / LC_MESSAGES / LANG, else en)",
    ),
) -> None:
    """Play a match in the terminal against bots (you are seat 0): any bot the arena
    takes, a frozen one (champion-2026-12) or cmd:<program> too."""
    from ..arena.specs import bot_factory
    from ..record import game_record
    from ..terminal.session import TerminalMatch, language
    from .files import writable, write_record

    def seat_bot(spec: str, seed: str | int | None) -> Any:
        return bot_factory(spec)(seed)

    rules = _rules(variant, players, target, teams, option)
    record, position = writable(record), writable(position)
    try:
        match = TerminalMatch(rules, [*opponents, *(levels or [])], seed=seed, make=seat_bot,
                              lang=lang or language(os.environ))
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    try:
        match.run()
    finally:
        match.close()
        if record is not None:
            write_record(record, game_record(match.game, players=match.names))
        if position is not None:
            position.write_text(json.dumps(dump_position(match.game.hand)) + "\n", encoding="utf-8")


# -- analyse ----------------------------------------------------------------------------
def analyse_command(
    position: Path = typer.Argument(..., help="position JSON file (docs/formats.md)"),
    as_json: bool = typer.Option(False, "--json", help="print the analysis as JSON"),
    seconds: float | None = typer.Option(
        None, "--time", min=0.01, help="seconds to think (default: a fixed simulation count)"
    ),
    seed: int = typer.Option(0, help="search seed (same seed and no --time: same result)"),
) -> None:
    """Every legal move of a position with its expected value (hand points)."""
    from ..bots.base import Limit
    from ..terminal.analysis import analyse_position, analysis_table
    from .files import read_text

    try:
        data = json.loads(read_text(position))
    except json.JSONDecodeError as e:
        raise typer.BadParameter(f"{position} is not JSON: {e}") from None
    try:
        analysis = analyse_position(data, Limit(seconds=seconds) if seconds else None, seed)
    except ImportError:
        Console(stderr=True).print("the search bot's analysis (scopa.bots.analysis) is not "
                                   "installed; nothing to analyse with")
        raise typer.Exit(1) from None
    except ValueError as e:
        raise typer.BadParameter(f"{position}: {e}") from None
    if as_json:
        sys.stdout.write(json.dumps(analysis, indent=2) + "\n")
    else:
        Console().print(analysis_table(analysis))


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
    app.command("arena")(arena_command)
    app.command("analyse")(analyse_command)
    app.command("bot", context_settings={"allow_extra_args": True,
                                         "ignore_unknown_options": True})(bot_command)
