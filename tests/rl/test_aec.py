"""The PettingZoo environment passes PettingZoo's own API test for every preset, and its
rewards, episodes and rendering do what docs/rl.md says."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

import scopa.rl as rl
from scopa import VARIANTS, Rules
from scopa.match import Match
from scopa.view import PlayerView


@pytest.fixture(autouse=True)
def _quiet():
    # api_test warns that a Dict observation (with the action mask) is not a Box: by design
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_test_passes_for_every_preset(variant):
    api_test(rl.env(variant), num_cycles=15, verbose_progress=False)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_api_test_passes_for_every_player_count(players):
    api_test(rl.env("scopa", players), num_cycles=10, verbose_progress=False)


def test_api_test_passes_with_teams_and_whole_matches():
    api_test(rl.env("scopa", 6, teams=3, episode="match", reward="match", target=3),
             num_cycles=15, verbose_progress=False)
    api_test(rl.env("scopa", 3), num_cycles=15, verbose_progress=False)


def play_random(env, seed):
    """Play one episode at random; return rewards summed per agent and the steps."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return totals, steps


def test_hand_rewards_are_the_side_margins_and_sum_to_zero():
    env = rl.env("scopone")
    totals, steps = play_random(env, 5)
    assert steps >= 36
    assert sum(totals.values()) == pytest.approx(0.0)
    # partners share a side, so they earn the same
    assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
    game = env.unwrapped.episode.game.hand
    sides = [s["total"] for s in game.hand_result()["sides"]]
    assert totals["player_0"] == sides[0] - sides[1]


def test_match_reward_is_won_or_lost_once_at_the_end():
    env = rl.env("scopa", episode="match", reward="match", target=5)
    totals, _ = play_random(env, 2)
    game = env.unwrapped.episode.game
    assert game.match_over
    winner = game.winner
    assert totals == {f"player_{s}": 1.0 if s == winner else -1.0 for s in range(2)}


def test_a_match_of_hand_rewards_adds_up_the_hands():
    env = rl.env("scopa", episode="match", reward="hand", target=5)
    totals, _ = play_random(env, 3)
    game = env.unwrapped.episode.game
    final = game.match_totals()
    assert totals["player_0"] == pytest.approx(final[0] - final[1])


def test_options_are_checked():
    with pytest.raises(ValueError, match="episode"):
        rl.env(episode="round")
    with pytest.raises(ValueError, match="needs episode"):
        rl.env(reward="match")
    with pytest.raises(ValueError, match="unknown variant"):
        rl.env("briscola")
    with pytest.raises(ValueError, match="teams"):
        rl.env("scopa", 4, teams=3)


def test_illegal_action_raises_and_changes_nothing():
    env = rl.env()
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(rl.IllegalActionError):
        env.step(illegal)
    again, *_ = env.last()
    assert np.array_equal(obs["observation"], again["observation"])


def test_only_the_agent_on_turn_has_legal_actions():
    env = rl.env("scopone")
    env.reset(seed=4)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == env.agent_selection)


def test_render_shows_the_table_and_only_the_hand_on_turn():
    env = rl.env(render_mode="ansi")
    env.reset(seed=9)
    game = env.unwrapped.episode.game.hand
    text = env.render()
    assert "table:" in text and "player_0" in text
    mine = PlayerView.of(game, game.to_move).to_dict()["hand"]
    theirs = PlayerView.of(game, 1 - game.to_move).to_dict()["hand"]
    hand_line = text.splitlines()[-1]
    assert all(c in hand_line.split() for c in mine)
    assert not any(c in hand_line.split() for c in theirs)


def test_same_seed_same_deal():
    a, b = rl.env(), rl.env()
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.unwrapped.episode.game.deck == b.unwrapped.episode.game.deck
    assert Rules.preset("scopa") == a.unwrapped.rules


def test_render_shows_a_move_in_progress():
    env = rl.env("quindici", render_mode="ansi")
    raw = env.unwrapped
    for seed in range(200):
        env.reset(seed=seed)
        while not raw.episode.done:
            obs, *_ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[-1]))
            turn = raw.episode.turn
            if turn is not None:
                from scopa.cards import card_text

                assert f"playing {card_text(turn.card)}, taken nothing yet" in env.render()
                return
    raise AssertionError("no move with a choice of captures in 200 deals")


def test_reset_can_deal_a_given_deal_and_refuses_a_bad_one():

    env = rl.env("scopa")
    env.reset(options={"deal": "duplicate-7"})
    game = env.unwrapped.episode.game.hand
    expected = Match(Rules.preset("scopa"), hand_seed="duplicate-7").hand
    assert game.hands == expected.hands and game.table == expected.table
    env.reset(seed=1)
    before = env.unwrapped.episode.game
    with pytest.raises(ValueError, match="deal"):
        env.reset(options={"deal": 1.5})
    assert env.unwrapped.episode.game is before


def test_agent_iter_keeps_pettingzoos_order_checks():
    """Our leaner turn iterator still refuses a turn without a step, stops when the
    episode is over, and honours ``max_iter``."""
    env = rl.env("scopa")
    env.reset(options={"deal": "order"})
    turns = iter(env.agent_iter())
    first = next(turns)
    assert first == env.agent_selection
    with pytest.raises(AssertionError, match="step"):
        next(turns)
    env.reset(options={"deal": "order"})
    stepped = 0
    for _agent in env.agent_iter(max_iter=3):
        env.step(int(env.last()[0]["action_mask"].nonzero()[0][0]))
        stepped += 1
    assert stepped == 3
    env.reset(options={"deal": "order"})
    seen = 0
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
        seen += 1
    assert seen > 36 and not env.agents
