"""The ``scopa`` command: each group of subcommands lives in its own module and registers
itself here, so the command line stays a thin shell over the package."""

from __future__ import annotations

import importlib
import importlib.util

import typer

app = typer.Typer(
    help="Scopa and its family: play, serve, arena, analyse, replay.",
    no_args_is_help=True,
    add_completion=False,
    # help texts are shown as written: Rich markup would eat "[ray]" in
    # pip install 'scopa[ray]' and "[N,...]" in the options' forms
    rich_markup_mode=None,
)

#: modules that define ``register(app)``
COMMAND_MODULES = (
    "scopa.commands.engine",  # replay
    "scopa.commands.bots",  # play, arena, analyse, bot
    "scopa.commands.server",  # serve
)


def _register_all() -> None:
    for name in COMMAND_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(app)


_register_all()


def main() -> None:
    app()
