"""Validation of the text people type (nicknames): length limits, no control characters.
Names are stored as given; every page escapes them when it shows them."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable

NAME_MAX = 24

#: the names bots take at a table: Italian, short, told apart at a glance (six seats at
#: most, so a table always finds distinct ones)
BOT_NAMES = ("Giulia", "Marco", "Chiara", "Luca", "Sofia", "Paolo", "Elena", "Matteo",
             "Lucia", "Giorgio", "Marta", "Franco")


def clean_name(raw: object) -> str:
    """A trimmed nickname, or ValueError with a message a person can act on."""
    return clean_label(raw, NAME_MAX, "name")


def clean_label(raw: object, limit: int, what: str) -> str:
    """A trimmed one-line text others will see (a nickname, an event's or an entrant's
    name), NFC, or ValueError naming ``what``: no control, format (bidi overrides such as
    U+202E, which reverse what follows), surrogate, private or unassigned character, no
    line break."""
    if not isinstance(raw, str):
        raise ValueError(f"the {what} must be text")
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise ValueError(f"the {what} is empty")
    if len(name) > limit:
        raise ValueError(f"the {what} is longer than {limit} characters")
    for ch in name:
        # Cc control, Cf format (e.g. bidi overrides), Cs/Co/Cn surrogates, private, unassigned
        if unicodedata.category(ch).startswith("C"):
            raise ValueError(f"the {what} holds a control character (U+{ord(ch):04X})")
        if unicodedata.category(ch) in ("Zl", "Zp"):
            raise ValueError(f"the {what} holds a line break")
    return name


def _folded(names: Iterable[str | None]) -> set[str]:
    return {n.casefold() for n in names if n}


def distinct_name(name: str, taken: Iterable[str | None]) -> str:
    """``name``, or, when another seat at the table already has it, ``name (2)``, ``name
    (3)``... (kept within NAME_MAX), so every seat is told apart in the scores and plays."""
    used = _folded(taken)
    if name.casefold() not in used:
        return name
    k = 2
    while True:
        suffix = f" ({k})"
        candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in used:
            return candidate
        k += 1


def bot_name(taken: Iterable[str | None], rng: random.Random) -> str:
    """A bot's name not yet used at the table (the level is shown beside it, not in it)."""
    used = _folded(taken)
    free = [n for n in BOT_NAMES if n.casefold() not in used]
    return rng.choice(free) if free else distinct_name(BOT_NAMES[0], used)
