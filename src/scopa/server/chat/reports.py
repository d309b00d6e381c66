"""The operator's list of chat reports (behind the operator secret)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from typing_extensions import TypedDict

from ..common.answers import strict
from ..common.errors import errors
from ..common.security import require_operator
from .chatstore import ChatStore


@strict
class ChatReports(TypedDict):
    #: each report with its message and the messages shown before it (``chatstore``)
    reports: list[dict[str, Any]]
    total: int
    limit: int
    offset: int


router = APIRouter(prefix="/api/operator", tags=["operator"])


@router.get("/reports", responses=errors(401, 403))
async def chat_reports(
    request: Request,
    limit: int = Query(default=50, ge=1, le=200),
    offset: int = Query(default=0, ge=0, le=1_000_000),
) -> ChatReports:
    """Reported chat messages, newest first, each with the messages shown before it and
    when the operator closed it (``closed_at``, null while open: ``scopa admin
    close-report --chat``). Needs ``Authorization: Bearer <operator secret>``."""
    require_operator(request, request.app.state.settings)
    reports, total = await ChatStore(request.app.state.store).reports(limit, offset)
    return {"reports": reports, "total": total, "limit": limit, "offset": offset}
