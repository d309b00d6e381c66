"""Seat arrangements: every bot plays every side, partners are the same kind of bot."""

import pytest

from scopa.arena.seating import arrangements, seat_bots


@pytest.mark.parametrize("bots,sides", [(2, 2), (3, 2), (2, 3), (4, 2), (3, 3), (2, 5)])
def test_every_bot_plays_every_side(bots: int, sides: int) -> None:
    arr = arrangements(bots, sides)
    assert len(arr) == max(bots, sides)
    for side in range(sides):
        assert {a[side] for a in arr} == set(range(bots))


def test_two_bots_swap_sides() -> None:
    assert arrangements(2, 2) == [[0, 1], [1, 0]]


def test_more_bots_than_sides_slide() -> None:
    assert arrangements(3, 2) == [[0, 1], [1, 2], [2, 0]]


def test_team_seats_follow_sides() -> None:
    # 4 players in two teams: seats 0, 2 are side 0 and seats 1, 3 side 1
    assert seat_bots([1, 0], 4) == [1, 0, 1, 0]
    assert seat_bots([0, 1, 2], 6) == [0, 1, 2, 0, 1, 2]


def test_no_sides_is_an_error() -> None:
    with pytest.raises(ValueError):
        arrangements(2, 1)
