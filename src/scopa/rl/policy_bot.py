"""A trained policy as one of our bots: ``PolicyBot(policy, rules)`` plays in the arena,
the terminal or the server like any fair bot, seeing only its seat's view.

``policy(observation, action_mask) -> action`` gets the same vectors as the environments
(``Layout.encode`` of the view and the int8 mask of the ``NUM_ACTIONS`` actions) and
returns an action; the bot turns its card-then-take actions (or its declaration) into one
``Move``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..bots.base import Bot, Limit
from ..moves import Move
from ..rules import Rules
from ..view import PlayerView
from .actions import (
    DECISION_OF_ACTION,
    NUM_ACTIONS,
    IllegalActionError,
    Turn,
    advance,
    first_mask,
    start,
    turn_mask,
)
from .encoding import Layout, bits_int8

Policy = Callable[[np.ndarray, np.ndarray], int]


class PolicyBot(Bot):
    """Plays the moves a policy over the fixed action space picks."""

    name = "policy"

    def __init__(self, policy: Policy, rules: Rules, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self.policy = policy
        self.layout = Layout(rules)

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise ValueError("it is not this seat's turn")
        card = self._ask(view, None, first_mask(view.hand, view.deciding))
        if card in DECISION_OF_ACTION:
            return Move.from_code(DECISION_OF_ACTION[card])
        step = start(card, tuple(m.capture for m in moves if m.card == card))
        while isinstance(step, Turn):
            step = advance(step, self._ask(view, step, turn_mask(step)))
        return Move.from_code(card | step << 6)

    def _ask(self, view: PlayerView, turn: Turn | None, legal: int) -> int:
        action = int(self.policy(self.layout.encode(view, turn), bits_int8(legal, NUM_ACTIONS)))
        if not (0 <= action < NUM_ACTIONS and legal >> action & 1):
            raise IllegalActionError(f"the policy chose action {action}, which is not legal")
        return action
