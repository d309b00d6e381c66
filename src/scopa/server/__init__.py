"""The game server: authoritative matches over WebSockets, stored as events.

Modules, one job each: ``settings`` (configuration from flags and SCOPA_* variables),
``models`` and ``store`` (event-sourced storage), ``migrate`` (Alembic, run at start),
``master`` (the authoritative match master), ``hub`` (WebSocket connections), ``seats``
(bots and analyses in process pools), ``chat`` and ``chatstore`` (table chat), ``fairplay``
(whether teach me is on), ``buckets`` (rate limits), ``lobby``, ``history`` and ``reports``
(HTTP API), ``security``
(response headers, WebSocket origins, the operator's secret), ``errors`` (422 bodies that
are always JSON), ``app`` (wiring).
"""

from .settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):  # type: ignore[no-untyped-def]
    """Build the FastAPI application (imported lazily so the package imports cheaply)."""
    from .app import create_app as _create

    return _create(settings)
