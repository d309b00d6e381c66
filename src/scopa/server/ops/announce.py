"""The address is printed once the server listens."""

from __future__ import annotations

import socket

import typer
import uvicorn


class Announcing(uvicorn.Server):
    """uvicorn's server that prints where to open the page once it listens, never
    before (a server that fails to start must not have told anyone to open it)."""

    def __init__(self, config: uvicorn.Config, announcement: str) -> None:
        super().__init__(config)
        self.announcement = announcement

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            typer.echo(self.announcement)
