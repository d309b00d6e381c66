"""The declarative base every table of the database hangs on, and the one clock of its
default times. Its own module so that the game's tables (``models``) and the players'
(``account_models``) both build on it without importing each other."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import DeclarativeBase


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass
