"""``scopa serve``: the game server, as the server package defines it. On a core install
(no ``server`` extra) the command is still there and says, in one line, what to install."""

from __future__ import annotations

from collections.abc import Callable

import typer

from .. import extras


def register(app: typer.Typer) -> None:
    absent = extras.missing("server")
    if absent:
        app.command(
            "serve",
            help="Run the game server (needs the server extra: pip install 'scopa\\[server]').",
            context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        )(_needs_server_extra(absent))
        return
    from ..server.run import serve

    app.command("serve")(serve)


def _needs_server_extra(absent: list[str]) -> Callable[[typer.Context], None]:
    def serve(ctx: typer.Context) -> None:
        """Run the game server."""
        typer.echo(f"scopa serve: {extras.install_hint('server', absent)}", err=True)
        raise typer.Exit(1)

    return serve
