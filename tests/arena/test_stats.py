"""Arena statistics: ratings fitted to all deals at once, deal records, running means."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scopa.arena.stats import RunningMean, fit_ratings, mean_se, won_drawn_lost


def _one_by_one(games: list[list[float]], players: int) -> list[tuple[float, float]]:
    """The old way: openskill updated deal by deal, in the order given."""
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(players)]
    for scores in games:
        ratings = [team[0] for team in model.rate([[r] for r in ratings], scores=scores)]
    return [(r.mu, r.sigma) for r in ratings]


def _issue_like_deals() -> list[list[float]]:
    """100 duplicate deals like the issue's: the first bot wins 52 and loses 39 (9 drawn)
    by a clear margin overall, but the last 20 go 6-11."""
    rng = random.Random(3)

    def deals(won: int, lost: int, drawn: int) -> list[list[float]]:
        out = ([[m, -m] for m in (rng.choice([1.0, 1.5, 2.0, 3.0]) for _ in range(won))]
               + [[-m, m] for m in (rng.choice([0.5, 1.0, 1.5]) for _ in range(lost))]
               + [[0.0, 0.0]] * drawn)
        rng.shuffle(out)
        return out

    return deals(46, 28, 6) + deals(6, 11, 3)


def test_issue_data_flips_the_old_rating_but_not_the_fitted_one() -> None:
    games = _issue_like_deals()
    assert won_drawn_lost([g[0] for g in games]) == (52, 9, 39)
    assert mean_se([g[0] for g in games])[0] > 0.4
    # rated one deal at a time, the order decides who is better
    played, last_first = _one_by_one(games, 2), _one_by_one(games[80:] + games[:80], 2)
    assert played[0][0] < played[1][0] and last_first[0][0] > last_first[1][0]
    # fitted to all deals at once, the better bot is rated higher whatever the order
    orders = (games, games[::-1], games[80:] + games[:80], sorted(games),
              random.Random(1).sample(games, 100))
    for order in orders:
        (mu_a, sigma_a), (mu_b, sigma_b) = fit_ratings(order, 2)
        assert mu_a > mu_b + 2 * math.hypot(sigma_a, sigma_b) / 2
        assert fit_ratings(order, 2) == fit_ratings(games, 2)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), max_size=30),
    st.randoms(use_true_random=False),
)
def test_rating_is_independent_of_deal_order(games: list[list[int]], rng: random.Random) -> None:
    scores = [[float(s) for s in g] for g in games]
    shuffled = rng.sample(scores, len(scores))
    assert fit_ratings(shuffled, 3) == fit_ratings(scores, 3)


def test_ratings_are_the_plackett_luce_model_on_openskills_scale() -> None:
    # 600 wins to 400 losses: the fitted ratings predict the first bot wins 60% of deals
    games = [[1.0, -1.0]] * 600 + [[-1.0, 1.0]] * 400
    (mu_a, _), (mu_b, _) = fit_ratings(games, 2)
    c = PlackettLuce().beta * math.sqrt(2)
    assert 1 / (1 + math.exp((mu_b - mu_a) / c)) == pytest.approx(0.6, abs=0.005)
    assert (mu_a + mu_b) / 2 == pytest.approx(PlackettLuce().mu)


def test_draws_are_half_a_win_and_even_records_rate_alike() -> None:
    wins_and_losses = [[1.0, -1.0]] * 30 + [[-1.0, 1.0]] * 20
    with_draws = [[1.0, -1.0]] * 25 + [[-1.0, 1.0]] * 15 + [[0.0, 0.0]] * 10
    a, b = fit_ratings(wins_and_losses, 2), fit_ratings(with_draws, 2)
    assert a[0][0] - a[1][0] == pytest.approx(b[0][0] - b[1][0], rel=0.05)
    (mu_a, _), (mu_b, _) = fit_ratings([[0.0, 0.0]] * 40, 2)
    assert mu_a == pytest.approx(mu_b)


def test_three_bots_in_order_and_sigma_shrinks_with_deals() -> None:
    games = [[2.0, 0.0, -2.0]] * 6 + [[0.0, 2.0, -2.0]] * 3 + [[-2.0, 2.0, 0.0]] * 1
    few = fit_ratings(games, 3)
    many = fit_ratings(games * 10, 3)
    assert few[0][0] > few[1][0] > few[2][0]
    assert all(m[1] < f[1] for m, f in zip(many, few, strict=True))
    assert fit_ratings([], 3)[0][0] == pytest.approx(PlackettLuce().mu)
    with pytest.raises(ValueError, match="3 scores for 2 players"):
        fit_ratings([[1.0, 2.0, 3.0]], 2)


def test_won_drawn_lost_and_running_mean() -> None:
    assert won_drawn_lost([1.5, 0.0, -0.5, 1e-12, 2.0]) == (2, 2, 1)
    values = [0.5, -1.0, 2.0, 3.5, -0.25]
    running = RunningMean()
    for v in values:
        running.add(v)
    mean = sum(values) / 5
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / 4 / 5)
    assert running.mean_se() == pytest.approx((mean, se))
    assert mean_se([]) == (0.0, 0.0) and mean_se([2.0]) == (2.0, 0.0)


def test_pairings_rate_a_pool_in_its_order() -> None:
    """Bots met in pairs only (a level against each pool bot): the fit still orders the
    pool by results, and a pairing alone equals the two-player fit."""
    from scopa.arena.stats import fit_subset_ratings

    # 0 beats 1 beats 2, never meeting directly 0-2
    games = [{0: 1.0, 1: -1.0}] * 30 + [{0: -1.0, 1: 1.0}] * 10
    games += [{1: 1.0, 2: -1.0}] * 30 + [{1: -1.0, 2: 1.0}] * 10
    fitted = fit_subset_ratings(games, 3)
    assert fitted[0][0] > fitted[1][0] > fitted[2][0]
    pair = [[1.0, -1.0]] * 30 + [[-1.0, 1.0]] * 10
    assert fit_subset_ratings([dict(enumerate(g)) for g in pair], 2) == fit_ratings(pair, 2)
    with pytest.raises(ValueError):
        fit_subset_ratings([{0: 1.0, 3: -1.0}], 3)
