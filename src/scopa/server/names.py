"""Validation of the text people type (nicknames): length limits, no control characters.
Names are stored as given; every page escapes them when it shows them."""

from __future__ import annotations

import unicodedata

NAME_MAX = 24


def clean_name(raw: object) -> str:
    """A trimmed nickname, or ValueError with a message a person can act on."""
    if not isinstance(raw, str):
        raise ValueError("the name must be text")
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise ValueError("the name is empty")
    if len(name) > NAME_MAX:
        raise ValueError(f"the name is longer than {NAME_MAX} characters")
    for ch in name:
        # Cc control, Cf format (e.g. bidi overrides), Cs/Co/Cn surrogates, private, unassigned
        if unicodedata.category(ch).startswith("C"):
            raise ValueError(f"the name holds a control character (U+{ord(ch):04X})")
        if unicodedata.category(ch) in ("Zl", "Zp"):
            raise ValueError("the name holds a line break")
    return name
