"""Resigning, decided by the flow alone (``flow.check_resign``, ``flow.resign``): who may
resign, when it ends the match and when the seat only leaves to a stand-in, what a rated
match counts, and that a rebuilt table (a restart, another worker) sees the same."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_flow import seat, started, table

from scopa.rules import Rules
from scopa.server.common.refusal import Refusal
from scopa.server.play import flow
from scopa.server.store.database import StoredTable
from scopa.server.store.models import EventRow, MatchRow, SeatRow, TableRow


def resign(t, s: int) -> dict:  # type: ignore[no-untyped-def]
    return flow.resign(t, s, flow.check_resign(t, s), monotonic=7.0)


def test_alone_on_a_side_resigning_ends_the_match_for_the_other_side() -> None:
    t = started(table(seat(0), seat(1, "bot")))
    before = t.state_id
    event = resign(t, 0)
    assert event == {"kind": "resign", "seat": 0, "ends": True}
    assert t.match_over and t.winner == 1 and t.status == "finished"
    assert t.final_scores == [0, 0] and t.state_id == before + 1
    assert t.abandoned == set()  # the loss is the result itself


def test_a_partner_still_playing_keeps_the_match_going() -> None:
    t = started(table(seat(0), seat(1, "bot"), seat(2), seat(3, "bot"),
                      rules=Rules.preset("scopone")))
    assert resign(t, 0)["ends"] is False
    assert not t.match_over and t.seats[0].resigned and t.seats[0].bot_played
    assert flow.waiting_for(t) in ([], [2])  # the resigned seat is never waited for
    assert 0 not in flow.waiting_for(t)
    # the partner resigns too: the whole side has, the other side wins
    assert resign(t, 2)["ends"] is True
    assert t.winner == 1


def test_a_seat_that_leaves_a_rated_match_counts_as_abandoned() -> None:
    t = started(table(seat(0, user_id=1), seat(1, "bot"), seat(2, user_id=2),
                      seat(3, "bot"), rules=Rules.preset("scopone"), rated=True))
    resign(t, 2)
    assert t.abandoned == {2}


def test_more_than_two_sides_the_seat_leaves_and_play_goes_on() -> None:
    t = started(table(seat(0), seat(1), seat(2, "bot"), rules=Rules.preset("scopa", players=3)))
    assert resign(t, 0)["ends"] is False and resign(t, 1)["ends"] is False
    assert not t.match_over and flow.bot_to_move(t) is not None


@pytest.mark.parametrize("case", ["twice", "after_end", "not_started", "bot"])
def test_bad_resignations_change_nothing(case: str) -> None:
    t = table(seat(0), seat(1, "bot"), seat(2), seat(3, "bot"),
              rules=Rules.preset("scopone"))
    if case != "not_started":
        started(t)
    if case == "twice":
        resign(t, 0)
    if case == "after_end":
        resign(t, 0)
        resign(t, 2)
    before = (t.state_id, t.winner, [s.resigned for s in t.seats], set(t.abandoned))
    code = {"twice": "resigned", "after_end": "match_over", "not_started": "not_started",
            "bot": "not_your_turn"}[case]
    with pytest.raises(Refusal) as e:
        flow.check_resign(t, 1 if case == "bot" else 0)
    assert e.value.code == code
    assert before == (t.state_id, t.winner, [s.resigned for s in t.seats], set(t.abandoned))


def test_a_resigned_seat_may_not_move_and_its_stand_in_may() -> None:
    t = started(table(seat(0), seat(1, "bot"), seat(2), seat(3, "bot"),
                      rules=Rules.preset("scopone")))
    resign(t, 0)
    assert t.game is not None
    while t.game.hand.to_move != 0:
        flow.play_move(t, t.game.hand.legal_moves()[0], "bot", 0.0, 1.0, 1.0)
    move = t.game.hand.legal_moves()[0].to_dict()
    with pytest.raises(Refusal) as e:
        flow.check_move(t, 0, t.state_id, move)
    assert e.value.code == "resigned"
    assert flow.check_move(t, 0, t.state_id, move, by="standin") is not None
    assert flow.seat_back(t.seats[0]) is False and t.seats[0].bot_played  # back: still out


def stored(events: list[EventRow], finished: bool, rated: bool) -> StoredTable:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    t = TableRow(id="t", invite="i", public=True, rules=Rules.preset("scopone").to_dict(),
                 grace_seconds=30.0, created_at=now, status="playing", rated=rated, teach=True)
    seats = [SeatRow(table_id="t", seat=i, kind="human" if i % 2 == 0 else "bot",
                     level=None if i % 2 == 0 else "random", name=f"p{i}",
                     token_hash=f"h{i}" if i % 2 == 0 else None,
                     user_id=i + 1 if i % 2 == 0 else None) for i in range(4)]
    m = MatchRow(id="m1", table_id="t", number=1, rules=t.rules, players=[], hands=1,
                 finished_at=now if finished else None, winner=1 if finished else None,
                 scores=[0, 0] if finished else None)
    return StoredTable(t, seats, m, events)


def test_the_log_rebuilds_a_resignation() -> None:
    events = [EventRow(match_id="m1", seq=0, kind="hand", data={"number": 1, "seed": "s"}),
              EventRow(match_id="m1", seq=1, kind="resign", data={"seat": 2, "ends": False})]
    t = flow.rebuild(stored(events, finished=False, rated=True))
    assert t.seats[2].resigned and not t.seats[0].resigned and t.abandoned == {2}
    assert t.seq == 2 and t.status == "playing"
    events.append(EventRow(match_id="m1", seq=2, kind="resign", data={"seat": 0, "ends": True}))
    t = flow.rebuild(stored(events, finished=True, rated=True))
    assert t.match_over and t.winner == 1 and t.seq == 3


def test_a_new_match_forgets_who_resigned() -> None:
    t = started(table(seat(0), seat(1, "bot")))
    resign(t, 0)
    started(t, "again")
    assert not t.seats[0].resigned and not t.match_over
