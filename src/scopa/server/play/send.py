"""Telling a table's sockets, and stopping what waits at a table: the few things every
room of the master (``seating``, ``match``, ``botseats``) does the same way."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from . import frames
from .table import Conn, SeatState, Table


def broadcast_state(table: Table, event: dict[str, Any] | None) -> None:
    """Every socket gets its own ``state`` frame (``frames.states``)."""
    for conns, text in frames.states(table, event):
        for c in list(conns):
            c.send(text)


def broadcast(table: Table, text: str) -> None:
    for s in table.seats:
        for c in list(s.conns):
            c.send(text)
    for c in list(table.spectators):
        c.send(text)


def catch_up(table: Table, conn: Conn) -> None:
    """A socket that arrives between hands (a reload, a reconnect) gets the score sheet
    (and the match result) the others saw, so it is back in the same state."""
    game = table.game
    if game is None:
        return
    if game.hand.hand_over:
        conn.send(frames.hand_end(table))
    if table.match_over:  # a resignation may end it mid-hand
        conn.send(frames.match_end(table))


def cancel_grace(s: SeatState) -> None:
    if s.grace_task is not None:
        s.grace_task.cancel()
        s.grace_task = None


def cancel_graces(table: Table) -> None:
    """Cancel every seat's grace period (a match's end: nobody is waited for any more)."""
    for s in table.seats:
        cancel_grace(s)


def stop_driving(table: Table) -> None:
    """Cancel the table's bot and timer tasks (not the one running this) and every seat's
    grace period."""
    for task in (table.bot_task, table.timer):
        if task is not None and task is not asyncio.current_task():
            task.cancel()
    table.bot_task = table.timer = None
    cancel_graces(table)


def close_externals(table: Table) -> None:
    """End the outside bot programs seated at ``table``."""
    for s in table.seats:
        if s.external is not None:
            with contextlib.suppress(Exception):
                s.external.close()
            s.external = None
