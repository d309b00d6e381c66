"""Event-sourced storage behind one small interface. Every write commits before it
returns, so whatever the server announced survives a crash (``kill -9``)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import create_engine, event, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from . import migrate
from .models import EventRow, MatchRow, Meta, SeatRow, TableRow, utcnow


@dataclass
class StoredTable:
    """A table as loaded at start: its rows and its current match's events."""

    table: TableRow
    seats: list[SeatRow]
    match: MatchRow | None
    events: list[EventRow] = field(default_factory=list)


_INSERT_EVENT = insert(EventRow)


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL + NORMAL: a committed transaction survives the process being killed
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """All database access of the server."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.session = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        migrate.upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- installation -------------------------------------------------------------------
    def secret(self) -> str:
        """The installation's secret, generated once and kept in the database."""
        with self.session.begin() as s:
            row = s.get(Meta, "secret")
            if row is None:
                row = Meta(key="secret", value=secrets.token_hex(32))
                s.add(row)
            return row.value

    # -- tables and seats ---------------------------------------------------------------
    def create_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        with self.session.begin() as s:
            s.add(table)
            s.flush()
            s.add_all(seats)

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        with self.session.begin() as s:
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(name=name, token_hash=token_hash)
            )

    def set_status(self, table_id: str, status: str) -> None:
        with self.session.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    def expire_waiting(self, before: datetime) -> int:
        """Mark every table made before ``before`` and still waiting for players as
        ``expired`` (so it is never loaded again); returns how many."""
        with self.session.begin() as s:
            done = s.execute(
                update(TableRow)
                .where(TableRow.status == "waiting", TableRow.created_at < before)
                .values(status="expired")
            )
            return int(getattr(done, "rowcount", 0) or 0)

    # -- matches and events -------------------------------------------------------------
    def start_match(self, match: MatchRow, first_hand: dict[str, Any]) -> None:
        """A new match and its first deal, in one transaction."""
        with self.session.begin() as s:
            s.add(match)
            s.flush()
            s.add(EventRow(match_id=match.id, seq=0, kind="hand", data=first_hand))
            s.execute(
                update(TableRow).where(TableRow.id == match.table_id).values(status="playing")
            )

    def append(
        self,
        match_id: str,
        seq: int,
        kind: str,
        data: dict[str, Any],
        finish: tuple[int, list[int], int] | None = None,
    ) -> None:
        """Append one event; with ``finish`` = (winner, scores, hands) also close the match
        (and its table) in the same transaction."""
        if finish is None:  # the hot path: one row, SQL core (no ORM unit of work)
            with self.engine.begin() as conn:
                conn.execute(
                    _INSERT_EVENT,
                    {"match_id": match_id, "seq": seq, "kind": kind, "data": data,
                     "created_at": utcnow()},
                )
            return
        with self.session.begin() as s:
            s.add(EventRow(match_id=match_id, seq=seq, kind=kind, data=data))
            if finish is not None:
                winner, scores, hands = finish
                m = s.get(MatchRow, match_id)
                assert m is not None
                m.finished_at = utcnow()
                m.winner = winner
                m.scores = scores
                m.hands = hands
                s.execute(
                    update(TableRow).where(TableRow.id == m.table_id).values(status="finished")
                )

    def load_active(self) -> list[StoredTable]:
        """Every table still waiting or playing, with its current match's events."""
        out = []
        with self.session() as s:
            tables = s.scalars(
                select(TableRow).where(TableRow.status.in_(("waiting", "playing")))
            ).all()
            for t in tables:
                seats = list(
                    s.scalars(
                        select(SeatRow).where(SeatRow.table_id == t.id).order_by(SeatRow.seat)
                    )
                )
                match = s.scalars(
                    select(MatchRow)
                    .where(MatchRow.table_id == t.id)
                    .order_by(MatchRow.number.desc())
                    .limit(1)
                ).first()
                events = self.events(match.id, s) if match is not None else []
                out.append(StoredTable(t, seats, match, events))
        return out

    def events(self, match_id: str, s: Session | None = None) -> list[EventRow]:
        if s is None:
            with self.session() as s2:
                return self.events(match_id, s2)
        return list(
            s.scalars(select(EventRow).where(EventRow.match_id == match_id).order_by(EventRow.seq))
        )

    # -- history ------------------------------------------------------------------------
    def finished_matches(self, limit: int, offset: int) -> tuple[list[MatchRow], int]:
        """Finished matches of public tables, newest first, and how many there are."""
        with self.session() as s:
            listed = (MatchRow.finished_at.is_not(None), TableRow.public.is_(True))
            public = select(MatchRow).join(TableRow, TableRow.id == MatchRow.table_id)
            total = s.scalar(
                select(func.count()).select_from(MatchRow)
                .join(TableRow, TableRow.id == MatchRow.table_id).where(*listed)
            ) or 0
            rows = s.scalars(
                public
                .where(*listed)
                .order_by(MatchRow.finished_at.desc())
                .limit(limit)
                .offset(offset)
            ).all()
            return list(rows), int(total)

    def match(self, match_id: str) -> MatchRow | None:
        with self.session() as s:
            return s.get(MatchRow, match_id)
