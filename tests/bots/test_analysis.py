"""analysis.analyse: exactly the legal moves, best first, explained, reproducible."""

from __future__ import annotations

import random

import pytest

from scopa import Move
from scopa.bots import Limit
from scopa.bots.analysis import analyse
from scopa.match import Match
from scopa.messages import sentence
from scopa.view import PlayerView

from .helpers import all_rules, rules_id, view_2p

LIMIT = Limit(simulations=60)


@pytest.mark.parametrize("rules", all_rules()[::3], ids=rules_id)
def test_lists_exactly_the_legal_moves(rules) -> None:  # type: ignore[no-untyped-def]
    g = Match(rules, seed="analyse").hand
    rng = random.Random(1)
    for _ in range(3):
        g.play(rng.choice(g.legal_moves()))
    view = PlayerView.of(g, g.to_move)
    result = analyse(view, LIMIT, seed=1)
    assert sorted(r.move for r in result) == sorted(view.legal_moves())
    values = [r.value for r in result]
    assert values == sorted(values, reverse=True)
    for r in result:
        assert isinstance(r.move, Move)
        assert r.explanation and r.explanation[0].isupper()
        assert r.reasons and r.margin
        assert r.explanation == " ".join(sentence(m) for m in r.reasons + r.margin)
        assert r.samples > 0


def test_reproducible_with_a_seed() -> None:
    g = Match.new("scopa", seed="analyse-seed").hand
    view = PlayerView.of(g, g.to_move)
    a = analyse(view, LIMIT, seed=5)
    b = analyse(view, LIMIT, seed=5)
    assert a == b


def test_refuses_when_not_the_seats_turn() -> None:
    g = Match.new("scopa", seed=1).hand
    with pytest.raises(ValueError, match="turn"):
        analyse(PlayerView.of(g, (g.to_move + 1) % 2), LIMIT)
    with pytest.raises(TypeError):
        analyse(g, LIMIT)  # type: ignore[arg-type]


def test_last_round_is_exact() -> None:
    """Stock empty, opponent's hand known by elimination: values are exact margins, and
    a sweep that decides the hand is found."""
    view = view_2p(hand=["7d", "2c"], table=["3s", "4c"], unseen=["9b", "5s"], opp=2)
    result = analyse(view, Limit(simulations=10), seed=0)
    assert str(result[0].move) == "7d:4c+3s" or str(result[0].move) == "7d:3s+4c"
    assert "sweeps the table" in result[0].explanation
    assert "settebello" in result[0].explanation
    assert result[0].value > result[-1].value
