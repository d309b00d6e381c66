"""Validation of the text people type (nicknames): length limits, no control characters.
Names are stored as given; every page escapes them when it shows them."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable

NAME_MAX = 24

#: what ``clean_label`` refuses, as far as a pattern can name it (the schema's own check,
#: so the API's document states the rule): controls (Cc), format characters (Cf, e.g. the
#: bidi overrides, as of Unicode 14-15), line and paragraph separators. Surrogates cannot
#: travel in JSON text; unassigned code points (they change with Unicode's version) and
#: private-use ones (137,000 of them: a class that large makes generators of test data
#: crawl) are left to ``clean_label`` (a 400). Literal characters, not escapes: the same
#: pattern compiles in Python's ``re`` and in pydantic's Rust engine.
_REFUSED = (
    "\x00-\x1f\x7f-\x9f"
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\u2028\u2029"
)
#: a one-line text others see (a nickname, an event's or an entrant's name): none of
#: ``_REFUSED``, and something besides spaces
LABEL_PATTERN = f"^[^{_REFUSED}]*[^\\s{_REFUSED}][^{_REFUSED}]*$"

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
