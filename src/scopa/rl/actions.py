"""The fixed action space shared by every RL interface: 83 actions, a move in one or more.

A Scopa move is a card from hand and a set of table cards it takes. Enumerating (card,
capture set) pairs would need 40 x 2^36 actions, and a per-card list of capture options cut
at a bound would make some legal moves unreachable (with a big table in Scopa a Quindici a
card can have dozens of captures). So a move is built in steps inside one fixed space:

- actions ``0..39`` (``card``): play that card from hand. If the card has one way to be
  played (it is laid, or it has a single capture) the move is made at once;
- actions ``40..79`` (``TAKE + card``): while a played card has several captures, take
  that table card. Only table cards that keep the choice on the way to some legal capture
  are legal; the move is made as soon as one capture remains;
- action ``80`` (``DECLARE_ACTION``) and ``81`` (``PASS_ACTION``): declare the dealt hand
  or pass (Cirulla), legal exactly when the engine's legal moves are those declarations;
- action ``82`` (``DONE``): stop taking. In Cirulla one capture of a card may hold another
  (a played 5 takes 2+3, or 2+3+5 as a fifteen), so taking cards alone cannot end the
  smaller one; ``DONE`` is legal when the cards taken so far are exactly a capture while a
  larger one still holds them, and makes that capture.

Every legal move is reachable, and each legal action sequence makes exactly one legal move:
a move ends when one capture remains, or on ``DONE`` with the cards taken, so a move is
never ended early nor left with no legal action. Most moves take one step; a choice between
captures takes one more step per card to decide. The step in progress (``Turn``) is public:
a player lays the card, then picks up.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from ..cards import NUM_CARDS, cards_of
from ..hand import Hand
from ..moves import DECISION_CODES, DECLARE, PASS, Move

#: actions 0..39 play a card; 40..79 take a table card for the card being played
TAKE = NUM_CARDS
#: declare the dealt hand, or pass (Cirulla)
DECLARE_ACTION = 2 * NUM_CARDS
PASS_ACTION = DECLARE_ACTION + 1
#: stop taking: make the capture of exactly the cards taken so far
DONE = PASS_ACTION + 1
NUM_ACTIONS = DONE + 1

#: the engine's declaration code of each declaration action, and back
DECISION_OF_ACTION = {DECLARE_ACTION: DECLARE, PASS_ACTION: PASS}
ACTION_OF_DECISION = {code: action for action, code in DECISION_OF_ACTION.items()}
DECISION_MASK = sum(1 << ACTION_OF_DECISION[code] for code in DECISION_CODES)


@dataclass(frozen=True)
class Turn:
    """A move in progress: the card played, its capture options, the table cards taken."""

    card: int
    #: capture masks still possible (at least two, each holding every card taken)
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


def turn_mask(turn: Turn) -> int:
    """The legal actions of a move in progress: the takes, and ``DONE`` when the cards
    taken are a capture of their own (a larger one remains, or the move would be made)."""
    done = 1 << DONE if turn.taken in turn.options else 0
    return take_mask(turn) << TAKE | done


def first_mask(hand: int, deciding: bool) -> int:
    """The legal actions when no move is in progress: declare or pass while the seat must
    decide, else every card in hand (each card in hand has a legal move)."""
    return DECISION_MASK if deciding else hand


def legal_actions_mask(game: Hand, turn: Turn | None) -> int:
    """The legal actions as a ``NUM_ACTIONS``-bit mask (bit ``a`` for action ``a``)."""
    if game.hand_over:
        return 0
    if turn is None:
        return first_mask(game.hands[game.to_move], game.deciding)
    return turn_mask(turn)


def legal_actions(game: Hand, turn: Turn | None) -> list[int]:
    """The legal actions in ascending order."""
    return cards_of(legal_actions_mask(game, turn))


def start(card: int, options: tuple[int, ...]) -> Turn | int:
    """Play ``card`` whose legal captures are ``options``: the capture mask when there is
    only one (0: laid), else the move in progress."""
    options = tuple(dict.fromkeys(options))  # one capture listed twice is still one
    return options[0] if len(options) == 1 else Turn(card, options)


def advance(turn: Turn, action: int) -> Turn | int:
    """Apply a legal action (in ``turn_mask``) to a move in progress: the capture mask once
    the move is decided, else the move in progress."""
    if action == DONE:
        return turn.taken
    taken = turn.taken | 1 << (action - TAKE)
    left = tuple(o for o in turn.options if o & taken == taken)
    return left[0] if len(left) == 1 else Turn(turn.card, left, taken)


def apply_action(
    game: Hand, turn: Turn | None, action: int, legal: int | None = None
) -> Turn | None:
    """Apply one action; return the move still in progress, or None once a move was played.
    ``legal`` is ``legal_actions_mask(game, turn)`` when the caller has it already.

    Raises ``IllegalActionError`` (changing nothing) for an action that is not legal."""
    try:
        action = operator.index(action)  # numpy integers too; never a float
    except TypeError:
        raise IllegalActionError(
            f"an action is an integer 0..{NUM_ACTIONS - 1}, got {action!r}"
        ) from None
    if legal is None:
        legal = legal_actions_mask(game, turn)
    if not 0 <= action < NUM_ACTIONS or not legal >> action & 1:
        raise IllegalActionError(f"action {action} is not legal here")
    if action in DECISION_OF_ACTION:
        game.play_code(DECISION_OF_ACTION[action])
        return None
    if turn is None:
        card = action
        options = [code >> 6 for code in game.legal_codes() if code & 63 == card]
        if len(options) == 1:  # the usual case: laid, or one capture
            game.play_code(card | options[0] << 6)
            return None
        step = start(card, tuple(options))
    else:
        card = turn.card
        step = advance(turn, action)
    if isinstance(step, Turn):
        return step
    game.play_code(card | step << 6)
    return None


def move_actions(game: Hand, move: Move) -> list[int]:
    """The action sequence that plays ``move`` (legal in ``game``) in this action space."""
    if move not in game.legal_moves():
        raise IllegalActionError(f"{move} is not legal here")
    if move.is_declaration:
        return [ACTION_OF_DECISION[move.card]]
    actions = [move.card]
    options = {code >> 6 for code in game.legal_codes() if code & 63 == move.card}
    taken = 0
    for t in [*cards_of(move.capture), None]:
        if sum(1 for o in options if o & taken == taken) <= 1:
            break
        if t is None:  # every card taken while a larger capture remains
            actions.append(DONE)
            break
        actions.append(TAKE + t)
        taken |= 1 << t
    return actions
