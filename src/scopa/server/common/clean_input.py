"""One gate for text no store can keep: a NUL character (PostgreSQL refuses it in text, a
500 deep inside a query) or a lone surrogate (not UTF-8 at all), anywhere in a request's
path, query or JSON body, is refused with 400 before any route sees it; so is a JSON body
nested too deeply to read. Every route, present and future, is covered here, at one place,
and SQLite and PostgreSQL answer alike."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: a JSON body this deep is refused (no form of the API nests more than a few levels)
MAX_DEPTH = 32


def bad_text(text: str) -> bool:
    """Has ``text`` a NUL or a lone surrogate?"""
    return "\x00" in text or any("\ud800" <= ch <= "\udfff" for ch in text)


def bad_json(value: Any, depth: int = 0) -> str | None:
    """Why the JSON ``value`` is refused (None: it is not)."""
    if depth > MAX_DEPTH:
        return f"JSON nested deeper than {MAX_DEPTH} levels"
    if isinstance(value, str):
        return "a NUL character or a lone surrogate in a JSON string" if bad_text(value) \
            else None
    if isinstance(value, dict):
        for k, v in value.items():
            why = bad_json(k, depth + 1) or bad_json(v, depth + 1)
            if why:
                return why
    if isinstance(value, list):
        for v in value:
            why = bad_json(v, depth + 1)
            if why:
                return why
    return None


def bad_url(scope: Scope) -> str | None:
    """Why the path or query of ``scope`` is refused (None: they are not)."""
    if bad_text(scope.get("path", "")):
        return "a NUL character or a lone surrogate in the path"
    query = scope.get("query_string", b"").decode("latin-1")
    if bad_text(unquote(query.replace("+", " "), errors="replace")):
        return "a NUL character in the query"
    return None


async def refuse(send: Send, why: str) -> None:
    body = json.dumps({"detail": f"bad input: {why} (not allowed)"}).encode()
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class CleanInput:
    """ASGI middleware: the gate described above."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and bad_url(scope):
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        why = bad_url(scope)
        if why:
            await refuse(send, why)
            return
        headers = dict(scope.get("headers", []))
        if b"json" not in headers.get(b"content-type", b""):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            why = bad_json(json.loads(body))
        except RecursionError:
            why = "JSON nested too deeply"
        except ValueError:  # not JSON: the route says so in its own words
            why = None
        if why:
            await refuse(send, why)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
