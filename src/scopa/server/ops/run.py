"""Running the game server: ``serve`` with its options, the body of both ``scopa serve``
and ``python -m scopa.server`` (the server owns how it starts; the command line only
registers it). The command line imports this module, so what only serving needs
(uvicorn, the app) is imported when serving."""

from __future__ import annotations

from typing import Annotated, Any

import typer


def serve(
    host: Annotated[str | None, typer.Option(help="address to listen on")] = None,
    port: Annotated[int | None, typer.Option(help="port to listen on")] = None,
    database_url: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy URL: sqlite:///scopa.sqlite or postgresql://user@host/db"),
    ] = None,
    broker_url: Annotated[
        str | None, typer.Option(help="memory:// (one process) or redis://host:port/db")
    ] = None,
    secret: Annotated[
        str | None, typer.Option(help="key of seat-token hashes (default: kept in the database)")
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    log_format: Annotated[
        str | None, typer.Option(help="text (the default) or json: one JSON object a line")
    ] = None,
) -> None:
    """Run the game server (settings also from SCOPA_* environment variables)."""
    import asyncio

    import uvicorn

    from .announce import Announcing
    from .app import create_app
    from .logs import log_config
    from .preflight import StartupError, check, settings_from

    overrides: dict[str, Any] = {
        k: v
        for k, v in {
            "host": host, "port": port, "database_url": database_url,
            "broker_url": broker_url, "secret": secret, "log_format": log_format,
        }.items()
        if v is not None
    }
    try:
        settings = settings_from(overrides)
        asyncio.run(check(settings))
    except StartupError as e:
        typer.echo(f"scopa serve: {e}", err=True)
        raise typer.Exit(1) from None
    config = uvicorn.Config(
        create_app(settings), host=settings.host, port=settings.port, log_level=log_level,
        log_config=log_config(log_level, settings.log_format),
        ws_max_size=65536, ws_max_queue=256, ws_per_message_deflate=settings.ws_compression,
        **settings.proxy_options(),
    )
    server = Announcing(config, f"Scopa server: open {settings.site()}/  "
                        "(API: /docs)")
    server.run()
    if not server.started:  # uvicorn logged why (the port taken, the app's start-up)
        raise typer.Exit(1)

