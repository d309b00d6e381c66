"""Error bodies that can always be written: a refused request echoes parts of what it got
(bytes that are not UTF-8, NaN, infinities), and the answer must still be plain JSON."""

from __future__ import annotations

import logging
import math
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.routing import Match

log = logging.getLogger("scopa.server")

#: longest piece of the client's input echoed back in an error
ECHO_MAX = 200


class ErrorBody(BaseModel):
    """Every refused request but a malformed one (422) answers this."""

    detail: str = Field(description="what was wrong, in words a person can act on")


#: what each error status means on this server (the OpenAPI document's descriptions)
MEANINGS = {
    400: "the body is not JSON, or the request breaks a rule the schema cannot express "
         "(named in detail)",
    401: "sign in first, or the credentials are wrong",
    403: "not allowed: another site's request, a missing CSRF token, not your seat or table, "
         "or operator actions are off",
    404: "nothing with this id, code or name (or it is not public; or this server does not "
         "offer it, as e-mail where no mail server is set)",
    409: "taken already: the name, the seat or the table's last free place",
    429: "too many requests from this address or for this account: wait and try again",
    501: "not available on this server",
    502: "the mail server did not take the message: try again later",
    503: "the server is busy: try again shortly",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses=``: each status it may refuse with, with the one error body
    and its meaning, so the OpenAPI document lists every answer the server gives."""
    return {code: {"model": ErrorBody, "description": MEANINGS[code]} for code in codes}


#: a route behind a signed-in session (``sessions.acting``): not signed in, no CSRF token
SIGNED_IN = (401, 403)


def json_safe(value: Any, depth: int = 0) -> Any:
    """``value`` as strict JSON data: non-finite numbers and bytes become text, long text
    is cut, anything else unknown is shown by ``str``."""
    if depth > 20:
        return "..."
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, bytes | bytearray):
        value = bytes(value[: ECHO_MAX * 4]).decode("utf-8", "replace")
    if isinstance(value, str):
        # a lone surrogate (JSON's "\ud800") cannot be written as UTF-8: shown as "?"
        value = value.encode("utf-8", "replace").decode("utf-8")
        return value if len(value) <= ECHO_MAX else value[:ECHO_MAX] + "..."
    if isinstance(value, dict):
        return {str(k)[:ECHO_MAX]: json_safe(v, depth + 1) for k, v in list(value.items())[:50]}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(v, depth + 1) for v in list(value)[:50]]
    return json_safe(str(value), depth + 1)


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 with FastAPI's usual ``detail`` list, made safe to write."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else [str(exc)]
    return JSONResponse(status_code=422, content={"detail": json_safe(list(errors))})


async def busy(request: Request, exc: Exception) -> JSONResponse:
    """503 "busy" when the database could not take a write in time (SQLite's lock held past
    the busy timeout, a lost connection): the transaction has rolled back, so nothing was
    half done, and the client is told to try again rather than given a 500."""
    log.warning("database busy or unreachable on %s: %s", request.url.path, exc)
    return JSONResponse(status_code=503, headers={"Retry-After": "2"},
                        content={"detail": "the server is busy: try again in a moment"})


#: the methods a path may be asked whether it takes
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


async def method_not_allowed(request: Request, exc: Exception) -> JSONResponse:
    """405 whose ``Allow`` lists every method of the path: Starlette lists only those of
    the first route matching the path (``/api/tables`` is two routes, GET and POST)."""
    allowed = [
        method for method in METHODS
        if any(route.matches({**request.scope, "method": method})[0] == Match.FULL
               for route in request.app.routes)
    ]
    return JSONResponse({"detail": "Method Not Allowed"}, 405,
                        headers={"Allow": ", ".join(allowed)})
