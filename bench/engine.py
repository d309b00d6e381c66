"""Engine speed on one core: random-play deals per second and legal-move generation time.

Run: ``.venv/bin/python bench/engine.py [--runs 7] [--deals 3000]``

Prints medians over several runs of:
- complete random-play deals per second through the public interface (``load_position``,
  ``legal_moves``, ``play`` until ``hand_over``, ``hand_result``), 2 and 4 players;
- the same through the internal path the bots use (``copy`` of a dealt state,
  ``playout.random_playout``: a random card, then a random legal capture for it, and
  ``scoring.hand_totals``), through the compiled kernel where it is built
  (``SCOPA_PURE_PYTHON=1``: in Python; bench/kernel.py compares the two);
- nanoseconds per legal-move generation (public ``legal_moves`` and internal
  ``legal_codes``), against a baseline measured in the same run: a plain
  subset-enumerating generator over card lists, the obvious way to write it.
Floors from issue 2: 10,000 two-player deals/s public, 25,000 internal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from itertools import combinations

from scopa import Rules
from scopa.cards import RANK, cards_of
from scopa.hand import Hand
from scopa.match import Match
from scopa.notation import dump_position, load_position
from scopa.playout import random_playout
from scopa.scoring import hand_totals


def _positions(rules: Rules, count: int) -> list[dict]:
    return [dump_position(Match(rules, seed=f"bench-{i}").hand) for i in range(count)]


def public_deals(positions: list[dict], deals: int, rng: random.Random) -> float:
    """Deals per second through load_position / legal_moves / play / hand_result."""
    rand = rng.random
    start = time.perf_counter()
    for i in range(deals):
        g = load_position(positions[i % len(positions)])
        while not g.hand_over:
            moves = g.legal_moves()
            g.play(moves[int(rand() * len(moves))])
        g.hand_result()
    return deals / (time.perf_counter() - start)


def loaded(positions: list[dict]) -> list[Hand]:
    """The hands of these positions (what ``internal_deals`` copies and plays out)."""
    return [load_position(pos) for pos in positions]


def internal_deals(games: list[Hand], deals: int, rng: random.Random) -> float:
    """Deals per second through copy / random_playout / hand_totals (what a rollout does)."""
    start = time.perf_counter()
    for i in range(deals):
        g = games[i % len(games)].copy()
        random_playout(g, rng)
        hand_totals(g.rules, g.captured, g.scope)
    return deals / (time.perf_counter() - start)


def _midgame_states(rules: Rules, count: int) -> list[Hand]:
    rng = random.Random(7)
    out = []
    for i in range(count):
        g = Match(rules, seed=f"mid-{i}").hand
        for _ in range(rng.randrange(0, 20)):
            g.play_code(rng.choice(g.legal_codes()))
            if g.hand_over:
                break
        if not g.hand_over:
            out.append(g)
    return out


def naive_legal_moves(hand: list[int], table: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Baseline: for each card, equal ranks first, else every subset summing to it."""
    moves = []
    for c in hand:
        r = RANK[c]
        equal = [t for t in table if RANK[t] == r]
        if equal:
            moves += [(c, (t,)) for t in equal]
            continue
        sums = [
            (c, combo)
            for k in range(2, len(table) + 1)
            for combo in combinations(table, k)
            if sum(RANK[t] for t in combo) == r
        ]
        moves += sums or [(c, ())]
    return moves


def per_call_ns(fn: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e9


def movegen_ns(states: list[Hand], repeat: int) -> dict[str, float]:
    lists = [(cards_of(g.hands[g.to_move]), cards_of(g.table)) for g in states]
    t0 = time.perf_counter()
    for _ in range(repeat):
        for g in states:
            g.legal_codes()
    t1 = time.perf_counter()
    for _ in range(repeat):
        for g in states:
            g._legal = None  # measure generation, not the per-state cache play() relies on
            g.legal_moves()
    t2 = time.perf_counter()
    for _ in range(repeat):
        for hand, table in lists:
            naive_legal_moves(hand, table)
    t3 = time.perf_counter()
    n = repeat * len(states)
    return {
        "internal": (t1 - t0) / n * 1e9,
        "public": (t2 - t1) / n * 1e9,
        "baseline": (t3 - t2) / n * 1e9,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--deals", type=int, default=3000)
    args = ap.parse_args()
    rng = random.Random(1)
    setups = {p: Rules.preset("scopa", players=p) for p in (2, 4)}
    positions = {p: _positions(r, 200) for p, r in setups.items()}
    games = {p: loaded(positions[p]) for p in setups}
    states = _midgame_states(setups[2], 400)
    # warm the capture caches so every run measures the same thing
    public_deals(positions[2], 500, rng)
    public_deals(positions[4], 500, rng)
    results: dict[str, list[float]] = {}
    for _ in range(args.runs):
        for p in setups:
            results.setdefault(f"public {p}p deals/s", []).append(
                public_deals(positions[p], args.deals, rng))
            results.setdefault(f"internal {p}p deals/s", []).append(
                internal_deals(games[p], args.deals, rng))
        for k, v in movegen_ns(states, 20).items():
            results.setdefault(f"movegen {k} ns", []).append(v)
    med = {k: statistics.median(v) for k, v in results.items()}
    print(f"engine benchmark: {args.runs} runs, {args.deals} deals each, medians")
    for k, v in med.items():
        spread = f"(min {min(results[k]):,.0f}, max {max(results[k]):,.0f})"
        print(f"  {k:28s} {v:>10,.0f}  {spread}")
    print("ratios")
    for p in setups:
        print(f"  internal / public, {p}p deals       "
              f"{med[f'internal {p}p deals/s'] / med[f'public {p}p deals/s']:.2f}x")
    print(f"  naive baseline / internal movegen   "
          f"{med['movegen baseline ns'] / med['movegen internal ns']:.2f}x")
    print(f"  naive baseline / public movegen     "
          f"{med['movegen baseline ns'] / med['movegen public ns']:.2f}x")
    print("floors (issue 2): public 2p >= 10,000 deals/s, internal 2p >= 25,000 deals/s")


if __name__ == "__main__":
    main()
