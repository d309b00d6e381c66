"""Database tables. A match is stored as events (hand deals with their seeds, moves), so
it replays exactly; everything else (scores, whose turn) is derived by the engine."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from ...moves import move_fields
from ...replay import Deal
from .base import Base, utcnow

__all__ = ["Base", "utcnow"]  # re-exported: the tables' modules and their readers use them


class Meta(Base):
    """Key-value facts about the installation (e.g. the generated secret)."""

    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    grace_seconds: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: waiting | playing | finished | expired (waited too long for players; never reloaded)
    status: Mapped[str] = mapped_column(String(16), default="waiting", index=True)
    #: matches here move the accounts' ratings (``server.ratings``)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: teach me (the move analysis) for every seat, chosen at creation and shown to all
    #: (``fairplay``); never on in rated games
    teach: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: a match of fixed deals (``play.table.Table.seeds`` and ``deals``): kept so that a
    #: restart deals the same
    seeds: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    deals: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: human | bot | external
    kind: Mapped[str] = mapped_column(String(16))
    level: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: HMAC of the seat token (the token itself is never stored)
    token_hash: Mapped[str | None] = mapped_column(String(128), nullable=True)
    #: the account sitting here (None: a guest, a bot)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: the rated match this seat was left in past the grace period (a loss for its
    #: player at that match's end); only the current match's id counts
    abandoned_match: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: a seat for an online bot (``server.bots``): ``user_id`` names the bot challenged,
    #: or none yet (any online bot may take it); no person takes such a seat
    bot_account: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class MatchRow(Base):
    __tablename__ = "matches"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scores: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    hands: Mapped[int] = mapped_column(Integer, default=0)


class EventRow(Base):
    """One event of a match: ``hand`` {number, seed}, ``move`` {seat, card, capture, by}
    or ``resign`` {seat, ends} (a player gave up: not a step of the game, so the engine's
    replay skips it, see ``played``). The hand seed stays on the server until the hand is
    over."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    def replay_event(self) -> Deal | dict[str, Any]:
        """This event as the engine's one replay reads it (``scopa.replay.replay_log``): a
        deal from its seed, or the move itself (who played it and how are not part of it)."""
        if self.kind == "hand":
            return Deal(seed=self.data["seed"])
        if self.kind == "move":
            return move_fields(self.data)
        raise ValueError(f"unknown event kind {self.kind!r}")


#: events that are not steps of the game (the engine's replay skips them)
OUTSIDE_GAME = ("resign",)


def played(events: Iterable[EventRow]) -> Iterator[Deal | dict[str, Any]]:
    """The events of a log that the engine replays (deals and moves), in order: the one
    place that says a resignation is not a step of the game."""
    return (ev.replay_event() for ev in events if ev.kind not in OUTSIDE_GAME)


class ReviewRow(Base):
    """A match's review (``play.reviews``): asked, queued, being judged (``done`` of
    ``total`` plays), then kept with the match (``review``: ``bots.review.Review.to_dict``)
    or failed with a reason. ``asker`` bounds the reviews one player has in flight; it is
    cleared once the review is over."""

    __tablename__ = "match_reviews"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    asker: Mapped[str | None] = mapped_column(String(80), nullable=True, index=True)
    simulations: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatRow(Base):
    """One chat message: free ``text`` or a quick ``phrase`` (a catalogue key)."""

    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    #: players | spectators: the two never see each other's messages
    channel: Mapped[str] = mapped_column(String(16))
    #: "s<seat>" for a seat, "w<n>" for the n-th spectator socket of the table
    author: Mapped[str] = mapped_column(String(16))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ReportRow(Base):
    """A player's report of a message, with the messages before it (the context)."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id"), index=True)
    table_id: Mapped[str] = mapped_column(String(32))
    reporter: Mapped[str] = mapped_column(String(16))
    reporter_name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: the reported message and the ones before it in its channel, as they were shown
    context: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True)
    #: when the operator closed it (None: open); how, in ``moderation_actions``
    handled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                        nullable=True)
