"""The puzzles' rows (``server.puzzles`` owns what they mean): each puzzle as it was made and
verified (``bots.puzzles``), with its own rating; the puzzle of each day; each account's
first answer to a puzzle; and each account's puzzle rating, kept apart from its game
ratings (``ratings``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, utcnow


class PuzzleRow(Base):
    """A puzzle: ``body`` is the whole puzzle line (``bots.puzzles.puzzle_of``), checked
    when it was loaded; ``mu``/``sigma`` its openskill rating, moved by first answers."""

    __tablename__ = "puzzles"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    variant: Mapped[str] = mapped_column(String(32))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the shown rating (kept beside mu for choosing a puzzle near a player's rating)
    rating: Mapped[int] = mapped_column(Integer, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    loaded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PuzzleDayRow(Base):
    """The puzzle of one day (UTC), chosen the first time that day is asked for (once every
    puzzle has had a day they come round again, so a puzzle may have several)."""

    __tablename__ = "puzzle_days"
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"))


class PuzzleAttemptRow(Base):
    """An account's first answer to a puzzle: the one that moved the two ratings."""

    __tablename__ = "puzzle_attempts"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"), primary_key=True)
    correct: Mapped[bool] = mapped_column(Boolean)
    #: the play given, as ``Move.to_dict``
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    rating_before: Mapped[int] = mapped_column(Integer)
    rating_after: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PuzzleRatingRow(Base):
    """An account's puzzle rating (openskill, as its game ratings, in a pool of its own)."""

    __tablename__ = "puzzle_ratings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
