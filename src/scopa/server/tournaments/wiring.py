"""Putting events on a running app: their store and operations, and (with a match master)
the online tables, whose match-end hook enters results. Called by the app's wiring once
the store and the master exist."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .online import RoundTables
from .service import Tournaments
from .store import TournamentStore

if TYPE_CHECKING:
    from ..play.master import Master
    from ..store.database import Store


def wire(state: Any, store: Store, master: Master, grace: float) -> RoundTables:
    """Set ``state.tournaments`` and ``state.round_tables`` (the online tables, hooked to the
    master's match ends, and the history's ``deal_seal``); returns the latter (``resume``
    it once tables are restored)."""
    service = Tournaments(TournamentStore(store))
    state.tournaments = service
    tables = RoundTables(service, master, grace)
    state.round_tables = tables
    state.deal_seal = tables
    return tables
