"""Fair play: whether "Teach me" (the move analysis) is on at a table. It is a table
setting every seat sees, chosen when the table is made, never a private aid: when it is
off the server refuses analyses, and in rated games it is always off.

``rated`` is the hook for rated games (issue 16, item 2): a table is rated when its rules
or its settings say so; until rated tables exist nothing is rated."""

from __future__ import annotations

from typing import Any

TEACH_OFF = "teach me is off at this table (a table setting every seat sees)"
TEACH_RATED = "teach me is off in rated games"


def is_rated(rules: dict[str, Any], settings: dict[str, Any] | None = None) -> bool:
    """Whether a table's match is rated: a ``rated`` flag in its rules' options or in its
    table settings (wherever the ratings work puts it)."""
    options = rules.get("options")
    flags = [rules.get("rated"), (settings or {}).get("rated")]
    if isinstance(options, dict):
        flags.append(options.get("rated"))
    return any(flag is True for flag in flags)


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
