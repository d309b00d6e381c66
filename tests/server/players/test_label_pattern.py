"""The schema's pattern for names others see (``names.LABEL_PATTERN``: nicknames, event
and entrant names) and the server's own check (``names.clean_label``) say the same thing
of every character a pattern can name: a request the document allows is never refused for
a character, and one it refuses the server would refuse too (issue 41: an invite join with
a format character in the name was allowed by the document, refused by the server)."""

from __future__ import annotations

import re
import unicodedata

from scopa.server.players.names import LABEL_PATTERN, clean_label


def refused_by_server(ch: str) -> bool:
    try:
        clean_label(f"a{ch}b", 24, "name")
    except ValueError:
        return True
    return False


def test_the_pattern_and_the_server_agree_on_every_character() -> None:
    pattern = re.compile(LABEL_PATTERN)
    disagree = []
    for code in range(0x110000):
        ch = chr(code)
        category = unicodedata.category(ch)
        if category in ("Cs", "Cn", "Co"):  # not in JSON text / left to the server (400)
            continue
        allowed = pattern.fullmatch(f"a{ch}b") is not None
        if allowed == refused_by_server(ch):
            disagree.append(f"U+{code:04X} {category}")
    assert not disagree, disagree[:20]


def test_a_name_of_spaces_only_is_refused_by_the_pattern() -> None:
    pattern = re.compile(LABEL_PATTERN)
    assert pattern.fullmatch("   ") is None and pattern.fullmatch("") is None
    assert pattern.fullmatch(" Anna ") is not None
