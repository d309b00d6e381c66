"""A policy over the fixed action space plays Cirulla as a bot: declarations and captures
inside larger ones are moves it can choose."""

from __future__ import annotations

import numpy as np

from scopa import Rules, card
from scopa.match import Match
from scopa.rl.actions import DECLARE_ACTION, DONE, NUM_ACTIONS, TAKE
from scopa.rl.policy_bot import PolicyBot
from scopa.view import PlayerView

from .test_actions import cirulla_position


def test_a_random_policy_plays_whole_cirulla_hands_and_declares():
    rules = Rules.preset("cirulla")
    rng = np.random.default_rng(0)
    seen: set[int] = set()

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        assert mask.shape == (NUM_ACTIONS,) and obs.dtype == np.float32
        legal = np.flatnonzero(mask)
        seen.update(int(a) for a in legal)
        return int(rng.choice(legal))

    bot = PolicyBot(policy, rules, 0)
    for seed in range(30):
        game = Match(rules, hand_seed=f"pb-{seed}").hand
        while not game.hand_over:
            game.play(bot.choose(PlayerView.of(game, game.to_move)))  # raises if illegal
    assert DECLARE_ACTION in seen


def test_a_policy_may_stop_at_the_smaller_capture():
    game = cirulla_position([["5d"], ["6b"]], ["1c", "2s", "3b", "4d"])
    picks = iter(["5d", "1c", "4d", "done"])

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        name = next(picks)
        action = card("5d") if name == "5d" else DONE if name == "done" else TAKE + card(name)
        assert mask[action] == 1
        return action

    move = PolicyBot(policy, game.rules, 0).choose(PlayerView.of(game, 0))
    assert move.to_dict() == {"card": "5d", "capture": ["4d", "1c"]}
