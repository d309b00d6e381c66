"""The declarative base every table of the database hangs on, and the one clock of its
default times. Its own module so that the game's tables (``models``) and the players'
(``account_models``) both build on it without importing each other."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import DeclarativeBase


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A stored time in UTC: SQLite gives datetimes back without their zone (they were
    written in UTC); PostgreSQL's come back as they are."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass
