"""The event model: bad input is refused with a clear message and changes nothing;
corrections and withdrawals are logged; the JSON form reads back; seeds are committed
before a round and revealed after."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scopa.shuffle import commitment
from scopa.tournament import Event, Result, TournamentError, standings


def _event(**kw: Any) -> Event:
    kw.setdefault("deals_per_round", 2)
    kw.setdefault("seed", "x")
    return Event(["A", "B", "C", "D"], **kw)


def _refused(event: Event, call: Any, words: str) -> None:
    """``call`` raises a TournamentError saying ``words`` and leaves the event as it was."""
    before = json.dumps(event.to_dict())
    with pytest.raises(TournamentError, match=words):
        call()
    assert json.dumps(event.to_dict()) == before


@pytest.mark.parametrize("kw, words", [
    ({"format": "ladder"}, "unknown format 'ladder'"),
    ({"target": 11}, "deals per round or a target, not both"),
    ({"deals_per_round": None, "target": 11, "duplicate": True}, "fixed number of deals"),
    ({"deals_per_round": 0}, "at least 1"),
    ({"players": 3}, "two sides"),
    ({"format": "knockout", "rounds": 5}, "has 2 rounds"),
    ({"format": "round-robin", "rounds": 9}, "has 3 rounds"),
    ({"variant": "tressette"}, "tressette"),
    ({"options": {"napola": "maybe"}}, "napola"),
])
def test_bad_settings_are_refused(kw: dict[str, Any], words: str) -> None:
    with pytest.raises(TournamentError, match=words):
        _event(**kw)


def test_entrants_must_be_two_and_distinct() -> None:
    with pytest.raises(TournamentError, match="at least two"):
        Event(["A"])
    with pytest.raises(TournamentError, match="'A' is entered twice"):
        Event(["A", "B", "A"])


def test_bad_results_change_nothing() -> None:
    event = _event()
    event.next_round()
    good = Result(deals=((1, 0), (0, 1)))
    _refused(event, lambda: event.enter_result(2, 1, good), "no round 2")
    _refused(event, lambda: event.enter_result(1, 3, good), "no table 3")
    _refused(event, lambda: event.enter_result(1, 1, Result(deals=((1, 0),))), "2 deals")
    _refused(event, lambda: event.enter_result(1, 1, Result(score=(11, 3))), "each deal")
    _refused(event, lambda: event.enter_result(1, 1, Result(forfeit="Zed")), "'Zed'")
    _refused(event, lambda: event.enter_result(1, 1, Result(deals=((1, 0), (0, 1)),
                                                             decider=((1, 0),))), "decider")
    _refused(event, lambda: event.next_round(), "round 1 is not over: table 1, 2")
    event.enter_result(1, 1, good)
    _refused(event, lambda: event.enter_result(1, 1, good), "already has a result")
    _refused(event, lambda: event.withdraw("Zed"), "no entrant named 'Zed'")
    _refused(event, lambda: event.correct_result(1, 2, good), "no result to correct")


@pytest.mark.parametrize("raw, words", [
    ({"deals": [[1, -1], [0, 0]]}, "negative"),
    ({"deals": [[1, 2, 3]]}, "pair of whole numbers"),
    ({"deals": [["1", 0]]}, "pair of whole numbers"),
    ({"points": [1, 0]}, "no field 'points'"),
    ([1, 0], "is an object"),
])
def test_result_json_is_checked(raw: Any, words: str) -> None:
    with pytest.raises(TournamentError, match=words):
        Result.from_dict(raw)


def test_a_bye_takes_no_result() -> None:
    event = Event(["A", "B", "C"], deals_per_round=1, seed="x")
    rnd = event.next_round()
    bye = next(t for t in rnd.tables if t.away is None)
    _refused(event, lambda: event.enter_result(1, bye.number, Result(deals=((1, 0),))),
             "bye")


def test_a_correction_is_logged_and_counts() -> None:
    event = _event()
    event.next_round()
    event.enter_result(1, 1, Result(deals=((1, 0), (0, 0))))
    event.correct_result(1, 1, Result(deals=((0, 1), (0, 0))), "scores swapped on the sheet")
    (entry,) = event.audit
    assert (entry.action, entry.round, entry.table, entry.note) == (
        "correct", 1, 1, "scores swapped on the sheet")
    assert entry.before == {"deals": [[1, 0], [0, 0]]}
    assert entry.after == {"deals": [[0, 1], [0, 0]]}
    assert {s.entrant: s.match_points for s in standings(event)}["B"] == 2


def test_a_knockout_winner_already_paired_cannot_change() -> None:
    event = _event(format="knockout")
    event.next_round()
    event.enter_result(1, 1, Result(deals=((1, 0), (0, 0))))
    event.enter_result(1, 2, Result(deals=((1, 0), (0, 0))))
    event.next_round()
    _refused(event, lambda: event.correct_result(1, 1, Result(deals=((0, 1), (0, 0)))),
             "already paired")
    event.correct_result(1, 1, Result(deals=((3, 0), (0, 0))))  # the same winner: fine


def test_a_withdrawal_forfeits_the_table_and_leaves_the_pairings() -> None:
    event = _event(rounds=3)
    event.next_round()
    event.enter_result(1, 1, Result(deals=((1, 0), (0, 0))))
    event.withdraw("C", "went home")
    assert event.round(1).tables[1].result == Result(forfeit="C")
    lines = {s.entrant: s for s in standings(event)}
    assert lines["D"].match_points == 2 and lines["C"].withdrawn
    rnd = event.next_round()  # three left: one bye, C nowhere
    assert "C" not in {n for t in rnd.tables for n in (t.home, t.away)}
    assert len(rnd.byes) == 1
    assert [a.action for a in event.audit] == ["withdraw"]
    _refused(event, lambda: event.withdraw("C"), "already withdrawn")


def test_a_table_both_entrants_left_is_a_double_forfeit_a_loss_for_each() -> None:
    """Withdrawn one after the other before playing, or paired while both withdrawn (a
    round robin's fixed schedule): neither wins, 0 match points each, no game points; the
    duplicate field score leaves the table out."""
    event = _event(rounds=3, duplicate=True)
    event.next_round()  # A-B, C-D
    event.enter_result(1, 1, Result(deals=((1, 0), (0, 2))))
    event.withdraw("C")
    assert event.round(1).tables[1].result == Result(forfeit="C")
    event.withdraw("D")  # D did not play either: C's forfeit is no win for D
    assert event.round(1).tables[1].result == Result(double_forfeit=True)
    lines = {s.entrant: s for s in standings(event)}
    for name in ("C", "D"):
        line = lines[name]
        assert (line.match_points, line.won, line.drawn, line.lost) == (0, 0, 0, 1)
        assert (line.points_for, line.points_against, line.field) == (0, 0, 0.0)
    assert [a.entrant for a in event.audit] == ["C", "D"]
    back = Event.from_dict(json.loads(json.dumps(event.to_dict())))
    assert back.round(1).tables[1].result == Result(double_forfeit=True)
    assert event.round(1).tables[1].result.to_dict() == {"double_forfeit": True}

    rr = _event(format="round-robin")
    rr.next_round()  # A-D, B-C
    rr.enter_result(1, 1, Result(deals=((1, 0), (0, 0))))
    rr.enter_result(1, 2, Result(deals=((1, 0), (0, 0))))
    rr.withdraw("A")
    rr.withdraw("C")
    rnd = rr.next_round()  # C-A, D-B: the schedule stands
    both = next(t for t in rnd.tables if {t.home, t.away} == {"A", "C"})
    assert both.result == Result(double_forfeit=True)
    assert next(s for s in standings(rr) if s.entrant == "A").match_points == 2  # round 1


def test_a_double_forfeit_is_refused_where_it_does_not_fit() -> None:
    event = _event()
    event.next_round()
    for bad, words in ((Result(double_forfeit=True, forfeit="A"), "names nobody"),
                       (Result(double_forfeit=True, deals=((1, 0), (0, 0))), "no points")):
        _refused(event, lambda bad=bad: event.enter_result(1, 1, bad), words)
    with pytest.raises(TournamentError, match="true or false"):
        Result.from_dict({"double_forfeit": "yes"})
    ko = _event(format="knockout")
    ko.next_round()  # A-D, B-C
    _refused(ko, lambda: ko.enter_result(1, 1, Result(double_forfeit=True)), "needs a winner")
    ko.withdraw("A")
    ko.withdraw("D")  # a knockout table needs a winner: A's forfeit stands, D goes on
    assert ko.round(1).tables[0].result == Result(forfeit="A")


def test_seeds_are_committed_before_and_revealed_after() -> None:
    event = _event()
    rnd = event.next_round()
    public = event.to_dict(public=True)
    assert public["seed"] is None and public["played"][0]["seed"] is None
    assert public["played"][0]["commitment"] == commitment(rnd.seed)
    for table in rnd.tables:
        event.enter_result(1, table.number, Result(deals=((1, 0), (0, 0))))
    assert event.to_dict(public=True)["played"][0]["seed"] == rnd.seed
    with pytest.raises(TournamentError, match="public form"):
        Event.from_dict(public)


def test_a_round_seed_can_be_given_and_else_is_fresh() -> None:
    event = Event(["A", "B"], rounds=2, deals_per_round=1)  # no event seed: fresh seeds
    first = event.next_round()
    event.enter_result(1, 1, Result(deals=((1, 0),)))
    second = event.next_round(seed="chosen")
    assert second.seed == "chosen" and len(first.seed) == 32


def test_json_round_trip_and_checked_on_reading() -> None:
    event = _event(format="round-robin", duplicate=True, name="club night",
                   variant="scopone-scientifico")
    event.next_round()
    event.enter_result(1, 1, Result(deals=((3, 1), (0, 2))))
    event.correct_result(1, 1, Result(deals=((3, 1), (0, 3))), "typo")
    event.withdraw("D")
    data = json.loads(json.dumps(event.to_dict()))
    back = Event.from_dict(data)
    assert back.to_dict() == event.to_dict()
    assert [s.to_dict() for s in standings(back)] == [s.to_dict() for s in standings(event)]
    data["played"][0]["tables"][0]["result"] = {"deals": [[1, 0]]}
    with pytest.raises(TournamentError, match="2 deals"):
        Event.from_dict(data)
    data["played"][0]["tables"][0]["home"] = "Zed"
    with pytest.raises(TournamentError, match="'Zed'"):
        Event.from_dict(data)
    data["played"][0]["number"] = 2
    with pytest.raises(TournamentError, match="round 1 is numbered 2"):
        Event.from_dict(data)
    with pytest.raises(TournamentError, match="not an event's JSON form"):
        Event.from_dict({"entrants": ["A", "B"]})


def test_a_target_event_takes_final_scores() -> None:
    event = Event(["A", "B"], rounds=1, target=11, seed="x")
    event.next_round()
    _refused(event, lambda: event.enter_result(1, 1, Result(deals=((1, 0),))), "score")
    event.enter_result(1, 1, Result(score=(11, 7)))
    assert event.finished and standings(event)[0].entrant == "A"
    with pytest.raises(TournamentError, match="the event is over"):
        event.next_round()


def test_a_knockout_winner_who_withdraws_forfeits_the_next_match() -> None:
    event = _event(format="knockout")
    event.next_round()  # A-D, B-C (bracket of 4: 1 v 4, 2 v 3)
    event.enter_result(1, 1, Result(deals=((1, 0), (0, 0))))
    event.enter_result(1, 2, Result(deals=((1, 0), (0, 0))))
    event.withdraw("A")
    final = event.next_round()
    assert [(t.home, t.away, t.result) for t in final.tables] == [
        ("A", "B", Result(forfeit="A"))]
    assert event.finished and standings(event)[0].entrant == "B"


def test_run_event_resumes_a_round_half_entered() -> None:
    from scopa.tournament import run_event

    event = _event(rounds=1)
    event.next_round()
    event.enter_result(1, 1, Result(deals=((1, 0), (0, 0))))
    asked: list[int] = []

    def play_round(jobs: Any) -> list[Result]:
        asked.extend(j.table for j in jobs)
        return [Result(deals=((0, 0), (0, 0))) for _ in jobs]

    run_event(event, play_round)
    assert asked == [2] and event.finished


def test_a_withdrawal_is_undone_until_the_next_round_is_paired() -> None:
    event = _event(rounds=3)
    event.next_round()  # A-B, C-D
    event.withdraw("C", "went home")
    assert event.reinstatable() == ["C"]
    event.reinstate("C", "came back")
    assert event.withdrawn == [] and event.round(1).tables[1].result is None
    assert [a.action for a in event.audit] == ["withdraw", "reinstate"]
    assert event.audit[0].round == 1 and event.audit[0].table == 2
    _refused(event, lambda: event.reinstate("C"), "has not withdrawn")
    # the other withdrew first: the double forfeit undone is the first one's forfeit again
    event.withdraw("D")
    event.withdraw("C")
    assert event.round(1).tables[1].result == Result(double_forfeit=True)
    event.reinstate("C")
    assert event.round(1).tables[1].result == Result(forfeit="D")
    # corrected since, or a round paired since: it stands
    event.enter_result(1, 1, Result(deals=((1, 0), (0, 0))))
    event.withdraw("C")
    event.correct_result(1, 2, Result(forfeit="D"), "C played after all")
    _refused(event, lambda: event.reinstate("C"), "can no longer be undone")
    event.next_round()
    assert event.reinstatable() == []
    _refused(event, lambda: event.reinstate("D"), "can no longer be undone")
    again = Event.from_dict(event.to_dict())
    assert again.audit == event.audit


def test_an_entrant_sits_a_round_out_for_the_events_points() -> None:
    event = _event(rounds=3, seed="x")
    event.rest_points = 1
    event.next_round()  # A-B, C-D
    for t in event.round(1).tables:
        event.enter_result(1, t.number, Result(deals=((1, 0), (0, 0))))
    event.sit_out("A", 2, "at a wedding")
    _refused(event, lambda: event.sit_out("A", 2), "already sits out")
    _refused(event, lambda: event.sit_out("B", 1), "not a coming round")
    rnd = event.next_round()
    assert rnd.resting == ["A"]
    assert "A" not in {n for t in rnd.tables for n in (t.home, t.away)}
    assert len(rnd.byes) == 1  # three left: one full-point bye besides A's rest
    line = next(s for s in standings(event) if s.entrant == "A")
    assert line.rests == 1 and line.match_points == 2 + 1
    again = Event.from_dict(event.to_dict())
    assert again.round(2).resting == ["A"] and again.rests == {2: ["A"]}
    robin = _event(format="round-robin")
    _refused(robin, lambda: robin.sit_out("A", 1), "only a Swiss event")


def test_a_late_entry_while_round_one_is_played() -> None:
    event = _event(rounds=3, seed="x")
    event.next_round()
    event.add_entrant("E", "came at nine")
    _refused(event, lambda: event.add_entrant("E"), "entered already")
    for t in event.round(1).tables:
        event.enter_result(1, t.number, Result(deals=((1, 0), (0, 0))))
    _refused(event, lambda: event.add_entrant("F"), "late entries close")
    rnd = event.next_round()
    assert "E" in {n for t in rnd.tables for n in (t.home, t.away)}
    line = next(s for s in standings(event) if s.entrant == "E")
    assert line.played == 0 or line.byes == 1  # round 1: nothing; round 2: paired or the bye
    assert [a.action for a in event.audit] == ["late_entry"]
