"""Storage of table chat: every message said (so a reconnecting player, or the table
after a restart, sees the same history) and the reports players file about them (for the
operator). The rows (``models.ChatRow``, ``models.ReportRow``) live beside the game's in
the same database and migrations."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ..store.database import Store
from ..store.models import ChatRow, ReportRow, utcnow


@dataclass
class Said:
    """A chat message as the rooms hold it (and as frames carry it)."""

    id: int
    channel: str
    author: str
    name: str | None
    text: str | None
    phrase: str | None
    at: str

    def frame(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "author": self.author, "name": self.name,
                               "at": self.at}
        if self.phrase is not None:
            out["phrase"] = self.phrase
        else:
            out["text"] = self.text
        return out


def iso(moment: datetime) -> str:
    return moment.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


def said(row: ChatRow) -> Said:
    return Said(row.id, row.channel, row.author, row.name, row.text, row.phrase,
                iso(row.created_at))


class ChatStore:
    """Chat's database access, on the server store's engine."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    async def add(self, table_id: str, channel: str, author: str, name: str | None,
                  text: str | None, phrase: str | None) -> Said:
        """Store a message (committed) and return it with its id."""
        row = ChatRow(table_id=table_id, channel=channel, author=author, name=name,
                      text=text, phrase=phrase, created_at=utcnow())
        async with self.session.begin() as s:
            s.add(row)
            await s.flush()
        return said(row)

    async def recent(self, table_id: str, channel: str, limit: int) -> list[Said]:
        """The last ``limit`` messages of a channel, oldest first."""
        async with self.session() as s:
            rows = (await s.scalars(
                select(ChatRow).where(ChatRow.table_id == table_id, ChatRow.channel == channel)
                .order_by(ChatRow.id.desc()).limit(limit)
            )).all()
        return [said(r) for r in reversed(rows)]

    async def report(self, message: Said, table_id: str, reporter: str, name: str | None,
                     reason: str | None, context: list[dict[str, Any]]) -> bool:
        """Store a report; False when this reporter already reported this message."""
        try:
            async with self.session.begin() as s:
                s.add(ReportRow(message_id=message.id, table_id=table_id, reporter=reporter,
                                reporter_name=name, reason=reason, context=context,
                                created_at=utcnow()))
        except IntegrityError:
            return False
        return True

    async def reports(self, limit: int, offset: int,
                      closed: bool = True) -> tuple[list[dict[str, Any]], int]:
        """Reports newest first, each with its message and when the operator closed it
        (``players.moderation``), and how many there are; without ``closed``, the open
        ones only."""
        only = () if closed else (ReportRow.handled_at.is_(None),)
        async with self.session() as s:
            total = await s.scalar(select(func.count()).select_from(ReportRow)
                                   .where(*only)) or 0
            rows = (await s.execute(
                select(ReportRow, ChatRow).join(ChatRow, ChatRow.id == ReportRow.message_id)
                .where(*only).order_by(ReportRow.id.desc()).limit(limit).offset(offset)
            )).all()
        out = []
        for rep, msg in rows:
            out.append({
                "id": rep.id, "table_id": rep.table_id, "at": iso(rep.created_at),
                "reporter": rep.reporter, "reporter_name": rep.reporter_name,
                "reason": rep.reason, "message": said(msg).frame() | {"channel": msg.channel},
                "context": rep.context,
                "closed_at": iso(rep.handled_at) if rep.handled_at is not None else None,
            })
        return out, int(total)
