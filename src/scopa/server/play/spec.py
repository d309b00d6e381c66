"""What a new table is, as one value: the lobby and the events make tables through
``Master.create_table(TableSpec(...))`` instead of thirteen positional parameters, so a
call says by name what each setting is, and a new setting is one field here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...rules import Rules


@dataclass(frozen=True)
class TableSpec:
    """A table to make. ``seats``: one ``{"kind": "human" | "bot" | "external", "level",
    "bot"}`` a seat; the creator takes ``creator_seat`` (a human seat) under ``creator``
    (``creator_user`` when signed in) and gets its token; ``address``: the maker's, for
    the per-address limit of waiting tables. ``seeds`` and ``deals``: a match of fixed
    deals (a tournament's, ``Table.seeds``); ``event_id``: an event's table
    (``Table.event_id``); ``shared_deals``: of a duplicate round (``Table.shared_deals``)."""

    rules: Rules
    seats: list[dict[str, Any]]
    grace: float
    public: bool = False
    creator: str | None = None
    creator_seat: int | None = None
    address: str | None = None
    creator_user: int | None = None
    rated: bool = False
    teach: bool = True
    seeds: list[str] = field(default_factory=list)
    deals: int | None = None
    event_id: str | None = None
    shared_deals: bool = False
