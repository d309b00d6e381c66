"""Fair play: whether "Teach me" (the move analysis) is on at a table. It is a table
setting every seat sees, chosen when the table is made, never a private aid: when it is
off the server refuses analyses, and in rated games it is always off."""

from __future__ import annotations

TEACH_OFF = "teach me is off at this table (a table setting every seat sees)"
TEACH_RATED = "teach me is off in rated games"


def table_teach(asked: bool, rated: bool) -> bool:
    """The teach-me setting a new table gets: what its creator chose, off when rated."""
    return asked and not rated


def teach_refusal(teach: bool, rated: bool) -> str | None:
    """Why an analysis is refused at a table (None: it is allowed)."""
    if rated:
        return TEACH_RATED
    if not teach:
        return TEACH_OFF
    return None
