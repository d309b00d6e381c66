"""``scopa serve`` (the game server) and ``scopa verify`` (check a game record's seeds)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer


def serve(
    host: Annotated[str | None, typer.Option(help="address to listen on")] = None,
    port: Annotated[int | None, typer.Option(help="port to listen on")] = None,
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy URL, e.g. sqlite:///scopa.sqlite")
    ] = None,
    secret: Annotated[
        str | None, typer.Option(help="key of seat-token hashes (default: kept in the database)")
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
) -> None:
    """Run the game server (settings also from SCOPA_* environment variables)."""
    import uvicorn

    from ..server.app import create_app
    from ..server.settings import Settings

    overrides: dict[str, Any] = {
        k: v
        for k, v in {
            "host": host, "port": port, "database_url": database_url, "secret": secret
        }.items()
        if v is not None
    }
    settings = Settings(**overrides)
    app = create_app(settings)
    shown = "localhost" if settings.host in ("127.0.0.1", "0.0.0.0") else settings.host
    typer.echo(f"Scopa server: open http://{shown}:{settings.port}/  (API: /docs)")
    uvicorn.run(
        app, host=settings.host, port=settings.port, log_level=log_level, ws_max_size=65536,
        ws_max_queue=256, ws_per_message_deflate=settings.ws_compression,
    )


def verify(
    record: Annotated[Path, typer.Argument(help="a game record file (JSON or text)")],
) -> None:
    """Check a game record: each hand's seed against its commitment, and the replay."""
    from .. import record as rec

    data = rec.load_record(record.read_text(encoding="utf-8"))
    problems = rec.verify_record(data)
    if problems:
        for p in problems:
            typer.echo(f"FAIL {p}")
        raise typer.Exit(1)
    typer.echo(f"OK: {len(data.get('hands', []))} hands; every seed matches its commitment")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    taken = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    if "verify" not in taken:
        app.command("verify")(verify)
