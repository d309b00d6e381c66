"""The card notation has exactly forty spellings: ASCII ranks 1-10, lower-case d c s b.
Whatever else a string holds (other digits, upper case, spaces), ``card`` refuses it."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scopa import Move
from scopa.cards import NUM_CARDS, card, card_text

CANONICAL = {card_text(c) for c in range(NUM_CARDS)}


@given(st.text(max_size=4))
@example("\u0663d")  # Arabic-Indic 3
@example("\uff17d")  # full-width 7
@example("5D")
@example("\U0001d7d5d")  # mathematical bold 7
@example("10\u0432")
def test_only_the_forty_texts_are_cards(text: str) -> None:
    if text in CANONICAL:
        assert card_text(card(text)) == text
    else:
        with pytest.raises(ValueError, match="not a card"):
            card(text)


@given(st.sampled_from(sorted(CANONICAL)), st.sampled_from(["upper", "digits", "space"]))
def test_a_card_in_another_spelling_is_refused(text: str, how: str) -> None:
    if how == "upper":
        other = text.upper()
    elif how == "digits":  # the same rank in full-width digits
        other = "".join(chr(ord(ch) + 0xFEE0) if ch.isdigit() else ch for ch in text)
    else:
        other = f" {text}"
    with pytest.raises(ValueError):
        card(other)
    with pytest.raises(ValueError):
        Move.from_dict({"card": other, "capture": []})
