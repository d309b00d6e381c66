"""``scopa admin``: the operator's commands on the server's database (the same
``--database-url`` as ``scopa serve``, or ``SCOPA_DATABASE_URL``). Each opens the store,
brings it up to date as the server would, does one thing and says what it did."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from ..chat.chatstore import ChatStore
from ..common.settings import Settings
from ..players.account_store import AccountStore
from ..players.moderation import OPERATOR, Moderation, ModerationError
from ..players.passwords import name_key
from ..players.resets import RESET_HOURS, Resets
from ..store import backup as backups
from ..store.account_models import UserRow
from ..store.database import Store
from ..store.models import utcnow
from .preflight import StartupError, check_database, settings_from
from .terminal import say

T = TypeVar("T")

admin = typer.Typer(
    help="Operator commands: reset a password, read and close reports, mute or suspend an "
         "account, read the moderation log, back up and restore the database.",
    no_args_is_help=True, rich_markup_mode=None,
)

DatabaseUrl = Annotated[
    str | None,
    typer.Option(help="SQLAlchemy URL: sqlite:///scopa.sqlite or postgresql://user@host/db"),
]


class Refused(Exception):
    """What the operator asked for cannot be done; the message says why."""


def settings_for(database_url: str | None) -> Settings:
    """The server's settings (SCOPA_* variables), ``--database-url`` first; a bad one is
    one line on stderr, as for ``scopa serve``."""
    overrides: dict[str, Any] = {"database_url": database_url} if database_url else {}
    try:
        return settings_from(overrides)
    except StartupError as e:
        say(f"scopa admin: {e}", err=True)
        raise typer.Exit(1) from None


def on_store(settings: Settings, work: Callable[[Store], Awaitable[T]]) -> T:
    """Run ``work`` on the migrated store, closing it afterwards; a ``Refused``, or a
    database the server could not run on either (``preflight.check_database``: the URL, its
    driver, one connection), becomes one line on stderr and exit status 1."""
    async def run() -> T:
        await check_database(settings.database_url)
        store = Store(settings.database_url, settings.sqlite_busy_seconds)
        try:
            await store.migrate()
            return await work(store)
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except (Refused, StartupError, ModerationError) as e:
        say(f"scopa admin: {e}", err=True)
        raise typer.Exit(1) from None


#: the options every act of moderation takes: why, and who acts (both kept in the log)
Note = Annotated[str | None, typer.Option(help="why, kept in the moderation log (200 chars)")]
By = Annotated[str, typer.Option(help="who acts, kept in the moderation log")]


async def account(store: Store, name: str) -> UserRow:
    user = await AccountStore(store).user_by_key(name_key(name.strip()))
    if user is None:
        raise Refused(f"no account is named {name!r}")
    return user


def site(settings: Settings, base_url: str | None) -> str:
    """Where the players open the site: ``--base-url``, else ``Settings.site``."""
    return base_url.rstrip("/") if base_url else settings.site()


@admin.command("reset-password")
def reset_password(
    name: Annotated[str, typer.Argument(help="the account's user name")],
    database_url: DatabaseUrl = None,
    base_url: Annotated[str | None, typer.Option(
        help="the site's address in the link (default: the first SCOPA_PUBLIC_ORIGINS, "
             "else http://localhost:PORT)")] = None,
    hours: Annotated[float, typer.Option(min=0.1, max=24 * 14,
                                         help="how long the link works")] = RESET_HOURS,
) -> None:
    """Print a one-time link that sets a new password for NAME (send it to the player
    yourself). It works once, for HOURS; a newer link replaces it; using it signs the
    account out everywhere."""
    settings = settings_for(database_url)

    async def work(store: Store) -> Any:
        user = await account(store, name)
        return user.name, await Resets(store).issue(user.id, hours)

    shown, token = on_store(settings, work)
    say(f"{site(settings, base_url)}/reset/{token}")
    say(f"(a one-time link for {shown}, valid {hours:g} hours)", err=True)


@admin.command("reports")
def reports(
    database_url: DatabaseUrl = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="how many of each")] = 50,
    closed: Annotated[bool, typer.Option("--all", help="closed reports too")] = False,
) -> None:
    """List the open reports, newest first, one line each: players reported from their
    profiles and chat messages reported at tables (then act with mute or suspend, and
    close-report once handled)."""
    settings = settings_for(database_url)

    async def work(store: Store) -> Any:
        players = await Moderation(store).player_reports(limit, closed)
        chat, _ = await ChatStore(store).reports(limit, 0, closed)
        return players, chat

    players, chat = on_store(settings, work)
    say(f"players reported ({len(players)}):")
    for r in players:
        state = ", ".join(w for w in ("muted", "suspended") if r[w]) or "active"
        shut = f" closed {r['closed_at']:%Y-%m-%d %H:%M}" if r["closed_at"] else ""
        say(f"  #{r['id']} {r['at']:%Y-%m-%d %H:%M} {r['reported']} by {r['by']} "
                   f"[{state}]{shut}: {r['reason'] or '(no reason given)'}")
    say(f"chat messages reported ({len(chat)}):")
    for c in chat:
        said = c.get("message") or {}
        shut = f" closed {c['closed_at']}" if c.get("closed_at") else ""
        say(f"  #{c.get('id')} table {c.get('table_id')} {said.get('name') or ''}: "
                   f"{said.get('text') or said.get('phrase') or ''} "
                   f"(reason: {c.get('reason') or '-'}){shut}")


@admin.command("close-report")
def close_report(
    report: Annotated[int, typer.Argument(min=1, help="the report's number (scopa admin "
                                                      "reports)")],
    chat: Annotated[bool, typer.Option("--chat", help="a chat message's report")] = False,
    note: Note = None,
    by: By = OPERATOR,
    database_url: DatabaseUrl = None,
) -> None:
    """Close a report once handled (a player's; with --chat, a chat message's): it leaves
    the list, and the moderation log keeps when, by whom and NOTE."""
    async def work(store: Store) -> None:
        await Moderation(store).close_report(report, chat, note, by)

    on_store(settings_for(database_url), work)
    say(f"{'chat' if chat else 'player'} report #{report} closed")


@admin.command("log")
def log(
    name: Annotated[str | None, typer.Argument(help="only this account's")] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="how many")] = 50,
    database_url: DatabaseUrl = None,
) -> None:
    """The moderation log, newest first: every mute, suspension, lifting and closed report,
    with when, by whom and the note."""
    async def work(store: Store) -> list[dict[str, Any]]:
        user_id = None if name is None else (await account(store, name)).id
        return await Moderation(store).log(user_id, limit)

    for a in on_store(settings_for(database_url), work):
        words = [f"{a['at']:%Y-%m-%d %H:%M}", a["action"]]
        words += [f"#{a['report']}"] if a["report"] is not None else []
        words += [a["account"]] if a["account"] else []
        words += [f"until {a['until']:%Y-%m-%d %H:%M}"] if a["until"] is not None else []
        say(f"  {' '.join(words)} by {a['by']}" + (f": {a['note']}" if a["note"] else ""))


def until(amount: float, unit: timedelta) -> datetime | None:
    """The end of a mute or suspension ``amount`` units from now; None for 0 (lift it)."""
    return None if amount == 0 else utcnow() + amount * unit


Restrict = Callable[[Moderation, int, datetime | None, str | None, str], Awaitable[None]]


def restrict(name: str, database_url: str | None, end: datetime | None, apply: Restrict,
             note: str | None, by: str) -> str:
    """Set (``end``) or lift (None) a mute or suspension of the account ``name`` with
    ``apply``, logged with ``note`` and ``by``; its name as stored."""
    async def work(store: Store) -> str:
        user = await account(store, name)
        await apply(Moderation(store), user.id, end, note, by)
        return user.name

    return on_store(settings_for(database_url), work)


@admin.command("mute")
def mute(
    name: Annotated[str, typer.Argument(help="the account's user name")],
    hours: Annotated[float, typer.Option(min=0, max=24 * 365,
                                         help="how long; 0 lifts the mute")] = 24.0,
    note: Note = None,
    by: By = OPERATOR,
    database_url: DatabaseUrl = None,
) -> None:
    """Mute an account's table chat for HOURS (its messages are refused, with the time
    the mute ends); it still plays. Logged."""
    end = until(hours, timedelta(hours=1))
    shown = restrict(name, database_url, end, Moderation.set_mute, note, by)
    say(f"{shown}: chat muted until {end:%Y-%m-%d %H:%M} UTC" if end
               else f"{shown}: chat no longer muted")


@admin.command("suspend")
def suspend(
    name: Annotated[str, typer.Argument(help="the account's user name")],
    days: Annotated[float, typer.Option(min=0, max=3650,
                                        help="how long; 0 lifts the suspension")] = 7.0,
    note: Note = None,
    by: By = OPERATOR,
    database_url: DatabaseUrl = None,
) -> None:
    """Suspend an account for DAYS: every session of it ends now and it cannot sign in
    until then (told until when). Logged."""
    end = until(days, timedelta(days=1))
    shown = restrict(name, database_url, end, Moderation.set_suspension, note, by)
    say(f"{shown}: suspended until {end:%Y-%m-%d %H:%M} UTC" if end
               else f"{shown}: no longer suspended")


def backing_up(work: Callable[[], None]) -> None:
    """Run a backup or restore; a refusal is one line on stderr and exit status 1."""
    try:
        work()
    except backups.BackupError as e:
        say(f"scopa admin: {e}", err=True)
        raise typer.Exit(1) from None


@admin.command("backup")
def backup(
    path: Annotated[Path, typer.Argument(help="the backup file to write (replaced)")],
    database_url: DatabaseUrl = None,
) -> None:
    """Write a consistent snapshot of the database to PATH, safe while the server runs
    (SQLite: its online backup API; PostgreSQL: pg_dump --format=custom, from Debian's
    postgresql-client). Matches in progress resume from the snapshot's last move."""
    url = settings_for(database_url).database_url
    backing_up(lambda: backups.backup(url, path))
    say(f"backed up to {path} ({path.stat().st_size} bytes)")


@admin.command("restore")
def restore(
    path: Annotated[Path, typer.Argument(help="a file written by scopa admin backup")],
    database_url: DatabaseUrl = None,
    force: Annotated[bool, typer.Option(
        help="restore even though something still has the database open")] = False,
) -> None:
    """Replace the database with the backup PATH (all or nothing). Refused, with nothing
    changed, for a file that is not a backup of this kind of database, and while anything
    has the database open (a server: stop every worker first). SQLite: any process with
    the file open; PostgreSQL: any other session connected to the database. Restore onto
    the same version's database or an empty one; the server migrates it on start."""
    url = settings_for(database_url).database_url
    backing_up(lambda: backups.restore(url, path, force))
    say(f"restored from {path}")


@admin.command("migrate")
def migrate(database_url: DatabaseUrl = None) -> None:
    """Bring the database's schema up to date, as every worker does when it starts: run it
    before a rolling restart onto a new version, so no new worker waits on a migration
    (the migrations take a lock: workers starting meanwhile wait for it)."""
    async def nothing(store: Store) -> None:
        return None

    on_store(settings_for(database_url), nothing)
    say("the database schema is up to date")
