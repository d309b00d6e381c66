"""Tables for the flow tests (``play.flow``) built without a server: seats, a table, a
started match."""

from __future__ import annotations

from datetime import UTC, datetime

from scopa.match import Match
from scopa.rules import Rules
from scopa.server.play import flow
from scopa.server.play.table import SeatState, Table

NOW = datetime(2026, 1, 1, tzinfo=UTC)


PAUSE = 120.0


def seat(i: int, kind: str = "human", taken: bool = True, here: bool = True,
         user_id: int | None = None) -> SeatState:
    s = SeatState(i, kind, "random" if kind == "bot" else None, f"p{i}",
                  f"h{i}" if kind == "human" and taken else None, user_id=user_id)
    if kind == "human" and taken and here:
        s.conns.add(object())
    return s


def table(*seats: SeatState, rules: Rules | None = None, rated: bool = False,
          status: str = "waiting", address: str | None = None) -> Table:
    return Table(id="t", invite="i", public=True, rules=rules or Rules(), grace=30.0,
                 created_at=NOW, seats=list(seats), status=status, rated=rated,
                 creator_address=address)


def started(t: Table, seed: str = "flow") -> Table:
    """``t`` with its first match dealt (as the master does once it is stored)."""
    flow.start_match(t, "m1", t.match_number + 1, Match(t.rules, hand_seed=seed))
    return t
