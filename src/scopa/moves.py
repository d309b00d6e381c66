"""Moves: the vocabulary the hand, the match, views and records share.

A ``Move`` is one play (a card and the mask of table cards it takes) or a declaration; in
a hand's history and in the search's hot loops it travels packed in one int,
``card | capture_mask << 6``, and the card field's values from ``MARKS`` up mark what is not
a card played. Its own module, below ``hand`` and ``match``, because both read and write
moves and neither owns them (as python-chess keeps ``Move`` apart from ``Board``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import NUM_CARDS, card, card_text, cards_of

#: the card field of a history entry for the opening 15/30 sweep by the dealer (Escoba,
#: Cirulla); its capture field holds the table taken
OPENING = 63
#: the card field of the two declaration moves (Cirulla): declare the dealt hand, or pass.
#: In history a declaration's capture field holds the hand shown.
DECLARE = 62
PASS = 61
#: the card field of a history entry for a declaration made by the rules (``"auto"``)
AUTO_DECLARE = 60
#: codes whose card field is at least this are not card plays
MARKS = 60


def is_card_play(code: int) -> bool:
    """Whether a history code is a card played (not an opening sweep or a declaration)."""
    return code & 63 < MARKS


class IllegalMoveError(ValueError):
    """A move that is malformed or not legal in the current state."""


class PositionError(ValueError):
    """A position or record that does not describe a reachable state."""


class Move(NamedTuple):
    """One play: the card from hand and the mask of table cards it takes (0: laid)."""

    card: int
    capture: int = 0

    @property
    def code(self) -> int:
        return self.card | self.capture << 6

    @classmethod
    def from_code(cls, code: int) -> Move:
        return _MOVES[code]

    @property
    def capture_cards(self) -> list[int]:
        return cards_of(self.capture)

    @property
    def is_declaration(self) -> bool:
        """A declaration move (declare or pass), not a card played."""
        return self.card == DECLARE or self.card == PASS

    def to_dict(self) -> dict[str, Any]:
        if self.card >= MARKS:
            return {"declare": self.card == DECLARE}
        taken = [card_text(c) for c in cards_of(self.capture)]
        return {"card": card_text(self.card), "capture": taken}

    def __str__(self) -> str:
        if self.card >= MARKS:
            return "declare" if self.card == DECLARE else "pass"
        if not self.capture:
            return card_text(self.card)
        return card_text(self.card) + ":" + "+".join(card_text(c) for c in cards_of(self.capture))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``7d`` (laid), ``7d:3s+4d`` (capture), ``declare`` or ``pass``."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text like '7d:3s+4d', got {text!r}")
        word = _DECLARATION_WORDS.get(text.strip().lower())
        if word is not None:
            return cls.from_code(word)
        head, colon, tail = text.strip().partition(":")
        if colon and not tail:
            raise IllegalMoveError(f"malformed move {text!r}: nothing after ':'")
        try:
            c = card(head)
            taken = [card(t) for t in tail.split("+")] if tail else []
        except ValueError as e:
            raise IllegalMoveError(f"malformed move {text!r}: {e}") from None
        return cls.from_cards(c, taken)

    @classmethod
    def from_cards(cls, c: int, taken: list[int]) -> Move:
        mask = 0
        for t in taken:
            if mask >> t & 1:
                raise IllegalMoveError(f"capture names {card_text(t)} twice")
            mask |= 1 << t
        if mask >> c & 1:
            raise IllegalMoveError("a card cannot capture itself")
        return cls.from_code(c | mask << 6)

    @classmethod
    def from_dict(cls, data: Any) -> Move:
        """Parse ``{"card": "7d", "capture": ["3s", "4d"]}`` or ``{"declare": true}``."""
        if isinstance(data, dict) and "declare" in data:
            if set(data) != {"declare"} or type(data["declare"]) is not bool:
                raise IllegalMoveError(
                    'a declaration is {"declare": true} or {"declare": false}, got '
                    + repr(data)[:200]
                )
            return cls.from_code(DECLARE if data["declare"] else PASS)
        if not isinstance(data, dict) or set(data) - {"card", "capture"} or "card" not in data:
            raise IllegalMoveError(
                'a move must be {"card": "7d", "capture": ["3s", "4d"]}, got ' + repr(data)[:200]
            )
        taken = data.get("capture", [])
        if not isinstance(taken, list) or len(taken) > NUM_CARDS:
            raise IllegalMoveError("capture must be a list of cards")
        try:
            c = card(data["card"])
            cards = [card(t) for t in taken]
        except ValueError as e:
            raise IllegalMoveError(f"malformed move: {e}") from None
        return cls.from_cards(c, cards)


#: the keys of a move's dict form (a card play or a declaration)
MOVE_KEYS = ("card", "capture", "declare")


def move_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The move's own keys of a dict that carries more (a stored event: seat, by...)."""
    return {k: data[k] for k in MOVE_KEYS if k in data}


class _MoveCache(dict[int, Move]):
    """One shared ``Move`` per code, made on first use: ``legal_moves`` hands out the same
    objects every time, so ``play`` finds them by identity."""

    def __missing__(self, code: int) -> Move:
        m = Move(code & 63, code >> 6)
        if len(self) < 1_000_000:  # bounded: a long-running server meets many tables
            self[code] = m
        return m


_MOVES = _MoveCache()
#: the shared ``Move`` of a code (what ``Hand.legal_moves`` hands out)
move_of = _MOVES.__getitem__
_DECLARATION_WORDS = {"declare": DECLARE, "pass": PASS}
#: the moves open to a seat that may declare its dealt hand
DECISION_CODES = (DECLARE, PASS)

#: history marks the engine writes itself (no player's move)
ENGINE_MARKS = frozenset((OPENING, AUTO_DECLARE))

__all__ = [
    "Move", "IllegalMoveError", "PositionError", "OPENING", "DECLARE", "PASS",
    "AUTO_DECLARE", "MARKS", "is_card_play", "MOVE_KEYS", "move_fields", "DECISION_CODES",
    "ENGINE_MARKS", "move_of",
]
