"""The ``scopa`` command: each group of subcommands lives in its own module and registers
itself here, so the command line stays a thin shell over the package."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Annotated

import typer

from . import __version__

app = typer.Typer(
    help="Scopa and its family: play, serve, arena, analyse, replay.",
    no_args_is_help=True,
    add_completion=False,
    # help texts are shown as written: Rich markup would eat "[ray]" in
    # pip install 'scopa[ray]' and "[N,...]" in the options' forms
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"scopa {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True,
                     help="Print the version and exit."),
    ] = False,
) -> None:
    """Scopa and its family: play, serve, arena, analyse, replay."""

#: modules that define ``register(app)``
COMMAND_MODULES = (
    "scopa.commands.engine",  # replay
    "scopa.commands.bots",  # play, arena, analyse, bot
    "scopa.commands.review",  # review (bots)
    "scopa.commands.tournament",  # tournament (bots)
    "scopa.commands.server",  # serve
    "scopa.commands.admin",  # admin (operator commands)
    "scopa.commands.puzzles",  # puzzles make / load
)


def _register_all() -> None:
    for name in COMMAND_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(app)


_register_all()


def main() -> None:
    app()
