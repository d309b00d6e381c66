"""The tracked observations (kept up to date play by play) always equal the full encoding
of the seat's view: after every action of random play of every preset, for every seat,
whether a seat looks at every step or only now and then, across deals of a match."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Rules
from scopa.hand import Hand
from scopa.match import Match
from scopa.rl.actions import apply_action, legal_actions
from scopa.rl.encoding import Layout
from scopa.rl.episode import Episode
from scopa.rl.tracker import Tracker
from scopa.view import PlayerView

from .helpers import TABLES


def assert_tracked(tracker: Tracker, layout: Layout, game: Hand, turn, seats) -> None:
    for seat in seats:
        tracked = tracker.observe(game, turn, seat)
        full = layout.encode(PlayerView.of(game, seat), turn)
        assert np.array_equal(tracked, full), f"seat {seat} after {len(game.history)} plays"


def random_hand(rules: Rules, seed: int, look: float) -> None:
    """Play one hand by random actions; after each, some seats (probability ``look``
    each, always the one to move) compare the tracked and the full encoding."""
    rng = random.Random(seed)
    layout = Layout(rules)
    tracker = Tracker(layout)
    game = Match(rules, hand_seed=f"tracked-{seed}").hand
    turn = None
    while True:
        seats = [s for s in range(rules.players) if s == game.to_move or rng.random() < look]
        assert_tracked(tracker, layout, game, turn, seats)
        if game.hand_over:
            break
        turn = apply_action(game, turn, rng.choice(legal_actions(game, turn)))


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.variant}-{r.players}")
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), look=st.sampled_from([0.0, 0.3, 1.0]))
def test_tracked_observation_equals_the_full_encoding(rules, seed, look):
    random_hand(rules, seed, look)


def test_a_match_rebuilds_at_each_deal_and_a_new_game_is_never_mixed_up():
    rules = Rules.preset("scopa", target=11)
    ep = Episode(rules, episode="match")
    rng = random.Random(3)
    ep.reset("tracked-match")
    hands = 0
    while not ep.done:
        for seat in range(rules.players):
            full = ep.layout.encode(PlayerView.of(ep.game.hand, seat), ep.turn)
            assert np.array_equal(ep.observe(seat), full)
        mask = ep.mask()
        ep.act(int(rng.choice(np.flatnonzero(mask))))
        hands += ep.hand_end is not None
    assert hands >= 2
    # another game at the same point of its deal: built from its own view, not diffed
    other = Match(rules, hand_seed="another").hand
    assert np.array_equal(ep.tracker.observe(other, None, 0),
                          ep.layout.encode(PlayerView.of(other, 0), None))


def test_a_tracked_vector_is_the_callers_to_keep():
    rules = Rules.preset("scopa")
    ep = Episode(rules)
    ep.reset("kept")
    first = ep.observe(0)
    before = first.copy()
    ep.act(int(np.flatnonzero(ep.mask())[0]))
    ep.observe(0)
    assert np.array_equal(first, before)


def test_write_fills_the_callers_array_with_the_observation():
    rules = Rules.preset("scopone")
    ep = Episode(rules)
    ep.reset("written")
    rng = random.Random(5)
    out = np.full(ep.layout.size, -1.0, dtype=np.float32)
    while not ep.done:
        seat = rng.randrange(rules.players)
        ep.tracker.write(out, ep.game.hand, ep.turn, seat)
        assert np.array_equal(out, ep.layout.encode(PlayerView.of(ep.game.hand, seat), ep.turn))
        ep.act(int(rng.choice(np.flatnonzero(ep.mask()))))
