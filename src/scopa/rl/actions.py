"""The fixed action space shared by every RL interface: 80 actions, a move in one or more.

A Scopa move is a card from hand and a set of table cards it takes. Enumerating (card,
capture set) pairs would need 40 x 2^36 actions, and a per-card list of capture options cut
at a bound would make some legal moves unreachable (with a big table in Scopa a Quindici a
card can have dozens of captures). So a move is built in steps inside one fixed space:

- actions ``0..39`` (``card``): play that card from hand. If the card has one way to be
  played (it is laid, or it has a single capture) the move is made at once;
- actions ``40..79`` (``TAKE + card``): while a played card has several captures, take
  that table card. Only table cards that keep the choice on the way to some legal capture
  are legal; the move is made as soon as one capture remains.

Every legal move is reachable, and each legal action sequence makes exactly one legal move:
the captures of one card never contain one another (they all add up to the same total, or
the ace takes the whole table as its only capture), so a move is never ended early. Most
moves take one step; a choice between captures takes one more step per card to decide.
The step in progress (``Turn``) is public: a player lays the card, then picks up.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from ..cards import NUM_CARDS, cards_of
from ..game import Game, Move

#: actions 0..39 play a card; 40..79 take a table card for the card being played
TAKE = NUM_CARDS
NUM_ACTIONS = 2 * NUM_CARDS


@dataclass(frozen=True)
class Turn:
    """A move in progress: the card played, its capture options, the table cards taken."""

    card: int
    #: capture masks still possible (at least two)
    options: tuple[int, ...]
    taken: int = 0


class IllegalActionError(ValueError):
    """An action that is not legal in this state (the state is left unchanged)."""


def take_mask(turn: Turn) -> int:
    """The table cards that may be taken next in a move in progress (a card mask)."""
    free = 0
    for o in turn.options:
        if o & turn.taken == turn.taken:
            free |= o
    return free & ~turn.taken


def legal_actions_mask(game: Game, turn: Turn | None) -> int:
    """The legal actions as an 80-bit mask (bit ``a`` for action ``a``)."""
    if game.hand_over:
        return 0
    if turn is None:
        return game.hands[game.to_move]  # every card in hand may be played
    return take_mask(turn) << TAKE


def legal_actions(game: Game, turn: Turn | None) -> list[int]:
    """The legal actions in ascending order."""
    return cards_of(legal_actions_mask(game, turn))


def start(card: int, options: tuple[int, ...]) -> Turn | int:
    """Play ``card`` whose legal captures are ``options``: the capture mask when there is
    only one (0: laid), else the move in progress."""
    return options[0] if len(options) == 1 else Turn(card, options)


def advance(turn: Turn, table_card: int) -> Turn | int:
    """Take ``table_card`` (legal: in ``take_mask``): the capture mask once only one
    capture remains, else the move in progress."""
    taken = turn.taken | 1 << table_card
    left = tuple(o for o in turn.options if o & taken == taken)
    return left[0] if len(left) == 1 else Turn(turn.card, left, taken)


def apply_action(game: Game, turn: Turn | None, action: int) -> Turn | None:
    """Apply one action; return the move still in progress, or None once a move was played.

    Raises ``IllegalActionError`` (changing nothing) for an action that is not legal."""
    try:
        action = operator.index(action)  # numpy integers too; never a float
    except TypeError:
        raise IllegalActionError(f"an action is an integer 0..79, got {action!r}") from None
    if not 0 <= action < NUM_ACTIONS or not legal_actions_mask(game, turn) >> action & 1:
        raise IllegalActionError(f"action {action} is not legal here")
    if turn is None:
        card = action
        step = start(card, tuple(code >> 6 for code in game.legal_codes() if code & 63 == card))
    else:
        card = turn.card
        step = advance(turn, action - TAKE)
    if isinstance(step, Turn):
        return step
    game.play_code(card | step << 6)
    return None


def move_actions(game: Game, move: Move) -> list[int]:
    """The action sequence that plays ``move`` (legal in ``game``) in this action space."""
    if move not in game.legal_moves():
        raise IllegalActionError(f"{move} is not legal here")
    actions = [move.card]
    options = [code >> 6 for code in game.legal_codes() if code & 63 == move.card]
    taken = 0
    for t in cards_of(move.capture):
        if sum(1 for o in options if o & taken == taken) <= 1:
            break
        actions.append(TAKE + t)
        taken |= 1 << t
    return actions
