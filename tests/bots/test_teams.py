"""The search among partners near the end of a Scopone hand (``teams.py``): worlds solved
once each, the exact values decide, a good player's likely replies break ties."""

from __future__ import annotations

import random

import pytest

from scopa import Rules
from scopa.bots import Limit, SearchBot
from scopa.bots.endgame import model_value
from scopa.bots.heuristic import HeuristicBot
from scopa.bots.movestat import MoveStat
from scopa.bots.teams import (
    EXACT_CARDS,
    TEAM_EXACT_CARDS,
    choose_solved,
    exact_cards,
    partners,
    solve_cost,
    solved_phase,
)
from scopa.bots.worlds import WorldSampler
from scopa.hand import Hand
from scopa.match import Match
from scopa.view import PlayerView

SCIENTIFICO = Rules.preset("scopone-scientifico")


def late(seed: str, in_hands: int, variant: str = "scopone-scientifico") -> Hand:
    """A heuristic self-play hand stopped with ``in_hands`` cards left in hands."""
    g = Match(Rules.preset(variant), hand_seed=seed).hand
    bots = [HeuristicBot(f"{seed}-{s}") for s in range(g.n)]
    while g.stock or g.in_hands > in_hands:
        g.play(bots[g.to_move].choose(PlayerView.of(g, g.to_move)))
    return g


def test_partners_solve_from_more_cards() -> None:
    assert partners(4, 2) and partners(6, 2)
    assert not partners(2, 2) and not partners(4, 4) and not partners(6, 3)
    assert exact_cards(SCIENTIFICO) == TEAM_EXACT_CARDS > EXACT_CARDS
    assert exact_cards(Rules.preset("scopone")) == TEAM_EXACT_CARDS
    assert exact_cards(Rules.preset("scopa")) == EXACT_CARDS
    assert exact_cards(Rules.preset("scopa", players=3)) == EXACT_CARDS


def test_solved_phase_only_late_and_among_partners() -> None:
    assert not solved_phase(PlayerView.of(Match(SCIENTIFICO, hand_seed="p").hand, 0))
    g = late("phase", TEAM_EXACT_CARDS + 1)
    assert solved_phase(PlayerView.of(g, g.to_move))
    g2 = late("phase", TEAM_EXACT_CARDS + 2)
    assert not solved_phase(PlayerView.of(g2, g2.to_move))
    heads_up = late("phase", 4, "scopa")
    assert not solved_phase(PlayerView.of(heads_up, heads_up.to_move))


def test_choose_solved_takes_the_best_exact_value() -> None:
    g = late("best", 8)
    view = PlayerView.of(g, g.to_move)
    codes = view.legal_codes()
    assert len(codes) >= 2
    stats = [MoveStat(c, float(i), 1) for i, c in enumerate(codes)]  # the last is best
    draw = WorldSampler(view, random.Random(1)).draw
    assert choose_solved(stats, lambda code: 0.0, draw, g.to_move % 2) is stats[-1]


def _model_worth(worlds: list[Hand], code: int, side: int) -> float:
    total = 0.0
    for w in worlds:
        h = w.copy()
        h.play_code(code)
        total += model_value(h, side)
    return total


def test_choose_solved_breaks_ties_by_the_models_replies() -> None:
    found = 0
    for k in range(30):
        g = late(f"tie{k}", 8)
        view = PlayerView.of(g, g.to_move)
        codes = view.legal_codes()
        if len(codes) < 2:
            continue
        side = g.to_move % 2
        stats = [MoveStat(c, 0.0, 1) for c in codes]  # every move equal against perfect play
        worlds = [WorldSampler(view, random.Random(k)).draw() for _ in range(4)]
        chosen = choose_solved(stats, lambda code: 0.0, iter(worlds).__next__, side, worlds=4)
        best = max(_model_worth(worlds, c, side) for c in codes)
        assert _model_worth(worlds, chosen.code, side) == pytest.approx(best)
        if _model_worth(worlds, codes[0], side) < best - 1e-9:
            found += 1
    assert found  # some positions where the first move is not the model's best


def test_choose_solved_then_the_prior(monkeypatch: pytest.MonkeyPatch) -> None:
    import scopa.bots.teams as teams

    monkeypatch.setattr(teams, "model_value", lambda g, side, match_aware=False: 0.0)
    g = late("prior", 8)
    view = PlayerView.of(g, g.to_move)
    stats = [MoveStat(c, 0.0, 1) for c in view.legal_codes()]
    assert len(stats) >= 2
    draw = WorldSampler(view, random.Random(2)).draw
    for target in stats:  # the model sees no difference: the prior decides
        favoured = target.code
        chosen = choose_solved(stats, lambda code, f=favoured: float(code == f), draw, 0)
        assert chosen is target
    assert choose_solved(stats, lambda code: 0.0, draw, 0) is stats[0]


def test_search_among_partners_late_is_legal_fair_and_reproducible() -> None:
    for k in range(6):
        g = late(f"fair{k}", TEAM_EXACT_CARDS - k % 3)
        seat = g.to_move
        view = PlayerView.of(g, seat)
        other = view.sample(random.Random(k))
        assert PlayerView.of(other, seat) == view
        a = SearchBot(5).choose(view, Limit(simulations=60))
        b = SearchBot(5).choose(PlayerView.of(other, seat), Limit(simulations=60))
        assert a == b
        assert a in view.legal_moves()


def test_each_world_is_solved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import scopa.bots.search as search

    calls: list[tuple[tuple[int, ...], int]] = []
    real = search.solve

    def spy(g: Hand, side: int, match_aware: bool = False) -> float:
        calls.append((tuple(g.hands), g.table))
        return real(g, side, match_aware)

    monkeypatch.setattr(search, "solve", spy)
    g = late("memo", 6)
    SearchBot(3).choose(PlayerView.of(g, g.to_move), Limit(simulations=400))
    assert calls
    assert len(calls) == len(set(calls))  # a state after a move is never solved twice
    assert len(calls) < 400


def test_solves_are_charged_by_their_size() -> None:
    assert [solve_cost(k) for k in range(EXACT_CARDS + 1)] == [1] * (EXACT_CARDS + 1)
    assert 1 < solve_cost(EXACT_CARDS + 1) < solve_cost(TEAM_EXACT_CARDS)


@pytest.fixture
def solved_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Cards in hands of every exact solve the search makes (a spy on its ``solve``)."""
    import scopa.bots.search as search

    sizes: list[int] = []
    real = search.solve

    def spy(g: Hand, side: int, match_aware: bool = False) -> float:
        sizes.append(g.in_hands)
        return real(g, side, match_aware)

    monkeypatch.setattr(search, "solve", spy)
    return sizes


def test_a_simulation_budget_bounds_the_solves(solved_sizes: list[int]) -> None:
    sizes = solved_sizes
    g = late("budget", TEAM_EXACT_CARDS + 1)
    view = PlayerView.of(g, g.to_move)
    budget = 400
    SearchBot(3).choose(view, Limit(simulations=budget))
    assert sizes and set(sizes) == {TEAM_EXACT_CARDS}
    # the last world may overrun the budget by at most one solve a move
    assert sum(solve_cost(k) for k in sizes) <= budget + solve_cost(TEAM_EXACT_CARDS) * len(
        view.legal_codes()
    )


def test_without_the_partner_endgame_solves_start_at_six(solved_sizes: list[int]) -> None:
    # the expert level's setting: as before teams.py
    sizes = solved_sizes
    for in_hands in (TEAM_EXACT_CARDS + 1, EXACT_CARDS + 1):
        g = late(f"off{in_hands}", in_hands)
        SearchBot(4, partner_endgame=False).choose(
            PlayerView.of(g, g.to_move), Limit(simulations=60))
    assert sizes and set(sizes) == {EXACT_CARDS}
