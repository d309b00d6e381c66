"""The play model's clues: past views rebuilt exactly, clues that fit the truth, every
variant handled."""

from __future__ import annotations

import random

import pytest

from scopa import Rules
from scopa.bots import HeuristicBot, SearchBot
from scopa.bots.inference import sweeping_ranks
from scopa.bots.play_model import _before_each_play, play_clues
from scopa.bots.worlds import WorldSampler, clue_kind, sweep_clues
from scopa.cards import RANK_MASK
from scopa.match import Match
from scopa.view import PlayerView

from .helpers import TINY, all_rules, rules_id


def test_past_tables_piles_and_hand_sizes_are_rebuilt_exactly() -> None:
    for variant in ["scopa", "scopone", "escoba", "asso-pigliatutto"]:
        for seed in range(4):
            g = Match.new(variant, seed=seed).hand
            rng = random.Random(seed)
            seen = []
            while not g.hand_over:
                seen.append((g.table, tuple(g.captured), tuple(h.bit_count() for h in g.hands)))
                round_before = g.round
                g.play(rng.choice(g.legal_moves()))
                if g.hand_over:
                    break
                view = PlayerView.of(g, g.to_move)
                before = _before_each_play(view)
                plays = [b for b, (_, code, _) in zip(before, view.history, strict=True)
                         if code & 63 != 63]
                # sizes are only rebuilt within the current round; tables and piles always
                assert [(t, p) for t, p, _ in plays] == [(t, p) for t, p, _ in seen]
                if g.round == round_before:
                    assert plays[-1][2] == seen[-1][2]


def test_true_hands_of_a_good_player_fit_its_clues_better_than_random_hands() -> None:
    fits, randoms, informative = [], [], 0
    for deal in range(12):
        g = Match.new("scopa", seed=f"clues-{deal}").hand
        bots = [HeuristicBot(deal), HeuristicBot(deal + 100)]
        while not g.hand_over:
            if g.to_move == 0:
                view = PlayerView.of(g, 0)
                sampler = WorldSampler(view, random.Random(deal), "plays")
                if sampler.clues:
                    informative += 1
                    fits.append(sampler.weight(g))
                    randoms.append(
                        sum(sampler.weight(view.sample(random.Random(k))) for k in range(20)) / 20
                    )
            g.play(bots[g.to_move].choose(PlayerView.of(g, g.to_move)))
    assert informative >= 20
    assert sum(fits) / len(fits) > 0.9
    assert sum(fits) / len(fits) > sum(randoms) / len(randoms) + 0.1


def test_a_card_that_would_have_swept_is_ruled_out() -> None:
    # a seat faces a table it could sweep with an unseen rank, holds none, and lays a card
    rng = random.Random(5)
    for game in range(200):
        g = Match.new("scopa", seed=f"sweep-{game}").hand
        while not g.hand_over:
            ranks = sweeping_ranks(g.rules, g.table)
            seat = g.to_move
            other = 1 - seat
            legal = g.legal_moves()
            lays = [m for m in legal if not m.capture]
            if ranks and len(lays) == len(legal) and g.in_hands > 1:
                g.play(lays[0])
                view = PlayerView.of(g, other)
                if view.round != g.round or not view.my_turn:
                    break
                clues = [c for c in play_clues(view) if c.seat == seat]
                unseen = view.unseen() & RANK_MASK[ranks[0]]
                if not unseen:
                    break
                assert clues
                assert all(clues[-1].weights[c] < 0.01 for c in range(40) if unseen >> c & 1)
                return
            g.play(rng.choice(legal))
    pytest.fail("no position found")


@pytest.mark.parametrize("rules", all_rules(), ids=rules_id)
def test_every_variant_gets_clues_and_a_legal_move(rules: Rules) -> None:
    g = Match(rules, seed="pm").hand
    rng = random.Random(1)
    for _ in range(rules.players * 2):
        if g.hand_over:
            break
        g.play(rng.choice(g.legal_moves()))
    if g.hand_over:
        return
    view = PlayerView.of(g, g.to_move)
    for clue in play_clues(view):
        assert clue.seat != view.seat
        assert all(0.0 < w <= 1.0 for w in clue.weights)
    sweep_clues(view)
    bot = SearchBot(1, clues="plays", default_limit=TINY)
    assert bot.choose(view) in view.legal_moves()


def test_clue_settings() -> None:
    assert clue_kind(True, 2) == "plays"
    assert clue_kind(True, 4) == "sweeps"
    assert clue_kind(False, 2) == "none"
    with pytest.raises(ValueError, match="unknown clues"):
        clue_kind("tea-leaves", 2)
    with pytest.raises(ValueError, match="unknown clues"):
        SearchBot(1, clues="tea-leaves")
