"""Run the Alembic migrations from code (no alembic.ini), so an installed package can
bring any database up to date at start. The engine is asyncio; Alembic is not, so the
migrations run on the engine's connection through ``run_sync`` (as Alembic's cookbook
recommends for async engines)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).with_name("migrations")

#: PostgreSQL advisory lock key held while migrating, so workers starting at once take
#: turns instead of racing to create the same tables
MIGRATION_LOCK = 0x5C0FA


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade_sync(conn: Connection, revision: str = "head") -> None:
    """Bring the database behind the (synchronous) ``conn`` to ``revision``."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database of ``engine`` to ``revision``, in one transaction. On SQLite
    the foreign keys are off while it runs (a migration that rebuilds a table others point
    at, as SQLite's own procedure for schema changes says) and checked whole before the
    transaction commits: a broken reference fails the migration, which then changes
    nothing."""
    async with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:  # a no-op inside a transaction: set before it begins
            await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            await conn.commit()
        try:
            async with conn.begin():
                await conn.run_sync(upgrade_sync, revision)
                if sqlite:
                    broken = (await conn.exec_driver_sql("PRAGMA foreign_key_check")).all()
                    if broken:
                        raise RuntimeError(f"the migration broke references: {broken[:5]}")
        finally:
            if sqlite:
                await conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                await conn.commit()
