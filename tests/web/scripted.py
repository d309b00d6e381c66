"""A table page on a scripted WebSocket (Playwright's routeWebSocket): the deal is known,
the page is the real one served by the real server, and what it sends back is recorded."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from scopa import Move, Rules
from scopa.bots.analysis import judge, payload
from scopa.cards import mask_of, parse_cards
from scopa.view import PlayerView

TABLE = "mockTable1"
SEATS = [
    {"seat": 0, "side": 0, "name": "Anna", "kind": "human", "level": None, "taken": True,
     "connected": True, "standin": False},
    {"seat": 1, "side": 1, "name": "Bot (expert)", "kind": "bot", "level": "expert",
     "taken": True, "connected": True, "standin": False},
]  # fmt: skip
TABLE_INFO = {
    "id": TABLE, "variant": "napola", "rules": {"variant": "napola", "players": 2, "target": 11},
    "players": 2, "teams": 2, "target": 11, "public": False, "status": "playing",
    "seats": SEATS, "match_id": "mockMatch", "match_number": 1, "scores": [3, 5],
}  # fmt: skip


def view(**changes: Any) -> dict[str, Any]:
    v = {
        "rules": {"variant": "napola", "players": 2, "target": 11},
        "seat": 0, "dealer": 1, "to_move": 0, "hand": ["7d", "3c", "10b"],
        "hand_sizes": [3, 3], "table": ["3s", "4d", "2c", "5b"], "stock_size": 24,
        "captured": [["1d", "2d"], ["6c"]], "scope": [0, 2], "last_capturer": 1,
        "scores": [3, 5], "hand_over": False, "hand_number": 2, "history": [],
    }  # fmt: skip
    v.update(changes)
    return v


#: the expected margins the scripted analysis gives LEGAL's moves
VALUES = [0.5, 0.4, -0.2, 0.84]
LEGAL = [
    {"card": "7d", "capture": ["3s", "4d"]},
    {"card": "7d", "capture": ["2c", "5b"]},
    {"card": "3c", "capture": ["3s"]},
    {"card": "10b", "capture": ["3s", "2c", "5b"]},
]


def analysis() -> dict[str, Any]:
    """The teach-me answer for the scripted position, made by the server's own code
    (bots.analysis.judge and payload) with fixed values, so the page's words can be compared
    with Python's rendering of the same messages."""
    v = view()
    rules = Rules.preset(v["rules"]["variant"], players=2)
    pv = PlayerView(
        rules=rules, seat=0, dealer=v["dealer"], to_move=0, hand=mask(v["hand"]),
        hand_sizes=tuple(v["hand_sizes"]), table=mask(v["table"]), stock_size=v["stock_size"],
        captured=tuple(mask(p) for p in v["captured"]), scope=tuple(v["scope"]),
        last_capturer=v["last_capturer"], scores=tuple(v["scores"]), hand_over=False,
        round=1, history=(), hand_number=v["hand_number"],
    )  # fmt: skip
    ranked = [(Move.from_dict(m), value) for m, value in zip(LEGAL, VALUES, strict=True)]
    ranked.sort(key=lambda p: -p[1])
    return {"type": "analysis", "state_id": 5, **payload(pv, judge(pv, ranked))}


def mask(cards: list[str]) -> int:
    return mask_of(parse_cards(cards))


def state(state_id: int, v: dict[str, Any], legal: list, event: Any = None) -> str:
    return json.dumps({
        "type": "state", "state_id": state_id, "table": TABLE_INFO, "match_id": "mockMatch",
        "match_number": 1, "view": v, "legal_moves": legal, "your_turn": bool(legal),
        "event": event, "commitment": {"hand_number": 2, "commitment": "ab" * 32},
        "match_over": False, "winner": None, "next_hand_at": None,
    })  # fmt: skip


@pytest.fixture
def scripted(server, page, request):  # type: ignore[no-untyped-def]
    """The table page on a scripted socket; returns (page, frames the page sent, socket).
    Marked `busy_teach` (optionally with an error code), the first teach request is refused
    as rate_limited (or with that code)."""
    marker = request.node.get_closest_marker("busy_teach")
    busy_first = marker is not None
    busy_code = marker.args[0] if marker is not None and marker.args else "rate_limited"
    sent: list[dict[str, Any]] = []
    sockets: list[Any] = []

    def handler(ws: Any) -> None:
        sockets.append(ws)

        def on_message(message: Any) -> None:
            frame = json.loads(message)
            sent.append(frame)
            if frame["type"] == "hello":
                ws.send(json.dumps({"type": "welcome", "seat": 0, "table": TABLE_INFO}))
                ws.send(state(5, view(), LEGAL))
            if frame["type"] == "teach":
                teaches = [f for f in sent if f["type"] == "teach"]
                if busy_first and len(teaches) == 1:
                    ws.send(
                        json.dumps(
                            {
                                "type": "error",
                                "code": busy_code,
                                "ref": "teach",
                                "message": "one analysis at a time",
                                "state_id": 5,
                            }
                        )
                    )
                else:
                    ws.send(json.dumps(analysis()))

        ws.on_message(on_message)

    page.route_web_socket("**/ws/**", handler)
    page.goto(server + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"scopa.seat.{TABLE}", json.dumps({"token": "secret-token", "seat": 0})],
    )
    page.goto(f"{server}/t/{TABLE}")
    expect(page.locator(".turn.mine")).to_be_visible()
    return page, sent, sockets
