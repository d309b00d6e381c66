"""The learned card-location model (issue 32): the shipped weights load, its probabilities
are valid and sum to the opponent's hand size, only unseen cards get any, and its features
never read hidden cards."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb, exp, log

import pytest

from scopa.bots import HeuristicBot
from scopa.bots.card_model import (
    FEATURES,
    WIDTH,
    CardModel,
    applies,
    card_features,
    clue_posterior,
    layout_log_likelihood,
    model_for,
    normalise,
    uniform_layout_log_likelihood,
)
from scopa.match import Match
from scopa.view import PlayerView


def views(seed: str, every: int = 1):  # type: ignore[no-untyped-def]  # noqa: ANN201
    """(game, view) at the turns of a heads-up hand between heuristic players where the
    model applies."""
    game = Match.new("scopa", seed=seed).hand
    bots = [HeuristicBot(f"{seed}-0"), HeuristicBot(f"{seed}-1")]
    turn = 0
    while not game.hand_over:
        view = PlayerView.of(game, game.to_move)
        if applies(view) and turn % every == 0:
            yield game, view
        turn += 1
        game.play(bots[game.to_move].choose(view))


def test_the_shipped_weights_load_and_round_trip() -> None:
    model = model_for("scopa")
    assert len(model.w) == WIDTH == len(FEATURES)
    assert model_for("escoba") is model_for("scopa") or model_for("escoba").w == model.w
    again = CardModel.from_dict(model.to_dict())
    assert again.w == model.w
    with pytest.raises(ValueError):
        CardModel.from_dict(model.to_dict() | {"features": ["bias"]})
    with pytest.raises(ValueError):
        CardModel([0.0] * (WIDTH - 1))


def test_probabilities_are_valid_sum_to_the_hand_size_and_only_unseen_cards_get_one() -> None:
    model = model_for("scopa")
    checked = 0
    for seed in range(3):
        for _, view in views(f"cards-valid-{seed}"):
            p = model.marginals(view)
            k = view.hand_sizes[1 - view.seat]
            assert set(p) == {c for c in range(40) if view.unseen() >> c & 1}
            seen = view.hand | view.table
            for pile in view.captured:
                seen |= pile
            assert not any(seen >> c & 1 for c in p)
            assert all(0.0 < q < 1.0 for q in p.values())
            assert sum(p.values()) == pytest.approx(k, abs=1e-6)
            checked += 1
    assert checked >= 30


def test_the_features_never_read_hidden_cards() -> None:
    """The same view over other hidden layouts (the opponent's hand and the stock dealt
    again) gives the same features, and a different own hand does change them."""
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        for game, view in views(f"cards-hidden-{seed}"):
            unseen, rows = card_features(view)
            for _ in range(3):
                other = view.sample(rng)
                assert other.hands[1 - view.seat] != game.hands[1 - view.seat] or \
                    other.stock != game.stock or len(unseen) <= 1
                again = PlayerView.of(other, view.seat)
                assert again == view
                assert card_features(again) == (unseen, rows)
            checked += 1
    assert checked >= 30


def test_normalise_keeps_the_order_and_sums_to_k() -> None:
    z = [2.0, -1.0, 0.5, 0.5, -3.0]
    for k in range(1, 5):
        p = normalise(z, k)
        assert sum(p) == pytest.approx(k, abs=1e-9)
        assert p[0] > p[2] > p[1] > p[4]
        assert p[2] == pytest.approx(p[3])
    assert normalise(z, 0) == [0.0] * 5
    assert normalise(z, 5) == [1.0] * 5


def test_the_hand_likelihood_is_a_distribution_over_hands_of_the_true_size() -> None:
    z = [0.3, -1.2, 2.0, 0.0, 0.7, -0.4]
    for k in (1, 2, 3):
        total = 0.0
        for combo in combinations(range(len(z)), k):
            held = [i in combo for i in range(len(z))]
            total += exp(layout_log_likelihood(z, held))
        assert total == pytest.approx(1.0)
    # equal logits: uniform over hands
    held = [True, False, True, False, False, False]
    assert layout_log_likelihood([0.4] * 6, held) == pytest.approx(-log(comb(6, 2)))
    assert uniform_layout_log_likelihood(6, 2) == pytest.approx(-log(comb(6, 2)))


def test_the_play_models_exact_posterior_is_a_distribution() -> None:
    for game, view in views("cards-posterior", every=4):
        opp = 1 - view.seat
        unseen, _ = card_features(view)
        held = [bool(game.hands[opp] >> c & 1) for c in unseen]
        p, ll = clue_posterior(view, unseen, held)
        assert sum(p) == pytest.approx(view.hand_sizes[opp])
        assert all(-1e-12 <= q <= 1 + 1e-12 for q in p)
        assert ll <= 0.0


def test_the_cards_sampler_draws_consistent_worlds_at_the_models_marginals() -> None:
    from scopa.bots.worlds import WorldSampler

    model = model_for("scopa")
    for _game, view in list(views("cards-sampler", every=5))[:4]:
        sampler = WorldSampler(view, random.Random(7), "cards")
        assert sampler.card_draw is not None
        opp = 1 - view.seat
        # the model's distribution over whole hands, by enumeration
        unseen, rows = card_features(view)
        z = model.logits(rows)
        k = view.hand_sizes[opp]
        exact = dict.fromkeys(unseen, 0.0)
        for combo in combinations(range(len(unseen)), k):
            q = exp(layout_log_likelihood(z, [i in combo for i in range(len(unseen))]))
            for i in combo:
                exact[unseen[i]] += q
        counts = dict.fromkeys(unseen, 0)
        draws = 3000
        for _ in range(draws):
            world = sampler.draw()
            assert PlayerView.of(world, view.seat) == view
            assert world.hands[opp].bit_count() == view.hand_sizes[opp]
            for c in counts:
                counts[c] += world.hands[opp] >> c & 1
        for c, p in exact.items():
            assert counts[c] / draws == pytest.approx(p, abs=0.035)
    # elsewhere (four seats) the kind falls back to uniform worlds
    g4 = Match.new("scopone", seed="cards-four").hand
    sampler = WorldSampler(PlayerView.of(g4, g4.to_move), random.Random(1), "cards")
    assert sampler.card_draw is None
    assert PlayerView.of(sampler.draw(), g4.to_move) == PlayerView.of(g4, g4.to_move)


def test_a_hidden_layer_adds_its_relu_units_and_round_trips() -> None:
    w = [0.1 * i for i in range(WIDTH)]
    w1 = [[0.01 * (i - j) for i in range(WIDTH)] for j in range(3)]
    model = CardModel(w, {}, w1, [0.5, -40.0, 0.0], [1.0, 2.0, -1.0])
    x = [1.0] * WIDTH
    linear = sum(w)
    units = [max(0.0, b + sum(r)) for r, b in zip(w1, [0.5, -40.0, 0.0], strict=True)]
    expected = linear + units[0] + 2.0 * units[1] - units[2]
    assert model.logit(x) == pytest.approx(expected)
    assert CardModel.from_dict(model.to_dict()).logit(x) == pytest.approx(expected)
    with pytest.raises(ValueError):
        CardModel(w, {}, w1, [0.0], [1.0, 2.0, -1.0])
