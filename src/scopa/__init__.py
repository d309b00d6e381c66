"""scopa: the Italian card game Scopa and its family.

The rules core (cards, rules, captures, moves, hand, match, scoring, view, notation, record,
shuffle)
uses only the standard library and does no I/O; bots, the CLI and the server stand on it.
"""

from .cards import card, card_name, card_text
from .hand import Hand
from .match import Match
from .moves import IllegalMoveError, Move, PositionError
from .rules import VARIANT_DESCRIPTIONS, VARIANTS, Rules
from .view import PlayerView

__all__ = [
    "Hand",
    "Match",
    "Move",
    "IllegalMoveError",
    "PositionError",
    "Rules",
    "VARIANTS",
    "VARIANT_DESCRIPTIONS",
    "PlayerView",
    "card",
    "card_text",
    "card_name",
]
__version__ = "0.1.0"
