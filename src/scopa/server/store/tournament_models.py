"""The tournaments' rows (``server.tournaments`` owns what they mean): the event (its model's
JSON, guarded by a version), its entrants, and the server tables its online rounds play
at.

The table is ``tournaments``: ``events`` already holds a match's log. Every change of an
event writes the whole JSON with ``version = version + 1 WHERE version = <read>`` (a
compare-and-set), so two workers that both try to start a round cannot both succeed; a
round's server table is unique by (event, round, table) as well.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, utcnow

#: an event's life: open (taking entrants), running (rounds being played), finished
STATUSES = ("open", "running", "finished")


#: the organiser of an event whose organising account was deleted: no account has this id
#: (ids start at 1), so nobody may organise it any more (an event that pairs its rounds by
#: itself still runs to its end)
NO_ORGANISER = 0


class TournamentRow(Base):
    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    organiser_id: Mapped[int] = mapped_column(Integer, index=True)
    name: Mapped[str] = mapped_column(String(80))
    #: the event's settings before it starts (``TournamentSettings``); the model's full JSON
    #: (``Event.to_dict()``) once it runs
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    event: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    capacity: Mapped[int] = mapped_column(Integer)
    #: online (the server's tables) or paper (an organiser enters the results)
    mode: Mapped[str] = mapped_column(String(16))
    #: the next round starts when the last table of one is done
    auto_next: Mapped[bool] = mapped_column(Boolean, default=False)
    #: bumped by every write: a write names the version it read (compare-and-set)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EntrantRow(Base):
    """One entrant of an online event: an account, or a bot the organiser entered (a
    paper event's entrants are names in its settings)."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (UniqueConstraint("event_id", "name"),
                      UniqueConstraint("event_id", "user_id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    #: the account (None: a bot)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: a bot's level (None: an account)
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    #: entry order: the seeding
    position: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RoundTableRow(Base):
    """The server table a round's table plays at (online events)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("event_id", "round", "number"),)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    invite: Mapped[str] = mapped_column(String(64))
    #: home's seat (the other entrant holds the other side)
    home_seat: Mapped[int] = mapped_column(Integer)
    #: the result has been entered into the event (the match-end hook ran)
    entered: Mapped[bool] = mapped_column(Boolean, default=False)
