"""Web security: the headers every HTTP response carries, which origins may open a
WebSocket, and the operator's secret. Kept apart so each rule has one home."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from fastapi import HTTPException, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from starlette.datastructures import MutableHeaders

from .settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
                   Awaitable[None]]

#: the page is plain ES modules and style sheets from /static: nothing inline, nothing
#: from elsewhere, never in a frame
CSP = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
    "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
    "form-action 'self'", "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    # invite codes travel in paths (/join/<code>): never tell another site the address
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
#: the OpenAPI page's own script and style come from its CDN (FastAPI's default page)
DOCS_CDN = "https://cdn.jsdelivr.net"


class SecurityHeaders:
    """ASGI middleware: adds ``HEADERS`` to every HTTP response (a response that set its
    own Content-Security-Policy, like the OpenAPI page, keeps it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in HEADERS.items():
                    headers.setdefault(key, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def docs_page(openapi_url: str, title: str) -> HTMLResponse:
    """FastAPI's OpenAPI page under a CSP that admits its CDN and, by hash, exactly its
    own inline script (nothing else inline)."""
    page = get_swagger_ui_html(openapi_url=openapi_url, title=title)
    body = bytes(page.body).decode()
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in re.findall(r"<script>(.*?)</script>", body, re.S)
    )
    csp = "; ".join([
        "default-src 'self'", f"script-src 'self' {DOCS_CDN} {hashes}",
        f"style-src 'self' {DOCS_CDN}", "img-src 'self' data: https://fastapi.tiangolo.com",
        "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
    ])
    return HTMLResponse(body, headers={"Content-Security-Policy": csp})


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """May a WebSocket handshake with this ``Origin`` go on? Programs send no Origin (they
    are not a browser page another site could have loaded); a browser always does, and
    it must be one of ``public_origins``, or by default name the request's own host."""
    if origin is None:
        return True
    wanted = settings.origins()
    origin = origin.strip().rstrip("/").lower()
    if wanted:
        return origin in wanted
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or host is None:
        return False
    return parts.netloc == host.strip().lower()


def require_operator(request: Request, settings: Settings) -> None:
    """Operator actions need ``Authorization: Bearer <operator secret>``; a server with
    no operator secret configured refuses them all."""
    if not settings.operator_secret:
        raise HTTPException(403, "operator actions are off: the server has no operator secret "
                                 "(SCOPA_OPERATOR_SECRET)")
    given = request.headers.get("authorization", "")
    scheme, _, token = given.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        token.strip().encode(), settings.operator_secret.encode()
    ):
        raise HTTPException(401, "operator actions need Authorization: Bearer <operator secret>",
                            headers={"WWW-Authenticate": "Bearer"})


def client_address(request: Request) -> str:
    """The client's address: the socket's peer, or what a trusted proxy forwarded (uvicorn
    reads X-Forwarded-For only from ``trusted_proxies``)."""
    return request.client.host if request.client else "?"
