"""``scopa puzzles``: make "find the play" puzzles from bot games (``make``), and load a
file of them into the server's database (``load``), each verified first (docs/puzzles.md)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from .. import extras
from .files import read_text, writable

puzzles = typer.Typer(
    help="Puzzles: positions from bot games where one play is clearly best, proved by exact "
         "search (make), and loaded into the server's database once verified (load).",
    no_args_is_help=True, rich_markup_mode=None,
)

DatabaseUrl = Annotated[
    str | None,
    typer.Option("--database-url", "--db",
                 help="SQLAlchemy URL of the server's database (as scopa serve's)"),
]


@puzzles.command("make")
def make_command(
    count: Annotated[int, typer.Option(min=1, max=10_000, help="puzzles to make")] = 10,
    seed: Annotated[str, typer.Option(help="the games' seed: same seed and count, same "
                                            "puzzles")] = "0",
    out: Annotated[Path | None, typer.Option(help="write the puzzles here, one JSON a line "
                                                  "(default: standard output)")] = None,
    variant: Annotated[str, typer.Option(help="a two-player variant without "
                                               "declarations")] = "scopa",
    database_url: DatabaseUrl = None,
) -> None:
    """Play bot games and keep the positions whose best play beats every other by the
    margin in every deal of the hidden cards; print one line a puzzle made (to stderr)."""
    from ..bots.puzzles import PuzzleError, make

    writable(out)
    start = time.process_time()
    try:
        made = make(count, seed, variant, progress=lambda s: typer.echo(s, err=True))
    except PuzzleError as e:
        raise typer.BadParameter(str(e)) from None
    except ValueError as e:  # an unknown variant
        raise typer.BadParameter(str(e)) from None
    cpu = time.process_time() - start
    text = "".join(json.dumps(p, sort_keys=True) + "\n" for p in made)
    if out is not None:
        out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    typer.echo(f"made {len(made)} puzzles of {count} asked in {cpu:.1f} CPU seconds"
               + (f", written to {out}" if out else ""), err=True)
    if database_url is not None:
        _load(text, database_url, str(out or "the puzzles made"))


@puzzles.command("load")
def load_command(
    file: Annotated[Path, typer.Argument(help="puzzles, one JSON a line (scopa puzzles make)")],
    database_url: DatabaseUrl = None,
) -> None:
    """Verify every puzzle of FILE (re-solved from its view) and keep them in the server's
    database; one refused puzzle refuses the whole file, which then changes nothing."""
    _load(read_text(file), database_url, str(file))


def _load(text: str, database_url: str | None, name: str) -> None:
    absent = extras.missing("server")
    if absent:
        typer.echo(f"scopa puzzles load: {extras.install_hint('server', absent)}", err=True)
        raise typer.Exit(1)
    from ..server.ops.admin import on_store, settings_for
    from ..server.ops.terminal import say
    from ..server.puzzles.loading import check_lines, load

    checked = check_lines(text)
    for line in checked.refused:
        say(f"refused {line}", err=True)
    if checked.refused:
        say(f"{name}: {len(checked.refused)} puzzles refused; nothing loaded", err=True)
        raise typer.Exit(1)
    if not checked.puzzles:
        say(f"{name}: no puzzles in it; nothing loaded", err=True)
        raise typer.Exit(1)
    added = on_store(settings_for(database_url), lambda store: load(store, checked.puzzles))
    say(f"{name}: {len(checked.puzzles)} puzzles verified, {added} new loaded, "
        f"{len(checked.puzzles) - added} kept before")


def register(app: typer.Typer) -> None:
    app.add_typer(puzzles, name="puzzles")
