"""Which table cards a played card may take.

Captures depend only on the ranks on the table, so the solutions are computed once per
table rank-multiset (a packed "rank key") and cached; turning a rank solution into actual
cards is then one AND in the common case where the table holds each needed rank exactly as
often as the solution needs it.
"""

from __future__ import annotations

from itertools import combinations, product

from .cards import RANK_KEY_BITS, RANK_MASK, iter_cards

#: (solution rank key, field mask of its ranks, card mask of its ranks)
Solution = tuple[int, int, int]
#: solutions for each played rank, indexed 0..10 (index 0 unused)
SolutionRow = tuple[tuple[Solution, ...], ...]

_FIELD = (1 << RANK_KEY_BITS) - 1


def counts_of(key: int) -> list[int]:
    """Unpack a rank key into counts indexed by rank (index 0 unused)."""
    return [0] + [(key >> (RANK_KEY_BITS * (r - 1))) & _FIELD for r in range(1, 11)]


def _key_of(counts: list[int]) -> int:
    return sum(n << (RANK_KEY_BITS * (r - 1)) for r, n in enumerate(counts) if r and n)


def _subsets_summing(counts: list[int], target: int) -> list[list[int]]:
    """Every rank multiset drawn from ``counts`` whose ranks add up to ``target``."""
    out: list[list[int]] = []
    chosen = [0] * 11

    def walk(rank: int, remaining: int) -> None:
        if remaining == 0:
            out.append(chosen.copy())
            return
        if rank > 10 or rank > remaining:
            return
        most = min(counts[rank], remaining // rank)
        for n in range(most, -1, -1):
            chosen[rank] = n
            walk(rank + 1, remaining - n * rank)
        chosen[rank] = 0

    walk(1, target)
    return out


def _solution(counts: list[int]) -> Solution:
    key = _key_of(counts)
    field = 0
    span = 0
    for r in range(1, 11):
        if counts[r]:
            field |= _FIELD << (RANK_KEY_BITS * (r - 1))
            span |= RANK_MASK[r]
    return (key, field, span)


class CaptureSolver:
    """Capture solutions for one combination of capture options, cached by table ranks."""

    __slots__ = ("mode", "fewest_cards", "ace_takes_all", "rows")

    def __init__(self, mode: str, fewest_cards: bool, ace_takes_all: bool) -> None:
        self.mode = mode
        self.fewest_cards = fewest_cards
        self.ace_takes_all = ace_takes_all
        #: solutions by table rank key (read directly by the hot loops)
        self.rows: dict[int, SolutionRow] = {}

    def row(self, table_key: int) -> SolutionRow:
        """Solutions for every played rank against a table with these ranks."""
        row = self.rows.get(table_key)
        if row is None:
            row = self._compute(table_key)
            self.rows[table_key] = row
        return row

    def _compute(self, table_key: int) -> SolutionRow:
        counts = counts_of(table_key)
        per_rank: list[tuple[Solution, ...]] = [()]
        for rank in range(1, 11):
            per_rank.append(tuple(_solution(c) for c in self._rank_solutions(counts, rank)))
        return tuple(per_rank)

    def _rank_solutions(self, counts: list[int], rank: int) -> list[list[int]]:
        if self.mode == "cirulla":
            return self._cirulla_solutions(counts, rank)
        if self.mode == "fifteen":
            if self.ace_takes_all and rank == 1 and any(counts):
                return [counts]
            found = _subsets_summing(counts, 15 - rank)
            found = [c for c in found if any(c)]
        else:
            if counts[rank]:
                single = [0] * 11
                single[rank] = 1
                return [single]
            if self.ace_takes_all and rank == 1:
                return [counts] if any(counts) else []
            found = [c for c in _subsets_summing(counts, rank) if sum(c) >= 2]
        return _fewest(found) if self.fewest_cards else found

    def _cirulla_solutions(self, counts: list[int], rank: int) -> list[list[int]]:
        """Cirulla: a played ace with no ace on the table takes it all; otherwise the
        simple capture (an equal card, else the fewest cards summing to the rank) and
        every fifteen are all open to the player."""
        if self.ace_takes_all and rank == 1 and any(counts) and not counts[1]:
            return [counts]
        if counts[rank]:
            single = [0] * 11
            single[rank] = 1
            simple = [single]
        else:
            simple = _fewest([c for c in _subsets_summing(counts, rank) if sum(c) >= 2])
        fifteens = [c for c in _subsets_summing(counts, 15 - rank) if any(c)]
        return simple + (_fewest(fifteens) if self.fewest_cards else fifteens)


def _fewest(found: list[list[int]]) -> list[list[int]]:
    """Only the solutions that take the fewest cards."""
    if not found:
        return found
    fewest = min(sum(c) for c in found)
    return [c for c in found if sum(c) == fewest]


def expand(table: int, table_key: int, solutions: tuple[Solution, ...]) -> list[int]:
    """The card masks a list of rank solutions can take from this table."""
    out = []
    for key, field, span in solutions:
        if table_key & field == key:
            out.append(table & span)
        else:
            out.extend(_expand_slow(table, key))
    return out


_SLOW: dict[int, tuple[int, ...]] = {}


def _expand_slow(table: int, key: int) -> tuple[int, ...]:
    """Choose which cards of each rank, when the table holds more than the solution needs
    (cached by the solution and the table's cards of its ranks)."""
    k = (table & _span_of(key)) << 32 | key
    found = _SLOW.get(k)
    if found is None:
        found = tuple(_expand_uncached(table, key))
        if len(_SLOW) < 500_000:
            _SLOW[k] = found
    return found


def _span_of(key: int) -> int:
    span = 0
    for r in range(1, 11):
        if key >> (RANK_KEY_BITS * (r - 1)) & _FIELD:
            span |= RANK_MASK[r]
    return span


def _expand_uncached(table: int, key: int) -> list[int]:
    need = counts_of(key)
    choices: list[list[int]] = []
    for rank in range(1, 11):
        if need[rank]:
            cards = list(iter_cards(table & RANK_MASK[rank]))
            choices.append(
                [sum(1 << c for c in combo) for combo in combinations(cards, need[rank])]
            )
    return [sum(parts) for parts in product(*choices)]


_SOLVERS: dict[tuple[str, bool, bool], CaptureSolver] = {}


def solver_for(mode: str, fewest_cards: bool, ace_takes_all: bool) -> CaptureSolver:
    """One shared solver (and cache) per combination of options."""
    k = (mode, fewest_cards, ace_takes_all)
    s = _SOLVERS.get(k)
    if s is None:
        s = _SOLVERS[k] = CaptureSolver(mode, fewest_cards, ace_takes_all)
    return s
