"""Error bodies that can always be written: a refused request echoes parts of what it got
(bytes that are not UTF-8, NaN, infinities), and the answer must still be plain JSON."""

from __future__ import annotations

import logging
import math
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

log = logging.getLogger("scopa.server")

#: longest piece of the client's input echoed back in an error
ECHO_MAX = 200


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
