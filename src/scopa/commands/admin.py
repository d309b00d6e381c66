"""``scopa admin``: the operator's commands, as the server package defines them. On a core
install (no ``server`` extra) the group is still there and says, in one line, what to
install."""

from __future__ import annotations

from collections.abc import Callable

import typer

from .. import extras


def register(app: typer.Typer) -> None:
    absent = extras.missing("server")
    if absent:
        app.command(
            "admin",
            help="Operator commands (needs the server extra: pip install 'scopa\\[server]').",
            context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        )(_needs_server_extra(absent))
        return
    from ..server.admin import admin

    app.add_typer(admin, name="admin")


def _needs_server_extra(absent: list[str]) -> Callable[[typer.Context], None]:
    def admin(ctx: typer.Context) -> None:
        """Operator commands."""
        typer.echo(f"scopa admin: {extras.install_hint('server', absent)}", err=True)
        raise typer.Exit(1)

    return admin
