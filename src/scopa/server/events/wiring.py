"""Putting events on a running app: their store and operations, and (with a match master)
the online tables, whose match-end hook enters results. Called by the app's wiring once
the store and the master exist."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .online import Tables
from .service import Events
from .store import EventStore

if TYPE_CHECKING:
    from ..play.master import Master
    from ..store.database import Store


def wire(state: Any, store: Store, master: Master, grace: float) -> Tables:
    """Set ``state.events`` and ``state.event_tables`` (the online tables, hooked to the
    master's match ends, and the history's ``deal_seal``); returns the latter (``resume``
    it once tables are restored)."""
    events = Events(EventStore(store))
    state.events = events
    tables = Tables(events, master, grace)
    state.event_tables = tables
    state.deal_seal = tables
    return tables
