"""What a rolling restart must not do: lose a move a client was told about, or apply one
twice. ``bench/load.py --rolling-restart`` and ``tests/server/ops/test_rolling_restart.py``
both keep a ``Ledger`` of the moves their clients sent and saw acknowledged, and compare it
with the event log as stored (``logged_moves``) once the servers have stopped.

A move is keyed by (match id, seq): the state a client moved at says which event number the
move must become (``state_id`` is the match number times a million plus the events so far).
A client may send more than one move at one state, rightly: a move sent as its socket
closed, and another at the same state after reconnecting to a worker that had not yet
heard of the first (one of them is refused). So the books keep every card sent at a step,
and the card each acknowledgement named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

Key = tuple[str, int]

#: state ids count events within a match under this
STATE_BASE = 1_000_000


@dataclass
class Ledger:
    """The moves people sent, and those a state frame told them were applied."""

    #: (match, seq) -> the cards sent at that step
    sent: dict[Key, set[str | None]] = field(default_factory=dict)
    #: (match, seq) -> the card the acknowledging state frame named
    acked: dict[Key, str | None] = field(default_factory=dict)

    def sending(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        """A move is about to be sent at ``state`` (the state frame it answers)."""
        key = (state["match_id"], state["state_id"] % STATE_BASE)
        self.sent.setdefault(key, set()).add(move.get("card"))

    def seen(self, state: dict[str, Any], seat: int | None) -> None:
        """A state frame arrived at ``seat``'s socket: it acknowledges that seat's move if
        its event is the move."""
        event = state.get("event") or {}
        if event.get("kind") != "move" or event.get("seat") != seat or seat is None:
            return
        key = (state["match_id"], state["state_id"] % STATE_BASE - 1)
        if key in self.sent:
            self.acked[key] = event.get("card")


def compare(ledgers: list[Ledger], logged: dict[Key, tuple[str, str | None]]
            ) -> tuple[list[Key], list[Key]]:
    """(lost, doubled): acknowledged moves missing from the log (or there with another
    card than the acknowledgement named), and people's moves in the log that nobody sent
    at that state."""
    sent: dict[Key, set[str | None]] = {}
    acked: dict[Key, str | None] = {}
    for ledger in ledgers:
        for k, cards in ledger.sent.items():
            sent.setdefault(k, set()).update(cards)
        acked.update(ledger.acked)
    lost = sorted(k for k, card in acked.items() if k not in logged or logged[k][1] != card)
    doubled = sorted(k for k, (by, card) in logged.items()
                     if by == "human" and card not in sent.get(k, set()))
    return lost, doubled


#: the log's moves, as ``logged`` reads them
MOVES_SQL = "SELECT match_id, seq, data FROM events WHERE kind = 'move'"


def logged(rows: Any) -> dict[Key, tuple[str, str | None]]:
    """(match, seq) -> (by, card) of rows ``(match_id, seq, data)`` of ``MOVES_SQL``
    (``data`` as JSON text or already read)."""
    out: dict[Key, tuple[str, str | None]] = {}
    for match_id, seq, raw in rows:
        data = json.loads(raw) if isinstance(raw, str) else raw
        out[(match_id, int(seq))] = (data.get("by", "human"), data.get("card"))
    return out


async def logged_moves(dsn: str) -> dict[Key, tuple[str, str | None]]:
    """Every move in a PostgreSQL database's log: (match, seq) -> (by, card)."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(MOVES_SQL)
    finally:
        await conn.close()
    return logged((r["match_id"], r["seq"], r["data"]) for r in rows)
