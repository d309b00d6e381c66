"""``scopa serve``: the game server, as the server package defines it. On a core install
(no ``server`` extra) the command is still there and says, in one line, what to install."""

from __future__ import annotations

import typer

from .. import extras
from .extra_guard import stand_in


def register(app: typer.Typer) -> None:
    absent = extras.missing("server")
    if absent:
        stand_in(app, "serve", "server", "Run the game server", absent)
        return
    from scopa.server.ops.run import serve

    app.command("serve")(serve)
