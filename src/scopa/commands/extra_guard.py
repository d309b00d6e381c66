"""A command that needs an extra the install lacks (``scopa serve``, ``scopa admin`` on a
core install): it is still listed, and run it says in one line what to install."""

from __future__ import annotations

from collections.abc import Sequence

import typer

from .. import extras


def stand_in(app: typer.Typer, name: str, extra: str, summary: str, absent: Sequence[str]) -> None:
    """Register ``name`` as a command that names ``pip install 'scopa[extra]'`` and exits 1,
    whatever arguments it is given."""

    def needs_extra(ctx: typer.Context) -> None:
        typer.echo(f"scopa {name}: {extras.install_hint(extra, absent)}", err=True)
        raise typer.Exit(1)

    app.command(
        name,
        help=f"{summary} (needs the {extra} extra: pip install 'scopa[{extra}]').",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )(needs_extra)
