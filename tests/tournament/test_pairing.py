"""Pairing rules as properties over random events: each entrant plays once a round or has
the bye, nobody meets anyone twice while a pairing without a repeat exists, nobody gets a
second bye while someone has none; round robins meet everyone once; knockout byes go to
the top seeds."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.tournament.pairing import (
    bracket_order,
    knockout_first_round,
    met_key,
    round_robin_rounds,
    swiss_pairs,
)


def _perfect_without_repeat(players: list[str], met: set[frozenset[str]]) -> bool:
    """Brute force: can ``players`` be paired with no pair that has met?"""
    if not players:
        return True
    first = players[0]
    return any(
        met_key(first, other) not in met
        and _perfect_without_repeat([p for p in players[1:] if p != other], met)
        for other in players[1:]
    )


def _avoidable(active: list[str], met: set[frozenset[str]], byes: dict[str, int]) -> bool:
    """Whether some fair bye leaves a field that pairs without a repeat."""
    if len(active) % 2 == 0:
        return _perfect_without_repeat(active, met)
    fewest = min(byes.get(p, 0) for p in active)
    return any(
        _perfect_without_repeat([p for p in active if p != bye], met)
        for bye in active if byes.get(bye, 0) == fewest
    )


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 9), seed=st.integers(0, 10**6),
       withdraw=st.booleans())
def test_swiss_rounds_keep_the_rules(n: int, rounds: int, seed: int, withdraw: bool) -> None:
    rng = random.Random(seed)
    names = [f"e{i}" for i in range(n)]
    active = list(names)
    met: set[frozenset[str]] = set()
    byes: dict[str, int] = {}
    for r in range(rounds):
        if withdraw and r == 2 and len(active) > 2:
            active.remove(rng.choice(active))  # an entrant withdraws: no longer paired
        ranked = rng.sample(active, len(active))  # any standings order
        pairs, bye = swiss_pairs(ranked, met, byes)
        seen = [p for pair in pairs for p in pair] + ([bye] if bye else [])
        assert sorted(seen) == sorted(active)  # each once: at a table or the bye
        assert (bye is None) == (len(active) % 2 == 0)
        if bye is not None:
            assert byes.get(bye, 0) == min(byes.get(p, 0) for p in active)
            byes[bye] = byes.get(bye, 0) + 1
        repeats = sum(met_key(a, b) in met for a, b in pairs)
        if _avoidable(active, met, byes if bye is None else {**byes, bye: byes[bye] - 1}):
            assert repeats == 0, (ranked, sorted(map(sorted, met)), pairs)
        met |= {met_key(a, b) for a, b in pairs}


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    pairs, bye = swiss_pairs(["a", "b", "c"], set(), {"c": 1})
    assert bye == "b" and pairs == [("a", "c")]


def test_swiss_pairs_the_best_with_the_next_best_not_met() -> None:
    # a and b met: a takes c, and b the one left
    assert swiss_pairs(["a", "b", "c", "d"], {met_key("a", "b")}, {}) == (
        [("a", "c"), ("b", "d")], None)


def test_a_repeat_comes_only_when_no_pairing_avoids_it() -> None:
    # two entrants who have met must meet again
    assert swiss_pairs(["a", "b"], {met_key("a", "b")}, {}) == ([("a", "b")], None)


@given(n=st.integers(2, 12))
def test_a_round_robin_meets_everyone_once(n: int) -> None:
    names = [f"e{i}" for i in range(n)]
    rounds = round_robin_rounds(names)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings = []
    for pairs in rounds:
        seen = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seen) == sorted(names)  # once a round: at a table or sitting out
        meetings += [met_key(a, b) for a, b in pairs if b is not None]
        assert sum(b is None for _, b in pairs) == n % 2
    assert sorted(map(sorted, meetings)) == sorted(
        map(sorted, (met_key(a, b) for a, b in itertools.combinations(names, 2))))


@given(n=st.integers(2, 33))
def test_knockout_byes_go_to_the_top_seeds(n: int) -> None:
    names = [f"s{i + 1}" for i in range(n)]
    pairs = knockout_first_round(names)
    size = len(pairs) * 2
    assert size >= n > size // 2 or n == size
    with_bye = sorted((a for a, b in pairs if b is None), key=names.index)
    assert with_bye == names[: size - n]
    assert sorted(p for pair in pairs for p in pair if p is not None) == sorted(names)


def test_the_bracket_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    # seeds 1 and 2 in different halves of every bracket
    for size in (2, 4, 8, 16, 32):
        order = bracket_order(size)
        assert 1 in order[: size // 2] and 2 in order[size // 2 :]
