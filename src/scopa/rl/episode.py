"""One episode (a hand, or a match to the target) driven through the action space, with
the rewards of every seat: the common core of the PettingZoo and Gymnasium environments.

Rewards (``reward=``):
- ``"hand"``: when a hand ends, every seat gets its side's point margin in that hand: its
  points minus the mean points of the other sides (zero-sum over sides);
- ``"match"``: only when the match ends: +1 to the winning side's seats, -1/(sides-1) to
  the others, 0 to everyone for a match stopped undecided after ``MAX_MATCH_HANDS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arena.play import MAX_MATCH_HANDS
from ..bots.points import margin
from ..match import Match
from ..moves import Move
from ..rules import Rules
from .actions import Turn, apply_action, legal_actions_mask
from .encoding import Layout, mask_array
from .tracker import Tracker

EPISODES = ("hand", "match")
REWARDS = ("hand", "match")


def side_margins(points: list[int]) -> list[float]:
    """Each side's points minus the mean of the other sides' points (sums to zero)."""
    return [margin(points, side) for side in range(len(points))]


def match_rewards(winner: int | None, sides: int) -> list[float]:
    """+1 to the winning side, -1/(sides-1) to the others; all 0 without a winner."""
    if winner is None:
        return [0.0] * sides
    return [1.0 if s == winner else -1.0 / (sides - 1) for s in range(sides)]


@dataclass
class HandEnd:
    """A hand that just ended: its score sheet and the match score after it."""

    result: dict[str, Any]
    scores: list[int]
    #: the match is over (or stopped), or the episode was one hand
    last: bool
    winner: int | None


class Episode:
    """A game in progress plus the move being built (``turn``) and episode flags."""

    def __init__(self, rules: Rules, episode: str = "hand", reward: str = "hand") -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, got {episode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        if reward == "match" and episode != "match":
            raise ValueError('reward="match" needs episode="match"')
        self.rules = rules
        self.episode = episode
        self.reward = reward
        self.layout = Layout(rules)
        #: every seat's observation, kept up to date play by play
        self.tracker = Tracker(self.layout)
        self.game = Match(rules, hand_seed="unused")
        self.turn: Turn | None = None
        #: the legal actions last handed out by ``mask``, with the state they were of
        self._legal: tuple[list[Any], int, Turn | None, int] | None = None
        self.terminated = True
        self.truncated = False
        #: the hand ended by the last action or move, if any
        self.hand_end: HandEnd | None = None
        #: every seat's reward from a play that ends no hand
        self._no_rewards = (0.0,) * rules.players

    def reset(self, seed: str) -> None:
        """Deal a new episode: hand ``seed``, or a match from match seed ``seed``."""
        if self.episode == "match":
            self.game = Match(self.rules, seed=seed)
        else:
            self.game = Match(self.rules, hand_seed=seed)
        self.turn = None
        self._legal = None
        self.tracker.reset()
        self.terminated = False
        self.truncated = False
        self.hand_end = None

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    @property
    def to_move(self) -> int:
        return self.game.hand.to_move

    def mask(self) -> np.ndarray:
        """The legal actions as NUM_ACTIONS int8 zeros and ones."""
        game, turn = self.game, self.turn
        bits = 0 if self.terminated or self.truncated else legal_actions_mask(game.hand, turn)
        # the next action is checked against it while the state is the same
        history = game.hand.history
        self._legal = (history, len(history), turn, bits)
        return mask_array(bits)

    def observe(self, seat: int) -> np.ndarray:
        """The seat's observation vector (equal to ``Layout.encode`` of its view)."""
        return self.tracker.observe(self.game.hand, self.turn, seat)

    def act(self, action: int) -> tuple[float, ...]:
        """Apply one action of the seat to move; return every seat's reward from it."""
        if self.terminated or self.truncated:
            raise ValueError("the episode is over: reset it")
        game = self.game
        legal = None
        if self._legal is not None:
            history, plays, turn, bits = self._legal
            self._legal = None
            if history is game.hand.history and plays == len(history) and turn is self.turn:
                legal = bits
        self.turn = apply_action(game.hand, self.turn, action, legal)
        return self._after_play()

    def play(self, move: Move) -> tuple[float, ...]:
        """Play a whole move (a bot's) for the seat to move; every seat's reward from it."""
        if self.done or self.turn is not None:
            raise ValueError("no whole move can be played now")
        self._legal = None
        self.game.hand.play(move)
        return self._after_play()

    def _after_play(self) -> tuple[float, ...]:
        game = self.game
        rules = self.rules
        self.hand_end = None
        if not game.hand.hand_over:
            return self._no_rewards
        result = game.hand.hand_result()
        points = [side["total"] for side in result["sides"]]
        side_reward = [0.0] * rules.teams
        if self.reward == "hand":
            side_reward = side_margins(points)
        last = self.episode == "hand" or game.match_over
        if self.episode == "hand":
            self.terminated = True
            scores = list(points)
        else:
            scores = game.match_totals()
            if game.match_over:
                self.terminated = True
                if self.reward == "match":
                    side_reward = match_rewards(game.winner, rules.teams)
            elif game.hand_number >= MAX_MATCH_HANDS:
                self.truncated = last = True
            else:
                game.next_hand()
        self.hand_end = HandEnd(result, scores, last, game.winner)
        return tuple([side_reward[s % rules.teams] for s in range(rules.players)])
