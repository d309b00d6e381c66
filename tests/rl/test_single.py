"""The Gymnasium environment passes Gymnasium's checker and plays our bots, including a
bot-protocol program."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import scopa.rl as rl
from scopa.match import Match


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize(
    "kwargs",
    [
        {"opponents": ["beginner"]},
        {"opponents": ["random", "beginner", "intermediate"], "variant": "scopone"},
        {"opponents": ["beginner"], "variant": "escoba", "episode": "match", "reward": "match"},
    ],
)
def test_check_env_passes(kwargs):
    env = rl.SingleAgentEnv(**kwargs)
    check_env(env, skip_render_check=True)
    env.close()


def run_episode(env, seed):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert obs["action_mask"].any()
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, term, trunc, info = env.step(action)
        total += reward
        steps += 1
        done = term or trunc
    return total, steps, info


def test_an_episode_against_expert_ends_with_the_learners_margin():
    env = rl.SingleAgentEnv(["expert"], seat=1)
    total, steps, info = run_episode(env, 3)
    sides = info["hand_results"][-1]["sides"]
    assert total == sides[1]["total"] - sides[0]["total"]
    assert steps >= 18  # the learner plays its 18 cards (more steps when it chooses)


def test_a_bot_protocol_program_can_be_the_opponent():
    env = rl.SingleAgentEnv([f"cmd:{sys.executable} -m scopa.protocol random"])
    try:
        total, steps, _ = run_episode(env, 1)
        total2, _, _ = run_episode(env, 2)  # the program is reused for the next episode
    finally:
        env.close()
    assert steps >= 18


def test_illegal_action_is_penalised_or_raises():
    env = rl.SingleAgentEnv(["random"], seat=0)
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, term, trunc, info = env.step(bad)
    assert reward == -1.0 and not term and "illegal_action" in info
    assert np.array_equal(again["observation"], obs["observation"])
    strict = rl.SingleAgentEnv(["random"], seat=0, illegal_reward=None)
    strict.reset(seed=0)
    with pytest.raises(rl.IllegalActionError):
        strict.step(bad)


def test_bad_opponents_are_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        rl.SingleAgentEnv(["grandmaster"])
    with pytest.raises(ValueError, match="one per other seat"):
        rl.SingleAgentEnv(["random", "random"], "scopa", 2)
    with pytest.raises(ValueError, match="list"):
        rl.SingleAgentEnv("expert")


def test_action_masks_and_render():
    env = rl.SingleAgentEnv(["beginner"], render_mode="ansi", seat=0)
    obs, _ = env.reset(seed=5)
    assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
    assert "hand of you:" in env.render()


def test_reset_can_deal_a_given_deal():
    from scopa import Rules

    env = rl.SingleAgentEnv(["random"], seat=0)
    env.reset(seed=3, options={"deal": "duplicate-7"})
    expected = Match(Rules.preset("scopa"), hand_seed="duplicate-7").hand
    assert env.episode.game.hand.table == expected.table
    assert env.episode.game.hand.hands[0] == expected.hands[0]
    with pytest.raises(ValueError, match="deal"):
        env.reset(options={"deal": None})


@pytest.mark.parametrize("variant", ["scopa", "scopone", "cirulla"])
def test_the_random_opponent_plays_as_our_random_bot_given_its_view(variant, monkeypatch):
    """The environment hands ``random`` the game's legal moves instead of a view: the
    same moves in the same order, so the same choices from the same seed."""
    from scopa.bots.base import RandomBot

    def play(env):
        trace = []
        for deal in range(6):
            obs, _ = env.reset(seed=deal, options={"deal": f"fair-{deal}"})
            done = False
            while not done:
                legal = np.flatnonzero(obs["action_mask"])
                obs, _, term, trunc, _ = env.step(int(legal[len(trace) % len(legal)]))
                done = term or trunc
            trace.append(list(env.episode.game.hand.history))
        return trace

    fast = play(rl.SingleAgentEnv(["random"], variant))
    monkeypatch.setattr(RandomBot, "pick", lambda self, moves: pytest.fail("not the view"))

    def by_view(self, view, limit=None):
        moves = view.legal_moves()
        assert moves
        return self.rng.choice(moves)

    monkeypatch.setattr(RandomBot, "choose", by_view)
    monkeypatch.setattr("scopa.rl.single.RandomBot", type("Other", (), {}))
    assert play(rl.SingleAgentEnv(["random"], variant)) == fast
