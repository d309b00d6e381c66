"""The frames a table's sockets get (``scopa.server.play.frames``), built without a server: each
seat's ``state`` shows its own hand only, spectators none, every frame carries the state
id, and a pass is told only to the seat that passed."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from scopa.match import Match
from scopa.rules import Rules
from scopa.server.play import flow, frames
from scopa.server.play.table import SeatState, Table


def table_with_sockets() -> tuple[Table, dict[int | None, set[Any]]]:
    seats = [SeatState(i, "human", None, f"p{i}", f"h{i}") for i in range(2)]
    t = Table(id="t", invite="secret", public=False, rules=Rules(), grace=30.0,
              created_at=datetime(2026, 1, 1, tzinfo=UTC), seats=seats)
    socks: dict[int | None, set[Any]] = {0: {"a"}, 1: {"b", "c"}, None: {"d"}}
    for i, s in enumerate(seats):
        s.conns = socks[i]
    t.spectators = socks[None]
    flow.start_match(t, "m1", 1, Match(t.rules, hand_seed="frames"))
    return t, socks


def sent(t: Table, event: dict[str, Any] | None) -> dict[int | None, dict[str, Any]]:
    out: dict[int | None, dict[str, Any]] = {}
    for conns, text in frames.states(t, event):
        frame = json.loads(text)
        out[frame["view"]["seat"]] = frame
        assert conns is (t.spectators if frame["view"]["seat"] is None
                         else t.seats[frame["view"]["seat"]].conns)
    return out


def test_each_seat_sees_its_own_hand_and_spectators_none() -> None:
    t, _ = table_with_sockets()
    game = t.game
    assert game is not None
    got = sent(t, {"kind": "deal"})
    assert set(got) == {0, 1, None}
    for seat in (0, 1):
        assert got[seat]["view"]["hand"] == frames.seat_view(game.hand, seat)["hand"] != []
        assert got[seat]["your_turn"] == (game.hand.to_move == seat)
        assert bool(got[seat]["legal_moves"]) == (game.hand.to_move == seat)
    assert got[None]["view"]["hand"] == [] and got[None]["legal_moves"] == []
    assert {f["state_id"] for f in got.values()} == {t.state_id}
    assert all(f["event"] == {"kind": "deal"} for f in got.values())
    assert got[None]["table"]["invite"] is None  # a private table's invite stays private
    assert frames.table_info(t, with_invite=True)["invite"] == "secret"


def test_a_pass_is_told_only_to_the_seat_that_passed() -> None:
    t, _ = table_with_sockets()
    event = {"kind": "move", "seat": 1, "declare": False}
    got = sent(t, event)
    assert got[1]["event"] == event
    assert got[0]["event"] is None and got[None]["event"] is None


def test_no_frames_for_seats_nobody_is_at() -> None:
    t, _ = table_with_sockets()
    t.seats[0].conns = set()
    t.spectators = set()
    assert set(sent(t, None)) == {1}


def test_the_score_sheet_waits_for_the_people_still_reading_it() -> None:
    t, _ = table_with_sockets()
    game = t.game
    assert game is not None
    while not game.hand.hand_over:
        flow.play_move(t, game.hand.legal_moves()[0], "human", 10.0, 60.0, 0.0)
    end = json.loads(frames.hand_end(t))
    assert end["state_id"] == t.state_id and end["waiting_for"] == [0, 1]
    assert end["next_hand_at"] == 70.0 and end["scores"] == frames.totals(t)
    flow.next_vote(t, 1)
    waiting = json.loads(frames.waiting(t))
    assert waiting["ready"] == [1] and waiting["waiting_for"] == [0]
