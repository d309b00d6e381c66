"""The ``learned`` bot: its fast score is the network's, it plays only legal moves in every
variant, it sees only its view, and a network of the wrong shape is refused."""

from __future__ import annotations

import random

import pytest

from scopa.bots import bot_names, make_bot
from scopa.bots.learned import INPUTS, MoveScorer, dense, move_inputs, scorer_for
from scopa.match import Match
from scopa.view import PlayerView

from .helpers import all_rules, choose, rules_id


def reference(scorer: MoveScorer, x: list[float]) -> float:
    """The network on dense inputs, written out plainly."""
    w1 = list(zip(*scorer.cols, strict=True))
    hidden = [max(0.0, b + sum(w * v for w, v in zip(row, x, strict=True)))
              for row, b in zip(w1, scorer.b1, strict=True)]
    return scorer.b2 + sum(w * h for w, h in zip(scorer.w2, hidden, strict=True))


def test_learned_is_registered_and_its_fast_score_is_the_networks():
    assert "learned" in bot_names()
    scorer = scorer_for("scopa")
    rng = random.Random(5)
    game = Match.new("scopa", seed="learned-score").hand
    checked = 0
    while not game.hand_over and checked < 40:
        view = PlayerView.of(game, game.to_move)
        for move in view.legal_moves():
            bits, values = move_inputs(view, move)
            fast = scorer.score(bits, values)
            assert fast == pytest.approx(reference(scorer, dense(bits, values)), abs=1e-9)
            checked += 1
        game.play(rng.choice(game.legal_moves()))
    assert checked >= 20


@pytest.mark.parametrize("rules", all_rules(), ids=rules_id)
def test_learned_plays_only_legal_moves(rules):
    game = Match(rules, seed=f"learned-{rules_id(rules)}").hand
    bots = [make_bot("learned", seat) for seat in range(rules.players)]
    while not game.hand_over:
        move = choose(bots[game.to_move], game)
        assert move in game.legal_moves()
        game.play(move)


def test_learned_sees_only_its_view():
    game = Match.new("scopa", seed="learned-fair").hand
    rng = random.Random(1)
    for _ in range(4):
        game.play(rng.choice(game.legal_moves()))
    seat = game.to_move
    view = PlayerView.of(game, seat)
    other = view.sample(random.Random(9))
    assert (other.hands, other.stock) != (game.hands, game.stock)
    mirror = PlayerView.of(other, seat)
    assert make_bot("learned", 3).choose(view) == make_bot("learned", 3).choose(mirror)


def test_a_network_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError, match="shapes"):
        MoveScorer([[0.0] * (INPUTS - 1)], [0.0], [1.0], 0.0)
    with pytest.raises(ValueError, match="format"):
        MoveScorer.from_dict({"format": 99})
