"""How a route reaches the store (the app keeps one per process) and how it writes the
store's times in answers."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from .database import Store


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def iso_time(dt: Any) -> str | None:
    """UTC time in ISO form (SQLite hands datetimes back without their zone)."""
    if dt is None:
        return None
    return str(dt.isoformat().replace("+00:00", "")) + "Z"
