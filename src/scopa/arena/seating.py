"""Who sits where in each replay of a duplicate deal.

Bots are assigned to *sides*, not seats: in team games every seat of a side is played by
the same kind of bot (one instance per seat, so partners share nothing but the table).

With ``k`` bots and ``s`` sides there are ``L = max(k, s)`` arrangements; in arrangement
``r`` side ``j`` is played by bot ``((j + r) % L) % k``:

- ``k == s``: the plain rotations, each bot plays each side once;
- ``k > s``: a sliding window over the bots, each bot plays each side once and meets the
  others in turn (3 bots, 2 sides: 0-1, 1-2, 2-0);
- ``k < s``: the bots are repeated round the table and rotated, so that each side is
  played by each bot at least once (2 bots, 3 sides: 0-1-0, 1-0-0, 0-0-1).
"""

from __future__ import annotations


def arrangements(bots: int, sides: int) -> list[list[int]]:
    """For each replay of a deal, the bot index playing each side."""
    if bots < 1 or sides < 2:
        raise ValueError("need at least one bot and two sides")
    size = max(bots, sides)
    return [[((j + r) % size) % bots for j in range(sides)] for r in range(size)]


def seat_bots(arrangement: list[int], players: int) -> list[int]:
    """The bot index at each seat: seat ``s`` belongs to side ``s % sides``."""
    sides = len(arrangement)
    return [arrangement[seat % sides] for seat in range(players)]
