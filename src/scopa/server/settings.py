"""Server settings: flags override SCOPA_* environment variables, which override defaults."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    #: key of the seat-token hashes; by default one is made and kept in the database
    secret: str | None = None
    #: seconds a disconnected human may be away before a bot plays for them
    grace_seconds: float = Field(default=60.0, ge=0, le=3600)
    #: pause after a hand before the next is dealt (unless every human says "next")
    hand_pause_seconds: float = Field(default=10.0, ge=0, le=600)
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
    #: tables held in memory at most (waiting, playing, recently finished)
    max_live_tables: int = Field(default=10000, ge=1)
    #: a finished table with nobody connected is forgotten after this (history keeps it)
    finished_keep_seconds: float = Field(default=3600.0, ge=0)
    #: where the static UI lives (None: the package folder scopa/web)
    static_dir: str | None = None

    async def secret_for(self, store: object) -> str:
        """The configured secret, else the one kept in the database (made on first start),
        so seat tokens stay valid across restarts."""
        if self.secret:
            return self.secret
        return str(await store.secret())  # type: ignore[attr-defined]
