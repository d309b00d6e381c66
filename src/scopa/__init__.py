"""scopa: the Italian card game Scopa and its family.

The rules core (cards, rules, captures, game, scoring, view, notation, record, shuffle)
uses only the standard library and does no I/O; bots, the CLI and the server stand on it.
"""

from .cards import card, card_name, card_text
from .game import Game, IllegalMoveError, Move, PositionError
from .rules import VARIANT_DESCRIPTIONS, VARIANTS, Rules
from .view import PlayerView

__all__ = [
    "Game",
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
