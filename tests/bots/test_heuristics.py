"""Greedy and heuristic bots behave like their descriptions."""

from __future__ import annotations

import random

import pytest

from scopa import Move, Rules
from scopa.bots import make_bot
from scopa.bots.heuristic import game_score, heuristic_score, p_holds
from scopa.match import Match
from scopa.view import PlayerView

from .helpers import all_rules, rules_id, view_2p

UNSEEN = ["9b", "1s", "5c", "6d", "8b", "1b", "10s", "2s"]


def test_greedy_takes_the_settebello() -> None:
    view = view_2p(hand=["7c", "5s", "1d"], table=["7d", "5b"], unseen=["9b", "1s", "6d"], opp=3)
    for seed in range(5):
        assert make_bot("greedy", seed).choose(view) == Move.parse("7c:7d")


def test_greedy_prefers_a_sweep() -> None:
    view = view_2p(hand=["5c", "3s", "1d"], table=["3b", "2b"], unseen=["9b", "1s", "6d"], opp=3)
    assert make_bot("greedy", 0).choose(view) == Move.parse("5c:2b+3b")


def test_heuristic_does_not_leave_a_sweep() -> None:
    """Laying the 2 leaves 3 + 4 + 2 = 9 with knights unseen; the king leaves 17."""
    view = view_2p(hand=["2c", "10b"], table=["3s", "4c"], unseen=UNSEEN, opp=2)
    a, b = Move.parse("2c"), Move.parse("10b")
    assert heuristic_score(view, b) > heuristic_score(view, a)
    for seed in range(5):
        assert make_bot("heuristic", seed).choose(view) == b


def test_heuristic_knows_which_cards_are_gone() -> None:
    """With no knight unseen, leaving 9 on the table is safe: no sweep penalty."""
    unseen = [c for c in UNSEEN if c != "9b"] + ["3d"]
    safe = view_2p(hand=["2c", "10b"], table=["3s", "4c"], unseen=unseen, opp=2)
    risky = view_2p(hand=["2c", "10b"], table=["3s", "4c"], unseen=UNSEEN, opp=2)
    lay_two = Move.parse("2c")
    assert heuristic_score(safe, lay_two) > heuristic_score(risky, lay_two)


def test_p_holds() -> None:
    assert p_holds(10, 0, 3) == 0.0
    assert p_holds(10, 10, 3) == 1.0
    assert abs(p_holds(4, 1, 2) - 0.5) < 1e-12
    assert p_holds(3, 1, 5) == 1.0


@pytest.mark.parametrize("rules", all_rules(), ids=rules_id)
def test_game_score_equals_the_view_score(rules: Rules) -> None:
    """A search models a good player's reply with ``game_score`` on a full state; it must
    rate every move exactly as the heuristic bot does from that seat's view."""
    rng = random.Random(rules_id(rules))
    checked = 0
    for k in range(3):
        g = Match(rules, hand_seed=f"gs{k}").hand
        while not g.hand_over:
            view = PlayerView.of(g, g.to_move)
            for code in g.legal_codes():
                assert game_score(g, code) == heuristic_score(view, Move.from_code(code))
                checked += 1
            g.play_code(rng.choice(g.legal_codes()))
    assert checked > 50
