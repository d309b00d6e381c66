"""``scopa admin``: the operator's commands, as the server package defines them. On a core
install (no ``server`` extra) the group is still there and says, in one line, what to
install."""

from __future__ import annotations

import typer

from .. import extras
from .extra_guard import stand_in


def register(app: typer.Typer) -> None:
    absent = extras.missing("server")
    if absent:
        stand_in(app, "admin", "server", "Operator commands", absent)
        return
    from scopa.server.ops.admin import admin

    app.add_typer(admin, name="admin")
