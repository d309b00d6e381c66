"""What is kept, and shared between workers: ``base`` and the tables (``models`` for tables,
matches and their event log; ``account_models`` for the players' side; ``tournament_models``
for tournaments; ``puzzle_models`` for puzzles), ``database`` (the
``Store``: event-sourced storage of matches, written so two workers never write the same
step), ``migrate`` and ``migrations`` (Alembic, run at start), ``broker`` (announcements and
leases between workers: in memory for one, Redis for several), ``access`` (how a route
reaches the store), ``backup`` (backups and restores of the whole database: SQLite's online
backup, ``pg_dump``/``pg_restore``).

May import: ``server.common`` and the engine.

Importing the package loads every table's module, so ``Base.metadata`` is whole wherever
any one is used (migrations, tests)."""

from . import account_models, models, puzzle_models, tournament_models

__all__ = ["account_models", "puzzle_models", "tournament_models", "models"]
