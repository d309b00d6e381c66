"""Server settings: flags override SCOPA_* environment variables, which override defaults."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

#: seconds a SQLite write waits for another writer's lock before it fails (cleanly: the
#: transaction rolls back and the request is answered "busy", see ``errors.busy``)
BUSY_SECONDS = 30.0


class Settings(BaseSettings):
    """Everything an operator may tune; tests shorten the timings."""

    model_config = SettingsConfigDict(env_prefix="SCOPA_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    #: SQLAlchemy URL: sqlite:///file (the default) or postgresql://user@host/db (the
    #: asyncio driver, aiosqlite or asyncpg, is chosen for you)
    database_url: str = "sqlite:///scopa.sqlite"
    #: memory:// (one process, the default) or redis://host:port/db (workers share it)
    broker_url: str = "memory://"
    #: prefix of this deployment's Redis keys and channels (several may share a Redis)
    broker_prefix: str = "scopa:"
    #: seconds a worker's lease on a table lasts unless renewed (renewed every third of
    #: it): how long a dead worker's tables wait before another takes them over (at most
    #: this and a third: 2 s; the heartbeat is one Redis call a tick for all tables)
    lease_seconds: float = Field(default=1.5, gt=0.2, le=300)
    #: key of the seat-token hashes; by default one is made and kept in the database
    secret: str | None = None
    #: seconds a disconnected human may be away before a bot plays for them
    grace_seconds: float = Field(default=60.0, ge=0, le=3600)
    #: longest pause after a hand: the next is dealt once every person seated has pressed
    #: Continue on the score sheet, or when this runs out (so one absent player cannot
    #: stall the table)
    hand_pause_seconds: float = Field(default=120.0, ge=0, le=600)
    #: minimum pause before a bot's move, so people can follow the play
    bot_delay_seconds: float = Field(default=0.6, ge=0, le=30)
    #: worker processes for bots and analysis
    bot_workers: int = Field(default=2, ge=1, le=64)
    #: level of the bot that stands in for an absent human
    standin_level: str = "intermediate"
    #: seconds a bot (and the teach-me analysis) may think per move; None: each level's
    #: own budget (50-200 ms) and the analysis default (about half a second)
    bot_seconds: float | None = Field(default=None, gt=0, le=60)
    #: allow seats played by external programs (configured by name below)
    external_bots: dict[str, list[str]] = Field(default_factory=dict)
    external_timeout: float = Field(default=10.0, gt=0, le=120)
    #: outside programs may play people online through bot accounts (``server.bots``)
    bots_online: bool = True
    #: bot accounts one person may make
    bots_per_author: int = Field(default=3, ge=0, le=100)
    #: tables one bot may play at once
    bot_tables: int = Field(default=8, ge=1, le=1000)
    #: seconds an online bot has for a move; past them the stand-in plays its seat
    bot_move_seconds: float = Field(default=10.0, gt=0, le=600)
    #: tables of two online bots one address may make an hour (their authors let them)
    bot_games_per_hour: int = Field(default=6, ge=0, le=10000)
    #: seconds an online bot has to accept a challenge (then it counts as declined)
    bot_offer_seconds: float = Field(default=30.0, gt=0, le=600)
    max_message_bytes: int = Field(default=4096, ge=256, le=1 << 20)
    #: token bucket per connection: sustained rate and burst
    rate_per_second: float = Field(default=10.0, gt=0)
    rate_burst: int = Field(default=20, ge=1)
    #: refused frames in a row after which a flooding connection is closed
    flood_close_after: int = Field(default=200, ge=1)
    hello_timeout: float = Field(default=10.0, gt=0)
    #: permessage-deflate on WebSockets: smaller frames, but CPU and ~100 KiB per socket
    ws_compression: bool = False
    #: tables one client address may create: a burst, then this many per minute
    create_burst: int = Field(default=60, ge=1)
    create_per_minute: float = Field(default=30.0, gt=0)
    #: live tables (waiting for players or playing) at most; finished ones do not count
    max_live_tables: int = Field(default=10000, ge=1)
    #: a table still waiting for players this long after it was made is closed for good
    waiting_table_minutes: float = Field(default=30.0, gt=0, le=7 * 24 * 60)
    #: tables waiting for players that one client address may hold at once
    max_waiting_per_address: int = Field(default=20, ge=1)
    #: seconds a SQLite write waits for another's lock before the request is answered 503
    #: "busy" (it never half-writes); PostgreSQL locks rows, not the database
    sqlite_busy_seconds: float = Field(default=BUSY_SECONDS, gt=0, le=600)
    #: proxies whose X-Forwarded-For / X-Forwarded-Proto are believed, comma-separated
    #: addresses or networks ("10.0.0.1,192.168.0.0/16", "*" for any); empty: none
    trusted_proxies: str = ""
    #: public addresses of the page (comma-separated origins like "https://scopa.example");
    #: empty: a WebSocket's Origin must name the same host as its Host header
    public_origins: str = ""
    #: SMTP server the site sends e-mail through (address checks, password resets by
    #: e-mail); empty: the site sends no e-mail and offers neither
    smtp_host: str = ""
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = "scopa@localhost"
    #: STARTTLS before anything is sent (off only for a relay on this machine)
    smtp_starttls: bool = True
    #: key of operator actions (e.g. resetting the health figures); none: they are refused
    operator_secret: str | None = Field(default=None, min_length=16)
    #: processes of their own for teach-me analyses (bots never wait behind them)
    analysis_workers: int = Field(default=1, ge=1, le=16)
    #: analyses that may wait for a worker; beyond that a teach gets "busy"
    analysis_queue: int = Field(default=4, ge=0, le=1000)
    #: search budget of each play of a game review (simulations; about 7 CPU seconds a
    #: two-player match at 1000, docs/review.md)
    review_simulations: int = Field(default=1000, ge=10, le=100_000)
    #: reviews waiting at one worker; beyond that an ask is answered "busy"
    reviews_queue: int = Field(default=8, ge=1, le=1000)
    #: reviews one player (an account, or a guest's address) may have on the way at once
    reviews_per_player: int = Field(default=2, ge=1, le=100)
    #: a finished table with nobody connected is forgotten after this (history keeps it)
    finished_keep_seconds: float = Field(default=3600.0, ge=0)
    #: refused sign-ins from one address at one name, and from one address at any names,
    #: that cost nothing; each further one makes that address wait ``login_delay_seconds``,
    #: doubled every time, at most ``login_window_seconds`` (after which failures are
    #: forgotten). Never per name alone: the owner on another address is not slowed
    #: (throttle.py, docs/accounts.md)
    login_failures_per_address_and_name: int = Field(default=3, ge=1)
    login_failures_per_address: int = Field(default=10, ge=1)
    login_delay_seconds: float = Field(default=2.0, gt=0)
    login_window_seconds: float = Field(default=900.0, gt=0)
    #: events one account may hold open or running at once, and create in a day (then 429)
    events_open_per_organiser: int = Field(default=5, ge=1, le=1000)
    events_per_organiser_per_day: int = Field(default=20, ge=1, le=10000)
    #: mail the site may send in ``mail_window_seconds`` for one account, to one
    #: recipient address, and for one client address (then 429; ``players.limits``)
    mails_per_account: int = Field(default=5, ge=1, le=10000)
    mails_per_recipient: int = Field(default=3, ge=1, le=10000)
    mails_per_address: int = Field(default=10, ge=1, le=10000)
    mail_window_seconds: float = Field(default=3600.0, gt=0, le=86400)
    #: "forgot your password?" asked from one client address, and for one name, in
    #: ``forgot_window_seconds`` (then 429); at most one reset mail a name every 5 minutes
    forgot_per_address: int = Field(default=10, ge=1, le=10000)
    forgot_per_name: int = Field(default=5, ge=1, le=10000)
    forgot_window_seconds: float = Field(default=3600.0, gt=0, le=86400)
    #: players one account may report in an hour and in a day (then 429)
    reports_per_hour: int = Field(default=5, ge=1, le=10000)
    reports_per_day: int = Field(default=20, ge=1, le=10000)
    #: sign-ups one client address may make in ``signup_window_seconds`` (then 429)
    signups_per_address: int = Field(default=10, ge=1)
    signup_window_seconds: float = Field(default=3600.0, gt=0)
    #: days the addresses an account was used from are kept (the rating policy: no
    #: rating between accounts used from one address within this many days)
    address_keep_days: float = Field(default=30.0, gt=0, le=3650)
    #: password hashes (Argon2id, 64 MiB each) run at once per worker, and how many more
    #: may wait, for sign-ups and for sign-ins separately; beyond that 503 "busy"
    signup_hashes_at_once: int = Field(default=1, ge=1, le=64)
    signup_hash_queue: int = Field(default=8, ge=0, le=1000)
    signin_hashes_at_once: int = Field(default=2, ge=1, le=64)
    signin_hash_queue: int = Field(default=32, ge=0, le=1000)
    #: rated matches a player needs in a pool to appear on its leaderboard
    leaderboard_min_games: int = Field(default=5, ge=0)
    #: GET /metrics (Prometheus): "operator" needs Authorization: Bearer <operator secret>
    #: (refused when there is none), "open" serves anyone, "off" answers 404
    metrics: Literal["off", "operator", "open"] = "operator"
    #: log lines as text (uvicorn's) or one JSON object a line; both carry request ids
    log_format: Literal["text", "json"] = "text"
    #: where the static UI lives (None: the package folder scopa/web)
    static_dir: str | None = None

    def origins(self) -> set[str]:
        """The configured public origins, normalised (lower case, no trailing slash)."""
        return {o.strip().rstrip("/").lower() for o in self.public_origins.split(",")
                if o.strip()}

    def site(self) -> str:
        """Where the players open the site, for links in mail and printed links: the first
        configured public origin, else the address the server was told to serve (``host``
        and ``port``; an any-address or loopback host is shown as localhost). Never a
        request's Host header, which its sender chooses."""
        first = self.public_origins.split(",")[0].strip()
        if first:
            return first.rstrip("/")
        host = "localhost" if self.host in ("127.0.0.1", "0.0.0.0", "::", "::1", "") \
            else self.host
        if ":" in host:  # an IPv6 address
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def proxy_options(self) -> dict[str, Any]:
        """uvicorn's options for forwarded headers: read only from ``trusted_proxies``
        (uvicorn alone would believe any client on 127.0.0.1)."""
        trusted = [p.strip() for p in self.trusted_proxies.split(",") if p.strip()]
        return {"proxy_headers": bool(trusted), "forwarded_allow_ips": trusted}

    async def secret_for(self, store: object) -> str:
        """The configured secret, else the one kept in the database (made on first start),
        so seat tokens stay valid across restarts."""
        if self.secret:
            return self.secret
        return str(await store.secret())  # type: ignore[attr-defined]
