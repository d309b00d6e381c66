"""Wiring: settings -> storage (migrated) -> bot pool -> match master -> routes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError

from ...tournament import TournamentError
from ..bots import api as bots_api
from ..bots import link as bot_link
from ..chat import reports
from ..common import security
from ..common.clean_input import CleanInput
from ..common.errors import busy, errors, method_not_allowed, validation_error
from ..common.ratelimit import MemoryLimiter
from ..common.refusal import Refusal, bad_request, refused
from ..common.settings import Settings
from ..play import history, lobby
from ..play import reviews as match_reviews
from ..play.botpool import BotPool
from ..play.cluster import Cluster
from ..play.master import Master
from ..play.outcome import rating_hook
from ..play.reviews import Reviews
from ..play.tokens import new_id
from ..play.workers import LocalCluster, Workers
from ..players import accounts, email_reset, friends, profiles
from ..players.account_store import AccountStore
from ..players.ratings import Ratings
from ..puzzles import api as puzzles_api
from ..puzzles.store import PuzzleStore
from ..store.broker import LocalBroker, RedisBroker, make_broker
from ..store.database import Store
from ..store.ratelimit import RedisLimiter
from ..tournaments import api as tournaments_api
from ..tournaments.wiring import wire as wire_tournaments
from . import gcpolicy, health, install, logs, metrics
from .hub import Hub

WEB = Path(__file__).resolve().parents[2] / "web"
#: the paths answered with the page itself (its script routes them); the installed app's
#: worker serves the same ones from its copy (``install``)
PAGES: tuple[str, ...] = (
    "/", "/t/{table_id}", "/join/{invite}", "/replay/{match_id}", "/account",
    "/account/delete", "/players/{name}", "/leaderboard", "/reset/{token}",
    "/verify-email/{token}", "/events", "/events/{event_id}",
    "/events/{event_id}/print/{round_number}", "/events/{event_id}/enter",
    "/events/{event_id}/screen",
    # the Learn course (issue 42 section 2): its list and one lesson
    "/learn", "/learn/{lesson_id}",
    # puzzles (issue 42 section 3)
    "/puzzles", "/puzzles/{puzzle_id}")

PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Scopa</title>
<body><h1>Scopa server</h1><p>The browser table is not installed here. The HTTP API is
described at <a href="/docs">/docs</a>; the WebSocket protocol in docs/server-protocol.md.</p>
</body></html>"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    web = Path(settings.static_dir) if settings.static_dir else WEB

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url, settings.sqlite_busy_seconds)
        # memory:// is one process serving every table; any other broker makes this
        # worker one of several sharing the database (see cluster.py, docs/server.md)
        broker = make_broker(settings.broker_url, settings.broker_prefix)
        await store.migrate()
        pool = BotPool(settings.bot_workers, settings.analysis_workers, settings.analysis_queue)
        await pool.warm()
        cluster: Workers = (
            LocalCluster() if isinstance(broker, LocalBroker)
            else Cluster(broker, store, new_id(8), settings.lease_seconds))
        master = Master(settings, store, pool, await settings.secret_for(store),
                        cluster=cluster)
        master.match_end_hooks.append(rating_hook(Ratings(store)))
        # tournaments: their online rounds' tables enter results at a match's end (after
        # the rating hook), and those that ended while the server was down on start
        round_tables = wire_tournaments(app.state, store, master, settings.grace_seconds)
        await master.restore()
        cluster.start()  # alone: resume every table; scaled: lease, then take over
        await round_tables.resume()
        master.start_housekeeping()
        # everything loaded so far lives as long as the server: keep it out of the
        # collector's way (shorter full collections under load), and what survives a
        # full collection later on, too (gcpolicy.py)
        collector = gcpolicy.Collector()
        collector.collect_all()
        app.state.store, app.state.pool, app.state.master = store, pool, master
        app.state.broker = broker
        # rate limits every worker shares (Redis), else this process's
        app.state.limiter = (RedisLimiter(broker.redis, settings.broker_prefix)
                             if isinstance(broker, RedisBroker) else MemoryLimiter())
        app.state.accounts = AccountStore(store)
        app.state.online_bots = bots_api.OnlineBots(store)
        app.state.puzzles = PuzzleStore(store)
        reviews = Reviews(store, pool, settings.review_simulations, settings.reviews_queue,
                          settings.reviews_per_player)
        reviews.start()
        app.state.reviews = reviews
        app.state.hub = Hub(master, settings)
        app.state.lag = health.LagMonitor()
        app.state.lag.start()
        app.state.metrics.start(app)
        collector.start()
        try:
            yield
        finally:
            collector.stop()
            await reviews.stop()
            app.state.metrics.stop()
            app.state.lag.stop()
            await cluster.stop()
            await master.shutdown()
            await pool.aclose()
            await broker.close()
            await store.close()

    app = FastAPI(
        title="Scopa server",
        summary="Lobby and history of the Scopa game server; play is over /ws/<table_id>.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.metrics = metrics.Metrics()
    app.add_middleware(CleanInput)  # NUL and lone surrogates: 400 before any route
    app.add_middleware(security.SecurityHeaders)
    app.add_middleware(logs.RequestIds)  # outermost: its id is on every record after it
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(OperationalError, busy)
    app.add_exception_handler(Refusal, refused)
    app.add_exception_handler(TournamentError, bad_request)
    app.add_exception_handler(405, method_not_allowed)

    @app.get("/docs", include_in_schema=False)
    def docs() -> Response:
        return security.docs_page(app.openapi_url or "/openapi.json", app.title + " - docs")
    for router in (lobby.router, history.router, match_reviews.router, health.router,
                   metrics.router, accounts.router, email_reset.router, profiles.router,
                   friends.router, reports.router, tournaments_api.router, bots_api.router,
                   bots_api.listing, puzzles_api.router):
        # every route may answer CleanInput's 400
        app.include_router(router, responses=errors(400))

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.app.state.hub.serve(ws, table_id)

    @app.websocket("/api/bot/connect")
    async def bot_connect(ws: WebSocket) -> None:
        await bot_link.serve(ws)

    def index() -> Response:
        page = web / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse(PLACEHOLDER)

    for path in PAGES:
        app.add_api_route(path, index, methods=["GET"], include_in_schema=False)
    if web.is_dir():
        app.include_router(install.router_for(web, PAGES))
        app.mount("/static", StaticFiles(directory=web), name="static")
    return app
