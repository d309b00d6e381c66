"""``scopa admin migrate`` brings a database's schema up to date before any worker starts
(the first step of an upgrade, docs/deploy.md), on both stores."""

from __future__ import annotations

import asyncio

from sqlalchemy import inspect
from typer.testing import CliRunner

from scopa.cli import app
from scopa.server.store.database import make_engine


def tables(url: str) -> set[str]:
    async def read() -> set[str]:
        engine = make_engine(url)
        try:
            async with engine.connect() as conn:
                return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        finally:
            await engine.dispose()
    return asyncio.run(read())


def test_migrate_makes_the_schema_and_says_so(url: str) -> None:
    assert "events" not in tables(url)
    done = CliRunner().invoke(app, ["admin", "migrate", "--database-url", url])
    assert done.exit_code == 0, done.output
    assert done.stdout.strip() == "the database schema is up to date"
    assert {"alembic_version", "events", "users", "ratings"} <= tables(url)
    again = CliRunner().invoke(app, ["admin", "migrate", "--database-url", url])
    assert again.exit_code == 0  # already up to date: nothing to do, no error



def test_a_database_the_server_could_not_run_on_is_one_line_for_every_admin_command() -> None:
    """Not a traceback: the same preflight as ``scopa serve`` (URL, driver, folder)."""
    for url, words in [("mysql://x@y/z", "unsupported database 'mysql'"),
                       ("sqlite:////no/such/folder/x.db", "folder /no/such/folder")]:
        for command in (["reports"], ["migrate"], ["mute", "anna", "--hours", "1"]):
            done = CliRunner().invoke(app, ["admin", *command, "--database-url", url])
            assert done.exit_code == 1, (command, done.output)
            assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
