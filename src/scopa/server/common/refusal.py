"""One way to refuse a request: ``Refusal(code, message)``, raised where the rule lives (the
play flow, the tournaments' service) having changed nothing.

The code is the protocol's word for the reason (docs/server-protocol.md lists them); a
WebSocket answers it as is, and an HTTP route lets it through: the app's handler answers
the status the code stands for (``STATUS``) with the message as ``detail``. So no route
maps codes to statuses on its own, and a service never speaks HTTP."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

#: the HTTP status of each code that may reach a route; any other code is a state that
#: does not allow the request (409)
STATUS = {
    "bad_message": 400,
    "account_needed": 401,
    "forbidden": 403,
    "not_found": 404,
    "too_many": 429,
    "rate_limited": 429,
    "unavailable": 501,
    "busy": 503,
}


class Refusal(Exception):
    """A refused request: ``code`` (the protocol's word), ``message`` (in words a person
    can act on) and, for a table, the state the refusal was judged on."""

    def __init__(self, code: str, message: str, state_id: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.state_id = state_id

    @property
    def status(self) -> int:
        """The HTTP answer of this refusal."""
        return STATUS.get(self.code, 409)


async def refused(request: Request, exc: Exception) -> JSONResponse:
    """The app's handler of ``Refusal``: its status, its message as ``detail``."""
    assert isinstance(exc, Refusal)
    headers = {"Retry-After": "2"} if exc.code == "busy" else None
    return JSONResponse(status_code=exc.status, content={"detail": exc.message},
                        headers=headers)


async def bad_request(request: Request, exc: Exception) -> JSONResponse:
    """400 for a rule of a model (the tournament model's ``TournamentError``) the request
    breaks: its message says which."""
    return JSONResponse(status_code=400, content={"detail": str(exc)})
