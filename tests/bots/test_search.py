"""The search bot's variants (algorithms, rollouts) play legal, reproducible moves, and
rollouts finish hands by the rules."""

from __future__ import annotations

import random

import pytest

from scopa.bots import Limit, SearchBot
from scopa.bots.points import side_points
from scopa.bots.rollout import ROLLOUTS
from scopa.bots.search import known_world
from scopa.cards import ALL_CARDS
from scopa.match import Match
from scopa.notation import load_position
from scopa.scoring import score_hand
from scopa.view import PlayerView

from .helpers import all_rules, rules_id

LIMIT = Limit(simulations=30)


@pytest.mark.parametrize("rules", all_rules()[::2], ids=rules_id)
@pytest.mark.parametrize("rollout", sorted(ROLLOUTS))
def test_rollouts_finish_the_hand(rules, rollout) -> None:  # type: ignore[no-untyped-def]
    g = Match(rules, seed=f"roll-{rollout}").hand
    rng = random.Random(0)
    for _ in range(10):
        h = g.copy()
        ROLLOUTS[rollout](h, rng)
        assert h.hand_over
        assert not any(h.hands) and not h.stock
        piles = 0
        for p in h.captured:
            assert not piles & p
            piles |= p
        assert piles | h.table == ALL_CARDS
        sheet = score_hand(rules, h.captured, h.scope)
        assert side_points(rules, h.captured, h.scope) == [s["total"] for s in sheet["sides"]]


@pytest.mark.parametrize("variant", ["scopa", "scopone-scientifico", "escoba"])
@pytest.mark.parametrize("algorithm", ["pimc", "minimax"])
def test_algorithms_play_whole_hands(variant: str, algorithm: str) -> None:
    g = Match.new(variant, seed=f"algo-{algorithm}").hand
    bots = [SearchBot(s, algorithm=algorithm, rollout="smart") for s in range(g.n)]
    while not g.hand_over:
        move = bots[g.to_move].choose(PlayerView.of(g, g.to_move), LIMIT)
        assert move in g.legal_moves()
        g.play(move)


@pytest.mark.parametrize("algorithm", ["pimc", "minimax"])
def test_algorithms_reproduce(algorithm: str) -> None:
    g = Match.new("scopa", seed="algo-repro").hand
    view = PlayerView.of(g, g.to_move)
    picks = {SearchBot(3, algorithm=algorithm).choose(view, LIMIT) for _ in range(3)}
    assert len(picks) == 1


def test_unknown_algorithm() -> None:
    with pytest.raises(ValueError, match="algorithm"):
        SearchBot(0, algorithm="telepathy")


def test_known_world_only_at_the_end() -> None:
    g = Match.new("scopa", seed="known").hand
    assert not known_world(PlayerView.of(g, 0))
    while g.stock or g.in_hands > 4:
        g.play(g.legal_moves()[0])
    assert known_world(PlayerView.of(g, g.to_move))
    g4 = Match.new("scopone-scientifico", seed="known4").hand
    assert not known_world(PlayerView.of(g4, 0))


def test_sound_rollout_keeps_from_laying_into_the_next_hands_sweep() -> None:
    # Seat 0 holds 5c, 9s, 10d on a table of 2d; seat 1 holds a 7. Laying the 5 leaves
    # 2 + 5 = 7 for seat 1 to sweep; the 9 and the 10 leave sums above 10. Only the random
    # tenth of plays may lay the 5 (a third of them), where a careless policy would lay it
    # a third of the time.
    from scopa.cards import card_text

    hands = [["5c", "9s", "10d"], ["7b", "1s", "2s"]]
    used = {c for h in hands for c in h} | {"2d", "3d", "4d", "6d"}
    stock = [card_text(c) for c in range(40) if card_text(c) not in used]
    position = {
        "rules": {"variant": "scopa"}, "dealer": 1, "to_move": 0,
        "hands": hands, "table": ["2d"], "stock": stock,
        "captured": [[], ["3d", "4d", "6d"]], "scope": [0, 0], "last_capturer": 1,
        "scores": [0, 0],
    }
    game = load_position(position)
    first_cards = {}
    for policy in ("sound", "capture"):
        laid_five = 0
        for seed in range(300):
            g = game.copy()
            ROLLOUTS[policy](g, random.Random(seed))
            first = g.history[0][1] & 63
            laid_five += card_text(first) == "5c"
        first_cards[policy] = laid_five / 300
    assert first_cards["sound"] < 0.1
    assert first_cards["capture"] > 0.2  # the situation does tempt a careless policy
