"""What the players' routes need of the live tables, as a protocol: the play side
(``play.master.Master``) provides it and sits above this package, so accounts and friends
reach the tables without importing play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from fastapi import Request


class LiveSeat(Protocol):
    @property
    def user_id(self) -> int | None: ...


class LiveTable(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def invite(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def seats(self) -> Sequence[LiveSeat]: ...


class LiveTables(Protocol):
    """The tables being played now, as an account's routes see them."""

    @property
    def by_invite(self) -> Mapping[str, LiveTable]: ...

    def token_hash(self, token: str) -> str:
        """The stored form of a seat token (which proves a guest's seat)."""
        ...

    def online_accounts(self) -> set[int]:
        """Accounts with a seat connected now."""
        ...

    def seat_account(self, table_id: str, seat: int, user_id: int) -> None:
        """A guest's seat at a live table became an account's."""
        ...

    def forget_account(self, user_id: int, name: str) -> None:
        """A deleted account's live seats play on as guests' seats named ``name``."""
        ...


def live_tables(request: Request) -> LiveTables:
    """The app's live tables (one per process)."""
    tables: LiveTables = request.app.state.master
    return tables
