"""Request ids and the log format: every HTTP request and WebSocket gets an id (the
client's ``X-Request-ID`` if it is sane, else a new one), returned in the response's
``X-Request-ID`` and put on every log record written while it is handled, so one
request's lines can be found among many workers'; and ``log_format=json`` writes one
JSON object a line for a log collector. Standard library logging only."""

from __future__ import annotations

import contextvars
import copy
import json
import logging
import re
import time
import uuid
from typing import Any

from starlette.datastructures import MutableHeaders

from ..common.security import ASGIApp, Message, Scope

HEADER = "X-Request-ID"
#: a client's id is kept only if it is short and plain (it goes into logs and headers)
SANE = re.compile(r"[A-Za-z0-9._:-]{1,64}")
#: the id of the request being handled ("-" outside any request)
REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")


def request_id(given: str | None) -> str:
    """The client's id if sane, else a new random one."""
    if given is not None and SANE.fullmatch(given):
        return given
    return uuid.uuid4().hex


class RequestIds:
    """ASGI middleware: sets ``REQUEST_ID`` for the request (or the WebSocket's whole
    life) and answers HTTP requests with the ``X-Request-ID`` header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"x-request-id")
        rid = request_id(given.decode("latin-1") if given is not None else None)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[HEADER] = rid
            await send(message)

        token = REQUEST_ID.set(rid)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            REQUEST_ID.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request id on every record (``record.request_id``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request id,
    and the traceback when there is one."""

    converter = time.gmtime  # type: ignore[assignment]

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", REQUEST_ID.get()),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def log_config(level: str, fmt: str) -> dict[str, Any]:
    """uvicorn's logging configuration with request ids on every record, the server's
    own loggers (``scopa.*``) sent to the same handler, and JSON lines if asked."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"request_id": {"()": RequestIdFilter}}
    for handler in config["handlers"].values():
        handler["filters"] = ["request_id"]
    if fmt == "json":
        for name in config["formatters"]:
            config["formatters"][name] = {"()": JsonFormatter}
    config["loggers"]["scopa"] = {"handlers": ["default"], "level": level.upper(),
                                  "propagate": False}
    return config
