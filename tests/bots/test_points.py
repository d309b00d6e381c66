"""The fast point count agrees with the engine's score sheet; the exact solver agrees with
plain minimax."""

from __future__ import annotations

import random

import pytest

from scopa.bots.exact import _maxn, solve
from scopa.bots.points import margin, match_bonus, side_points, utility
from scopa.hand import Hand
from scopa.match import Match, totals_after, winner_after
from scopa.notation import load_position
from scopa.playout import random_playout
from scopa.scoring import score_hand

from .helpers import all_rules, rules_id


@pytest.mark.parametrize("rules", all_rules(), ids=rules_id)
def test_side_points_match_score_hand(rules) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(rules_id(rules))
    for i in range(40):
        g = Match(rules, seed=f"pts-{i}").hand
        random_playout(g, rng)
        sheet = score_hand(rules, g.captured, g.scope)
        assert side_points(rules, g.captured, g.scope) == [s["total"] for s in sheet["sides"]]


def test_margin_and_match_bonus() -> None:
    assert margin([5, 2], 0) == 3
    assert margin([3, 6, 0], 1) == pytest.approx(4.5)
    g = Match.new("scopa", seed=5).hand
    assert match_bonus(g.rules, [9, 3], [2, 1], 0) == 1.0
    assert match_bonus(g.rules, [9, 10], [2, 1], 0) == 0.0  # 11 each: tie, play on
    assert match_bonus(g.rules, [0, 10], [2, 1], 0) == -1.0
    assert match_bonus(g.rules, [0, 0], [2, 1], 0) == 0.0


def _endgame(variant: str, seed: int) -> Hand:
    g = Match.new(variant, seed=seed).hand
    rng = random.Random(seed)
    while g.stock or g.in_hands > 6:
        codes = g.legal_codes()
        g.play_code(codes[int(rng.random() * len(codes))])
    return g


@pytest.mark.parametrize("variant", ["scopa", "scopone-scientifico", "quindici"])
def test_alphabeta_equals_minimax(variant: str) -> None:
    for seed in range(12):
        g = _endgame(variant, seed)
        side = g.to_move % g.rules.teams
        assert solve(g, side) == pytest.approx(_maxn(g, False)[side])


def test_exact_value_is_reached_by_some_line() -> None:
    """The solved value is the utility of an actual end of the hand."""
    g = _endgame("scopa", 77)
    side = g.to_move % 2
    value = solve(g, side)
    ends = set()

    def walk(h: Hand) -> None:
        if h.hand_over:
            ends.add(utility(h, side))
            return
        for c in h.legal_codes():
            k = h.copy()
            k.play_code(c)
            walk(k)

    walk(g)
    assert min(ends) <= value <= max(ends)
    assert value in ends


def test_match_aware_utility_values_the_deciding_points() -> None:
    for seed in range(50):  # a hand that side 0 wins on points
        g = Match.new("scopa", seed=seed).hand
        random_playout(g, random.Random(seed))
        pts = side_points(g.rules, g.captured, g.scope)
        if pts[0] > pts[1]:
            break
    plain = utility(g, 0)
    assert plain == pts[0] - pts[1]
    assert utility(g, 0, match_aware=True) == plain  # nobody near the target
    g.scores = [g.rules.target - 1, 0]  # now the hand wins side 0 the match
    assert utility(g, 0, match_aware=True) == plain + 4.0
    assert utility(g, 1, match_aware=True) == -plain - 4.0


def _finished(rules_dict: dict, piles: list[list[str]], scores: list[int]) -> Hand:
    """A finished hand with these piles (every card in some pile)."""
    return load_position({
        "rules": rules_dict, "dealer": 1, "to_move": 0, "hands": [[], []], "table": [],
        "stock": [], "captured": piles, "scope": [0, 0], "last_capturer": 0,
        "scores": scores,
    })


def test_match_bonus_follows_the_engines_winner_with_napola_outright() -> None:
    """All ten coins win outright even when the other side ends with more points: the
    search's match bonus must name the same winner as the match (``winner_after``; it
    re-implemented the winner and disagreed here)."""
    coins = [f"{r}d" for r in range(1, 11)]
    others = [f"{r}{s}" for s in "csb" for r in range(1, 11)]
    rules = {"variant": "napola", "players": 2, "target": 21, "napola_outright": True}
    g = _finished(rules, [coins, others], scores=[0, 20])
    totals = totals_after(g)
    assert totals[1] > totals[0] and totals[1] >= g.rules.target
    assert winner_after(g) == 0
    assert utility(g, 0, match_aware=True) > utility(g, 0, match_aware=False)
    assert utility(g, 1, match_aware=True) < utility(g, 1, match_aware=False)


@pytest.mark.parametrize("rules", all_rules(), ids=rules_id)
def test_match_bonus_agrees_with_the_winner(rules) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(rules_id(rules))
    for i in range(20):
        g = Match(rules, seed=f"mb-{i}").hand
        random_playout(g, rng)
        g.scores = [rng.randrange(rules.target + 3) for _ in g.scores]
        side = rng.randrange(rules.teams)
        bonus = utility(g, side, True) - utility(g, side, False)
        winner = winner_after(g)
        want = 0.0 if winner is None else (1.0 if winner == side else -1.0)
        assert bonus == pytest.approx(4.0 * want)
