"""Who plays whom: Swiss, round robin and knockout pairings, as pure functions of names.

No Swiss pairing package on PyPI is maintained and small enough to take (the chess ones
follow FIDE's Dutch rules with colours, which Scopa has no use for; networkx's blossom
matching would do, but it is no core dependency and a field is small), so the rules live
here, in one module, checked by property tests (``tests/tournament/test_pairing.py``).

Swiss is Monrad-style: the best-ranked entrant still unpaired meets the next best it has
not met, with backtracking, so that nobody meets anyone twice while a pairing without a
repeat exists. The bye (odd fields) goes to the lowest-ranked entrant among those with the
fewest byes so far: nobody gets a second bye while someone has none.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

#: a pairing: (home, away); away None is a bye
Pair = tuple[str, str | None]

#: pairing attempts before a field is declared unpairable without one more repeat (a
#: safety net for very large fields; club and online fields stay far below it)
SEARCH_BUDGET = 200_000


def met_key(a: str, b: str) -> frozenset[str]:
    """The key of a pairing in the set of pairs that have met (order does not matter)."""
    return frozenset((a, b))


def swiss_pairs(
    ranked: Sequence[str], met: Collection[frozenset[str]], byes: Mapping[str, int]
) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs for a Swiss round, best-ranked first in each pair, and the bye (None when the
    field is even). ``ranked``: the entrants still playing, best first; ``met``: the pairs
    that have met (``met_key``); ``byes``: byes so far per entrant.

    The fewest repeat pairings win over everything but the fairness of byes; among
    pairings with as few repeats, the bye goes as low in the ranking as it can."""
    players = list(ranked)
    if len(set(players)) != len(players):
        raise ValueError("an entrant is listed twice")
    if len(players) < 2:
        raise ValueError("a round needs at least two entrants")
    candidates: list[str | None] = [None]
    if len(players) % 2:
        fewest = min(byes.get(p, 0) for p in players)
        candidates = [p for p in reversed(players) if byes.get(p, 0) == fewest]
    for repeats in range(len(players) // 2 + 1):
        for bye in candidates:
            rest = tuple(p for p in players if p != bye)
            found = _pair(rest, met, repeats, {}, [0])
            if found is not None:
                return found, bye
    raise AssertionError("unreachable: any pairing is allowed with enough repeats")


def _pair(
    rest: tuple[str, ...], met: Collection[frozenset[str]], repeats: int,
    failed: dict[tuple[tuple[str, ...], int], bool], steps: list[int],
) -> list[tuple[str, str]] | None:
    """Pair ``rest`` (in ranking order) with at most ``repeats`` repeat pairings; None if
    it cannot be done (remembered per remaining set, so dead ends are explored once)."""
    if not rest:
        return []
    if (rest, repeats) in failed:
        return None
    steps[0] += 1
    if steps[0] > SEARCH_BUDGET:
        return None
    top = rest[0]
    for i in range(1, len(rest)):
        other = rest[i]
        cost = 1 if met_key(top, other) in met else 0
        if cost > repeats:
            continue
        tail = _pair(rest[1:i] + rest[i + 1 :], met, repeats - cost, failed, steps)
        if tail is not None:
            return [(top, other), *tail]
    failed[(rest, repeats)] = True
    return None


def round_robin_rounds(entrants: Sequence[str]) -> list[list[Pair]]:
    """Every round of a round robin by the circle method: the first entrant stays put,
    the others turn one place a round; with an odd field a bye joins the circle (its
    partner that round sits out). The first entrant alternates home and away."""
    players: list[str | None] = list(entrants)
    if len(players) < 2:
        raise ValueError("a round robin needs at least two entrants")
    if len(players) % 2:
        players.append(None)
    n = len(players)
    rounds: list[list[Pair]] = []
    for r in range(n - 1):
        pairs: list[Pair] = []
        byes: list[Pair] = []
        for i in range(n // 2):
            a, b = players[i], players[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a
            if a is None or b is None:
                byes.append((a or b or "", None))
            else:
                pairs.append((a, b))
        rounds.append(pairs + byes)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def bracket_size(entrants: int) -> int:
    """The knockout bracket: the smallest power of two holding every entrant."""
    size = 1
    while size < entrants:
        size *= 2
    return size


def knockout_rounds(entrants: int) -> int:
    """Rounds of a knockout with this many entrants."""
    return bracket_size(entrants).bit_length() - 1


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1 = best) down a bracket of ``size`` slots, so that seeds 1 and 2
    can meet only in the final, 1 to 4 only in the semi-finals, and so on:
    4 -> [1, 4, 2, 3]; 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def knockout_first_round(seeded: Sequence[str]) -> list[Pair]:
    """The first round of a seeded knockout (``seeded``: best first), in bracket order.
    Seats past the field are byes, and they fall to the top seeds, who face the missing
    lowest seeds."""
    if len(seeded) < 2:
        raise ValueError("a knockout needs at least two entrants")
    order = bracket_order(bracket_size(len(seeded)))
    pairs: list[Pair] = []
    for i in range(0, len(order), 2):
        a, b = order[i], order[i + 1]
        pairs.append((seeded[a - 1], seeded[b - 1] if b <= len(seeded) else None))
    return pairs


def knockout_next_round(advancing: Sequence[str]) -> list[Pair]:
    """A later knockout round: the winners of slots 1 and 2 meet, of 3 and 4, and so on
    (``advancing``: one winner per slot of the round before, in bracket order)."""
    if len(advancing) % 2:
        raise ValueError("a knockout round needs an even number of slots")
    return [(advancing[i], advancing[i + 1]) for i in range(0, len(advancing), 2)]
