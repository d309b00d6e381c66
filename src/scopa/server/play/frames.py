"""What each socket is told: every JSON frame the server sends about a table, built here
in one place. Views are built by listing what a seat may see (the engine's ``PlayerView``),
and for spectators by listing the public fields only; every frame about a position carries
its state id (``Table.state_id``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ...hand import Hand
from ...shuffle import commitment
from ...view import PlayerView
from . import fairplay
from .answers import TableInfo
from .flow import may_rematch, waiting_for
from .table import Table


def seat_view(hand: Hand, seat: int | None) -> dict[str, Any]:
    """What one seat (or, for None, a spectator) may see of the hand, as JSON."""
    view = PlayerView.public(hand) if seat is None else PlayerView.of(hand, seat)
    return view.to_dict()


def legal_moves(hand: Hand, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or hand.hand_over or hand.to_move != seat:
        return []
    return [m.to_dict() for m in PlayerView.of(hand, seat).legal_moves()]


def totals(table: Table) -> list[int]:
    """The match points now: counting a finished hand as soon as it ends (the view's
    ``scores`` are those banked before the hand)."""
    if table.final_scores is not None:
        return list(table.final_scores)
    game = table.game
    if game is None:
        return [0] * table.rules.teams
    return game.match_totals() if game.hand.hand_over else list(game.scores)


def table_info(table: Table, with_invite: bool = False) -> TableInfo:
    """The table as the lobby and every frame show it (the invite only when asked for or
    public)."""
    r = table.rules
    scores = totals(table)
    info: TableInfo = {
        "id": table.id, "variant": r.variant, "rules": r.to_dict(),
        "players": r.players,
        "teams": r.teams, "target": r.target, "public": table.public,
        "rated": table.rated,
        "teach": fairplay.teach_refusal(table.teach, table.rated) is None,
        "rematch": may_rematch(table),
        "status": table.status,
        "invite": table.invite if (with_invite or table.public) else None,
        "seats": [
            {
                "seat": s.seat, "side": r.side_of(s.seat), "name": s.name,
                "kind": s.kind,
                "level": s.level if s.kind != "human" else None, "taken": s.taken,
                "connected": s.present or s.kind != "human", "standin": s.standin,
                "resigned": s.resigned, "bot_account": s.bot_account,
            }
            for s in table.seats
        ],
        "match_id": table.match_id, "match_number": table.match_number, "scores": scores,
        "spectators": len(table.spectators),
        "created_at": table.created_at.isoformat().replace("+00:00", "") + "Z",
    }
    if table.event_id is not None:  # (every state frame carries this: only when set)
        # an event's table: its page; a duplicate round's: replays open after the round
        info["event_id"] = table.event_id
        info["shared_deals"] = table.shared_deals
    return info


def welcome(table: Table, seat: int | None, now: float) -> str:
    return json.dumps({"type": "welcome", "seat": seat, "table": table_info(table),
                       "server_time": now})


def state(table: Table, seat: int | None, event: dict[str, Any] | None,
          info: TableInfo | None = None) -> dict[str, Any]:
    """The ``state`` frame for ``seat`` (None: a spectator), after ``event``."""
    game = table.game
    base: dict[str, Any] = {
        "type": "state", "state_id": table.state_id,
        "table": info if info is not None else table_info(table),
        "match_id": table.match_id, "match_number": table.match_number,
        "event": event, "match_over": table.match_over, "winner": table.winner,
        "next_hand_at": table.next_hand_at,
    }
    if game is None:
        base.update(view=None, legal_moves=[], your_turn=False, commitment=None)
        return base
    legal = [] if seat is not None and table.seats[seat].resigned else legal_moves(game.hand, seat)
    base.update(
        view=seat_view(game.hand, seat), legal_moves=legal, your_turn=bool(legal),
        commitment={"hand_number": game.hand_number,
                    "commitment": commitment(game.hand_seed)} if game.hand_seed else None,
    )
    return base


def states(table: Table, event: dict[str, Any] | None) -> Iterator[tuple[set[Any], str]]:
    """The ``state`` frame for every socket after ``event``: (sockets, text) for each seat
    with sockets, then for the spectators. A pass is told only to the seat that passed (it
    would tell the others that its hand could have declared), as the views leave it out."""
    info = table_info(table)
    private = event is not None and event.get("declare") is False
    for s in table.seats:
        if s.conns:
            seen = None if private and event and event["seat"] != s.seat else event
            yield s.conns, json.dumps(state(table, s.seat, seen, info))
    if table.spectators:
        yield table.spectators, json.dumps(state(table, None, None if private else event, info))


def hand_end(table: Table) -> str:
    """The score sheet: the hand's result, the seed behind its commitment (not at a table
    whose deals other tables of a duplicate round are still playing: the event shows it
    once the round is over), and who is still reading it."""
    game = table.game
    assert game is not None and game.hand_seed is not None
    c = commitment(game.hand_seed)
    seed = None if table.shared_deals else game.hand_seed
    return json.dumps({
        "type": "hand_end", "state_id": table.state_id, "hand_number": game.hand_number,
        "result": game.hand.hand_result(), "scores": game.match_totals(), "seed": seed,
        "redeals": game.hand_attempt, "commitment": c,
        "verify_url": None if seed is None else
        f"/api/verify?seed={seed}&commitment={c}&attempt={game.hand_attempt}",
        "next_hand_at": table.next_hand_at,
        "waiting_for": [] if table.match_over else waiting_for(table),
    })


def match_end(table: Table) -> str:
    return json.dumps({
        "type": "match_end", "state_id": table.state_id, "match_id": table.match_id,
        "winner": table.winner, "scores": table.final_scores,
        "record_url": f"/api/matches/{table.match_id}/record",
    })


def resigned(table: Table, seat: int, ends: bool) -> str:
    """Told to everyone at the table when a player resigns: who, and whether that ended
    the match (``match_end`` follows) or a stand-in plays the seat from now on."""
    return json.dumps({"type": "resigned", "state_id": table.state_id, "seat": seat,
                       "name": table.seats[seat].name, "ends": ends})


def waiting(table: Table) -> str:
    """Who has pressed Continue on the score sheet, and who is still reading it."""
    return json.dumps({
        "type": "waiting", "state_id": table.state_id, "ready": sorted(table.next_votes),
        "waiting_for": waiting_for(table), "next_hand_at": table.next_hand_at,
    })


def rematch(votes: list[int], needed: list[int]) -> str:
    return json.dumps({"type": "rematch", "votes": votes, "needed": needed})


def declined(message: str) -> str:
    """Told to every socket of a table whose challenged bot declined (then closed)."""
    return json.dumps({"type": "error", "code": "challenge_declined", "ref": None,
                       "message": message})


#: told to every socket of a table that waited too long for players (then closed)
EXPIRED = json.dumps({"type": "error", "code": "table_expired", "ref": None,
                      "message": "this table waited too long for players and is "
                                 "closed: make a new one"})
