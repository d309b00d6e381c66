"""The tracked information-state vectors (observation plus play slots, kept call by call)
always equal the full encoding of the seat's view: after every action of random play of
every preset, for every seat looking at every step or only now and then; and OpenSpiel's
tensors, which read them, equal the full encoding too."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scopa.rl.openspiel  # noqa: F401
from scopa import Rules
from scopa.match import Match
from scopa.rl.actions import apply_action, legal_actions
from scopa.rl.encoding import Layout
from scopa.rl.info_tracker import InfoTracker
from scopa.view import PlayerView

from .helpers import TABLES


def random_hand(rules: Rules, seed: int, look: float) -> None:
    rng = random.Random(seed)
    layout = Layout(rules)
    tracker = InfoTracker(layout)
    game = Match(rules, hand_seed=f"info-{seed}").hand
    turn = None
    while True:
        for seat in range(rules.players):
            if seat == game.to_move or rng.random() < look:
                tracked = tracker.observe(game, turn, seat)
                full = layout.encode_info(PlayerView.of(game, seat), turn)
                assert np.array_equal(tracked, full), f"seat {seat}, {len(game.history)} plays"
        if game.hand_over:
            break
        turn = apply_action(game, turn, rng.choice(legal_actions(game, turn)))


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.variant}-{r.players}")
@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), look=st.sampled_from([0.0, 0.3, 1.0]))
def test_tracked_information_state_equals_the_full_encoding(rules, seed, look):
    random_hand(rules, seed, look)


def test_another_game_is_built_from_its_own_view():
    rules = Rules.preset("scopa")
    layout = Layout(rules)
    tracker = InfoTracker(layout)
    game = Match(rules, hand_seed="one").hand
    for _ in range(5):
        game.play_code(game.legal_codes()[0])
        tracker.observe(game, None, 0)
    other = Match(rules, hand_seed="two").hand
    other.play_code(other.legal_codes()[-1])
    assert np.array_equal(tracker.observe(other, None, 0),
                          layout.encode_info(PlayerView.of(other, 0), None))
    # and the first game again, further on: no slot of the other game left behind
    game.play_code(game.legal_codes()[0])
    assert np.array_equal(tracker.observe(game, None, 1),
                          layout.encode_info(PlayerView.of(game, 1), None))


@pytest.mark.parametrize("variant", ["scopa", "scopone", "cirulla"])
def test_openspiel_tensors_equal_the_full_encoding_along_a_hand_and_its_clones(variant):
    game = pyspiel.load_game("python_scopa", {"variant": variant})
    rng = random.Random(variant)
    state = game.new_initial_state()
    clones = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        g = state.game
        layout = Layout(g.rules)
        for p in range(g.rules.players):
            view = PlayerView.of(g, p)
            info = np.asarray(state.information_state_tensor(p))
            assert np.array_equal(info, layout.encode_info(view, state.turn))
            obs = np.asarray(state.observation_tensor(p))
            assert np.array_equal(obs, layout.encode(view, state.turn))
        if rng.random() < 0.2:
            clones.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    for clone in clones:  # older states read after the newer: rebuilt, not mixed up
        p = clone.current_player()
        info = np.asarray(clone.information_state_tensor(p))
        full = Layout(clone.game.rules).encode_info(PlayerView.of(clone.game, p), clone.turn)
        assert np.array_equal(info, full)
