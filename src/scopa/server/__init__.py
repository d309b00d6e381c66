"""The game server: authoritative matches over WebSockets, stored as events.

Modules, one job each: ``settings`` (configuration from flags and SCOPA_* variables),
``models`` and ``store`` (event-sourced storage), ``migrate`` (Alembic, run at start),
``master`` (the authoritative match master), ``hub`` (WebSocket connections), ``seats``
(bots in a process pool), ``lobby`` and ``history`` (HTTP API), ``app`` (wiring).
"""

from .settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):  # type: ignore[no-untyped-def]
    """Build the FastAPI application (imported lazily so the package imports cheaply)."""
    from .app import create_app as _create

    return _create(settings)
