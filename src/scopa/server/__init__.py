"""The game server: authoritative matches over WebSockets, each stored as its log of
events (a word kept for that log and for the broker's messages that carry it; the site's
"events", its tournaments, are ``tournaments`` in the code).

Its packages, each allowed to import only those listed before it (``tests/test_layers.py``
keeps it so):

- ``common``: what every part uses: settings, error bodies, clocks and timings, rate
  buckets, security helpers (response headers, origins, the client's address);
- ``store``: what is kept and shared between workers: the database tables, the event log
  and accounts' rows (``database``), migrations, the broker between workers;
- ``players``: people: accounts, sessions, passwords, ratings, profiles, friends,
  moderation, e-mail and password resets, nicknames;
- ``play``: tables and matches: the lobby, the master and its flow, frames, bot seats, the
  cluster of workers, match history;
- ``puzzles``: "find the play" puzzles (loaded by ``scopa puzzles load``), the puzzle of
  the day, answers checked on the server and the puzzle ratings, beside ``play`` (the two
  never import each other);
- ``chat``: table chat, its archive and reports;
- ``tournaments``: tournaments on the server (the site's "events": online ones, club
  nights), beside ``chat``
  (the two never import each other);
- ``bots``: bots online: bot accounts, their API tokens, and the WebSocket through which
  an outside program plays people (beside ``chat`` and ``tournaments``);
- ``ops``: running it: the app's wiring, the WebSocket hub, health, metrics, logs, the
  command's start-up checks, ``scopa admin``.
"""

from .common.settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):  # type: ignore[no-untyped-def]
    """Build the FastAPI application (imported lazily so the package imports cheaply)."""
    from .ops.app import create_app as _create

    return _create(settings)
