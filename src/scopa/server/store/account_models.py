"""Tables of the players' side: accounts and their sessions, failed sign-ins (for the
throttle), ratings and their history, each account's seat in each finished match (the
source of profiles and statistics), follows and table invitations between friends."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, utcnow


class UserRow(Base):
    __tablename__ = "users"
    #: SQLite's AUTOINCREMENT: an id is never given again, not even the newest one after
    #: its account was deleted (an heir would take its seats and an event's organising);
    #: PostgreSQL's sequences never reuse one anyway
    __table_args__ = {"sqlite_autoincrement": True}
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(24))
    #: the name case-folded: names are unique without regard to case
    name_key: Mapped[str] = mapped_column(String(24), unique=True, index=True)
    #: the name's look (``lookalike.name_skeleton``): no two accounts look alike
    name_skeleton: Mapped[str | None] = mapped_column(String(96), unique=True, index=True,
                                                      nullable=True)
    #: Argon2id hash in PHC form (salt and parameters inside)
    password_hash: Mapped[str] = mapped_column(String(256))
    #: a private profile is shown to its owner only
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: last time a request of this account was seen (for "who is online")
    last_seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: the account's e-mail address (optional; for password resets by e-mail) and
    #: whether its owner proved it is theirs (the link sent to it was opened)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False,
                                                 server_default=false())
    #: the operator muted the account until then (``moderation``): its chat is refused
    muted_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                         nullable=True)
    #: the operator suspended the account until then: it cannot sign in
    suspended_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                             nullable=True)
    #: an outside program's account (``server.bots``): it never signs in with a password,
    #: plays through its API tokens, is marked as a bot wherever its name is shown and is
    #: rated in the bots' pools
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: who made the bot (an account id without a foreign key: the author may delete its
    #: account, and the bot then shows no author)
    bot_author_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: the variants it accepts challenges in, and a line about it, both the author's
    bot_variants: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    bot_about: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: its author lets it play other bots (unrated; both bots' authors must say so)
    bot_allows_bots: Mapped[bool] = mapped_column(Boolean, default=False,
                                                  server_default=false())
    #: the last time its connection was seen (the lobby lists bots seen lately)
    bot_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                         nullable=True)

    def visible_to(self, viewer_id: int | None) -> bool:
        """Does this account exist for ``viewer_id`` (None: a guest)? A private account
        is its owner's alone: to everyone else it looks exactly like an unknown name."""
        return not self.private or self.id == viewer_id


class SessionRow(Base):
    """A signed-in browser. The cookie's token is stored only as its SHA-256 (a leaked
    table opens nothing); ``csrf`` is the token state-changing requests must repeat."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LoginFailureRow(Base):
    """One refused sign-in, keyed ``user:<name key>`` and ``addr:<address>``."""

    __tablename__ = "login_failures"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(128), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class AddressRow(Base):
    """A client address an account was used from (``kind`` "session": a sign-up or a
    sign-in), or a sign-up tried from it (``kind`` "signup", no account): the sign-up
    throttle counts the latter, the rating policy compares the former (``farming.py``).
    Kept ``address_keep_days``."""

    __tablename__ = "account_addresses"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True,
                                                index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class RatingRow(Base):
    """An account's openskill rating in one pool (see ``ratings.POOLS``)."""

    __tablename__ = "ratings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    pool: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingHistoryRow(Base):
    """An account's rating after one rated match (the profile's chart)."""

    __tablename__ = "rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    pool: Mapped[str] = mapped_column(String(16))
    match_id: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchPlayerRow(Base):
    """One seat of one finished match: who sat there (an account, or nobody known), and
    that side's facts summed over the match's hands."""

    __tablename__ = "match_players"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True,
                                                index=True)
    side: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    #: the seat was left to a stand-in past the grace period and not taken back
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False)
    points: Mapped[int] = mapped_column(Integer)
    hands: Mapped[int] = mapped_column(Integer)
    sweeps: Mapped[int] = mapped_column(Integer)
    settebello: Mapped[int] = mapped_column(Integer)
    primiera: Mapped[int] = mapped_column(Integer)
    coins: Mapped[int] = mapped_column(Integer)
    rating_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_after: Mapped[float | None] = mapped_column(Float, nullable=True)


class FollowRow(Base):
    __tablename__ = "follows"
    follower_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    followee_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True,
                                             index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class InvitationRow(Base):
    """A friend asked to a table (besides the link); shown to them until it is old."""

    __tablename__ = "invitations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_user: Mapped[int] = mapped_column(ForeignKey("users.id"))
    to_user: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    table_id: Mapped[str] = mapped_column(String(32))
    invite: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ResetRow(Base):
    """A one-time password-reset link (``server.resets``): only its token's hash is kept;
    it works once, until it expires, and a newer link for the account replaces it."""

    __tablename__ = "password_resets"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    #: "password" (sets a new password) or "email" (proves ``email`` is the owner's)
    purpose: Mapped[str] = mapped_column(String(16), default="password",
                                         server_default="password")
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BlockRow(Base):
    """``blocker`` blocked ``blocked``: the blocked player's chat and table invitations
    never reach the blocker (``moderation``)."""

    __tablename__ = "blocks"
    blocker_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True,
                                            index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerReportRow(Base):
    """A player reported from their profile, for the operator (``scopa admin reports``)."""

    __tablename__ = "player_reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    reported_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow,
                                                 index=True)
    #: when the operator closed it (None: open); how, in ``moderation_actions``
    handled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                        nullable=True)


class ModerationActionRow(Base):
    """One act of the operator, as lichess keeps its moderation log: a mute or suspension
    set or lifted (``users.muted_until`` / ``suspended_until`` hold only the one in force),
    or a report closed. Only ever added to: the history of an account or a report."""

    __tablename__ = "moderation_actions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    #: ``moderation.ACTIONS``: mute, unmute, suspend, unsuspend, close-report, close-chat-report
    action: Mapped[str] = mapped_column(String(24))
    #: the account acted on (a closed report: the account reported, if any)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True,
                                                index=True)
    #: a closed report: ``player_reports.id`` or ``chat_reports.id`` (by ``action``)
    report_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: a mute or suspension: when it ends
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    note: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: who acted (``scopa admin --by``; ``operator`` when not said)
    by: Mapped[str] = mapped_column(String(64))


class CountedActionRow(Base):
    """How many actions were counted under ``key`` (``mail-to:<address>``,
    ``report-by:<id>``...) since ``start``, the window's beginning (``players.limits``):
    one row per key, changed by guarded UPDATEs, so a limit holds under requests at once."""

    __tablename__ = "counted_actions"
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    start: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow,
                                            index=True)


class BotTokenRow(Base):
    """An API token of a bot account: only its hash is kept (the token is shown once, when
    made); several per bot, each revocable. It opens the bot's connection and nothing
    else (it is no session: no password, e-mail or account change goes with it)."""

    __tablename__ = "bot_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(128), unique=True)
    label: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
