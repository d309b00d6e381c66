"""Offers of seats kept for online bots (``SeatState.bot_account``): what an offer says,
and the broker channels it goes out on. A challenge goes to the challenged bot's own
channel; a seat for any online bot to every bot's. The bots' side (``server.bots``)
listens, and a bot that accepts joins the seat like a person (``Seating.join(bot=True)``)."""

from __future__ import annotations

from typing import Any

from .table import Table

#: every online bot listens here (seats any bot may take)
ANY_BOT = "bots:any"


def bot_channel(user_id: int) -> str:
    """The channel of one bot account (challenges to it)."""
    return f"bot:{user_id}"


def open_seats(table: Table) -> list[int]:
    """The seats of a waiting table kept for online bots and not yet taken."""
    if table.status != "waiting":
        return []
    return [s.seat for s in table.seats if s.bot_account and s.token_hash is None]


def offer(table: Table, seat: int) -> dict[str, Any]:
    """The offer of ``seat`` (a broker event): the table, who made it, the rules."""
    s = table.seats[seat]
    maker = next((o.name for o in table.seats if o.token_hash is not None and o.kind == "human"),
                 None)
    return {"kind": "offer", "table": table.id, "invite": table.invite, "seat": seat,
            "from": maker, "rules": table.rules.to_dict(), "rated": table.rated,
            "for": s.user_id}


def channel_of(table: Table, seat: int) -> str:
    s = table.seats[seat]
    return bot_channel(s.user_id) if s.user_id is not None else ANY_BOT
