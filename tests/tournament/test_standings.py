"""Standings worked out by hand for small events (the working is in the comments)."""

from __future__ import annotations

import pytest

from scopa.tournament import Event, Result, TournamentError, standings


def _deals(*pairs: tuple[int, int]) -> Result:
    return Result(deals=tuple(pairs))


def _order(event: Event) -> list[str]:
    return [s.entrant for s in standings(event)]


def test_swiss_points_then_difference_then_buchholz() -> None:
    event = Event(["A", "B", "C", "D"], format="swiss", rounds=3, deals_per_round=2, seed="x")
    r1 = event.next_round()  # all level: seed order, best with next best
    assert [(t.home, t.away) for t in r1.tables] == [("A", "B"), ("C", "D")]
    event.enter_result(1, 1, _deals((3, 1), (2, 2)))  # A 5-3 B: A wins
    event.enter_result(1, 2, _deals((1, 3), (2, 2)))  # C 3-5 D: D wins
    # A and D: 2 MP, +2 each, Buchholz 0 each: the seed puts A first
    assert _order(event) == ["A", "D", "B", "C"]
    r2 = event.next_round()
    assert [(t.home, t.away) for t in r2.tables] == [("A", "D"), ("B", "C")]
    event.enter_result(2, 1, _deals((0, 3), (1, 1)))  # A 1-4 D: D wins
    event.enter_result(2, 2, _deals((2, 2), (1, 1)))  # B 3-3 C: drawn
    # A: 2 MP, for 5+1=6, against 3+4=7, -1; met B, D
    # B: 1 MP, for 3+3=6, against 5+3=8, -2; met A, C
    # C: 1 MP, for 3+3=6, against 5+3=8, -2; met D, B
    # D: 4 MP, for 5+4=9, against 3+1=4, +5; met C, A
    # Buchholz: A = B 1 + D 4 = 5, B = A 2 + C 1 = 3, C = D 4 + B 1 = 5, D = C 1 + A 2 = 3
    # B and C are level on MP and difference: C's Buchholz (5) beats B's (3)
    lines = {s.entrant: s for s in standings(event)}
    assert [(lines[n].match_points, lines[n].difference, lines[n].buchholz) for n in "ABCD"] == [
        (2, -1, 5), (1, -2, 3), (1, -2, 5), (4, 5, 3)]
    assert _order(event) == ["D", "A", "C", "B"]
    # round 3: D has met C and A, so D takes B, and A takes C
    r3 = event.next_round()
    assert [(t.home, t.away) for t in r3.tables] == [("D", "B"), ("A", "C")]


def test_round_robin_breaks_a_tie_head_to_head() -> None:
    event = Event(["A", "B", "C", "D"], format="round-robin", deals_per_round=2, seed="x")
    # the circle method's rounds for A B C D: A-D B-C; C-A D-B; A-B C-D
    results = [
        [((2, 0), (1, 0)), ((0, 2), (0, 1))],  # A 3-0 D, B 0-3 C
        [((0, 1), (0, 2)), ((0, 1), (0, 2))],  # C 0-3 A, D 0-3 B
        [((1, 1), (1, 1)), ((0, 0), (0, 0))],  # A 2-2 B, C 0-0 D
    ]
    for number, tables in enumerate(results, 1):
        rnd = event.next_round()
        for table, deals in zip(rnd.tables, tables, strict=True):
            event.enter_result(number, table.number, _deals(*deals))
    # A: W 3-0, W 3-0, D 2-2: 5 MP, +6
    # B: L 0-3, W 3-0, D 2-2: 3 MP, 5-5, 0
    # C: W 3-0, L 0-3, D 0-0: 3 MP, 3-3, 0
    # D: L, L, D: 1 MP, 0-6
    # B and C are level on MP and difference; C beat B: head-to-head 2 to 0, C ahead
    lines = standings(event)
    assert [s.entrant for s in lines] == ["A", "C", "B", "D"]
    assert [s.head_to_head for s in lines] == [0, 2, 0, 0]
    assert event.finished


def test_knockout_byes_to_the_top_seed_and_a_decider() -> None:
    event = Event(["A", "B", "C"], format="knockout", deals_per_round=1, seed="x")
    r1 = event.next_round()  # a bracket of 4: A (seed 1) has the bye, B meets C
    assert [(t.home, t.away) for t in r1.tables] == [("A", None), ("B", "C")]
    with pytest.raises(TournamentError, match="decider"):
        event.enter_result(1, 2, _deals((1, 1)))
    # the decider: a drawn deal, then B wins one
    event.enter_result(1, 2, Result(deals=((1, 1),), decider=((0, 0), (2, 1))))
    r2 = event.next_round()
    assert [(t.home, t.away) for t in r2.tables] == [("A", "B")]
    event.enter_result(2, 1, _deals((0, 3)))  # B beats A in the final
    lines = standings(event)
    # B: out in no round (3 = won); A: out in the final (round 2); C: out in round 1
    assert [(s.entrant, s.reached) for s in lines] == [("B", 3), ("A", 2), ("C", 1)]
    assert event.finished


def test_ten_drawn_decider_deals_send_the_better_seed_through() -> None:
    event = Event(["A", "B"], format="knockout", deals_per_round=1, seed="x")
    event.next_round()
    with pytest.raises(TournamentError, match="until a deal is won"):
        event.enter_result(1, 1, Result(deals=((1, 1),), decider=((0, 0),) * 3))
    event.enter_result(1, 1, Result(deals=((1, 1),), decider=((0, 0),) * 10))
    assert [s.entrant for s in standings(event)] == ["A", "B"]


def test_duplicate_standings_lead_with_the_field_score() -> None:
    event = Event(["A", "B", "C", "D"], deals_per_round=2, duplicate=True, seed="x")
    event.next_round()  # A-B and C-D, both on the same two deals
    event.enter_result(1, 1, _deals((3, 1), (0, 2)))  # A 3-3 B
    event.enter_result(1, 2, _deals((1, 1), (2, 0)))  # C 3-1 D
    # deal 0, home's cards: A +2, C 0: A 2 - 0 = +2, C 0 - 2 = -2
    #         away's cards: B -2, D 0: B -2, D +2
    # deal 1, home's cards: A -2, C +2: A -4, C +4; away's: B +2, D -2: B +4, D -4
    # field: A -2, B +2, C +2, D -2; then match points: C 2 > B 1, A 1 > D 0
    lines = standings(event)
    assert [(s.entrant, s.field) for s in lines] == [
        ("C", 2.0), ("B", 2.0), ("A", -2.0), ("D", -2.0)]


def test_a_bye_is_a_win_without_points() -> None:
    event = Event(["A", "B", "C"], rounds=1, deals_per_round=1, seed="x")
    event.next_round()  # A-B, C the bye (the lowest ranked)
    event.enter_result(1, 1, _deals((2, 0)))
    c = next(s for s in standings(event) if s.entrant == "C")
    assert (c.byes, c.match_points, c.points_for, c.points_against, c.played) == (1, 2, 0, 0, 0)
