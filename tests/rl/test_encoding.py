"""No hidden card reaches an encoding: two worlds that differ only in what a seat cannot
see give that seat the same observation, information state and strings, for every preset."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from scopa import Rules
from scopa.hand import Hand
from scopa.match import Match
from scopa.moves import OPENING
from scopa.rl.actions import apply_action, legal_actions
from scopa.rl.encoding import Layout
from scopa.rl.episode import Episode
from scopa.view import PlayerView

from .helpers import TABLES, random_position


def two_worlds(game: Hand, seat: int, seed: int) -> tuple[Hand, Hand]:
    """Two full states with ``seat``'s view of ``game`` whose hidden cards differ."""
    view = PlayerView.of(game, seat)
    a = view.sample(random.Random(seed))
    for k in range(1, 50):
        b = view.sample(random.Random(seed + k))
        if b.hands != a.hands or b.stock != a.stock:
            return a, b
    raise AssertionError("no two different worlds")


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.variant}-{r.players}")
def test_hidden_cards_never_change_an_encoding(rules):
    layout = Layout(rules)
    for seed in range(6):
        game = random_position(rules, seed)
        if not game.stock and all(game.hands[s] == 0 for s in range(game.n) if s != 0):
            continue
        turn = None
        # half the time a move is in progress (the card played is public, not the rest)
        if seed % 2:
            for a in legal_actions(game, None):
                probe = game.copy()
                t = apply_action(probe, None, a)
                if t is not None:
                    game, turn = probe, t
                    break
        for seat in range(rules.players):
            a, b = two_worlds(game, seat, seed)
            assert PlayerView.of(a, seat) == PlayerView.of(b, seat)
            obs_a = layout.encode(PlayerView.of(a, seat), turn)
            obs_b = layout.encode(PlayerView.of(b, seat), turn)
            assert np.array_equal(obs_a, obs_b)
            info_a = layout.encode_info(PlayerView.of(a, seat), turn)
            assert np.array_equal(info_a, layout.encode_info(PlayerView.of(b, seat), turn))
            # and the environments' own path: an episode holding either world
            ep = Episode(rules)
            ep.game, ep.turn = Match.from_hand(a), turn
            first = ep.observe(seat)
            ep.game = Match.from_hand(b)
            assert np.array_equal(first, ep.observe(seat))
            # the real state differs from a world elsewhere: its own hand does show
            other = (seat + 1) % rules.players
            if a.hands[other] != b.hands[other]:
                assert not np.array_equal(layout.encode(PlayerView.of(a, other), turn),
                                          layout.encode(PlayerView.of(b, other), turn))


def test_openspiel_information_is_the_same_in_every_resampled_world():
    import scopa.rl.openspiel  # noqa: F401

    for variant in ("scopa", "scopone", "escoba", "cirulla"):
        game = pyspiel.load_game("python_scopa", {"variant": variant})
        rng = random.Random(variant)
        sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
        state = game.new_initial_state()
        checked = 0
        differed = 0
        while not state.is_terminal():
            # while dealing (every fifth card) and at every decision
            if not state.is_chance_node() or len(state.history()) % 5 == 0:
                for p in range(game.num_players()):
                    other = state.resample_from_infostate(p, sampler)
                    assert other.information_state_string(p) == state.information_state_string(p)
                    assert other.observation_string(p) == state.observation_string(p)
                    assert other.information_state_tensor(p) == state.information_state_tensor(p)
                    assert other.observation_tensor(p) == state.observation_tensor(p)
                    differed += other.history() != state.history()
                    checked += 1
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert checked > 10 and differed > checked // 2  # the hidden cards do change


def test_an_opening_sweep_is_no_card_played():
    rules = Rules.preset("escoba")
    game = Match(rules, hand_seed="open-3").hand  # the dealer sweeps an opening table of 15
    assert game.history and game.history[0][1] & 63 == OPENING
    layout = Layout(rules)
    a, b = layout.sections["played"]
    for seat in range(rules.players):
        obs = layout.encode(PlayerView.of(game, seat), None)
        assert not obs[a:b].any()
        info = layout.encode_info(PlayerView.of(game, seat), None)
        first_play = info[layout.size : layout.size + layout.play_width]
        assert first_play[rules.players : rules.players + 40].sum() == 0  # no card
        assert first_play[rules.players + 40 : rules.players + 80].sum() == 4  # the table
