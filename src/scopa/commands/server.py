"""``scopa serve``: the game server, as the server package defines it."""

from __future__ import annotations

import typer

from ..server.run import serve


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
