"""Score items: every kind of point a hand can give, each one object.

An item knows its key (``cards``, ``primiera``, ``grande``...), the label key clients
translate (``item.<key>``), how to award its points per side fast (search bots score
millions of finished hands), what the score sheet shows for it per side (its entry there
is key, label, values and points: ``scoring.score_hand``), and what
capturing each card is roughly worth towards it (the bots' per-card worth). Which items a
table plays is decided once per ``Rules`` in ``scopa.meaning``; adding a variant's new
point is one new item here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ALL_CARDS, COINS, NUM_CARDS, RANK, RANK_MASK, RE_BELLO, SETTEBELLO

#: primiera value by rank, faces worth 10 (the common scale) or their rank (old sources)
PRIMIERA_TEN = (0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
PRIMIERA_RANK = (0, 16, 12, 13, 14, 15, 18, 21, 8, 9, 10)

#: a sheet value shown for one side: a count, a yes/no, or nothing (None)
Value = int | bool | None


def _best_by_suit(scale: tuple[int, ...]) -> list[tuple[int, int]]:
    """For every 10-bit set of ranks in one suit: (best primiera value, its rank)."""
    table = [(0, 0)]
    for m in range(1, 1 << 10):
        best = max((scale[r + 1], r + 1) for r in range(10) if m >> r & 1)
        table.append(best)
    return table


BEST = {"ten": _best_by_suit(PRIMIERA_TEN), "rank": _best_by_suit(PRIMIERA_RANK)}


def primiera(pile: int, faces: str = "ten") -> tuple[int | None, list[int]]:
    """A pile's primiera total and the four cards that make it; None if a suit is missing."""
    best = BEST[faces]
    total = 0
    chosen = []
    for suit in range(4):
        bits = (pile >> (10 * suit)) & 0x3FF
        if not bits:
            return None, []
        value, rank = best[bits]
        total += value
        chosen.append(suit * 10 + rank - 1)
    return total, chosen


def primiera_total(pile: int, faces: str = "ten") -> int | None:
    """A pile's primiera total; None if a suit is missing."""
    best = BEST[faces]
    a = best[pile & 0x3FF][0]
    b = best[pile >> 10 & 0x3FF][0]
    c = best[pile >> 20 & 0x3FF][0]
    d = best[pile >> 30 & 0x3FF][0]
    if a and b and c and d:
        return a + b + c + d
    return None


def _coin_run(coins: int) -> int:
    """3 for ace-2-3 of coins, plus one for each further coin continuing the run."""
    if coins & 0b111 != 0b111:
        return 0
    run = 3
    while run < 10 and coins >> run & 1:
        run += 1
    return run


#: the napola points of every set of coins (a pile's coins: its lowest ten bits), worked
#: out once: every public deal's sheet shows each side's run
NAPOLA_RUN: tuple[int, ...] = tuple(_coin_run(coins) for coins in range(COINS + 1))


def napola_points(pile: int) -> int:
    """3 for ace-2-3 of coins, plus one for each further coin continuing the run."""
    return NAPOLA_RUN[pile & COINS]


def one_to_top(values: Sequence[Value]) -> list[int]:
    """One point to the single highest value, nobody's on a tie at the top or when no value
    is above 0 (None: no value): the one home of the tie rule, written out (every public
    deal's sheet asks it three times)."""
    best = -1
    high = 0
    tied = False
    for i, v in enumerate(values):
        if v is None:
            continue
        if v > high:
            high, best, tied = v, i, False
        elif v == high and high:
            tied = True
    out = [0] * len(values)
    if best >= 0 and not tied:
        out[best] = 1
    return out


def top(values: Sequence[int | None]) -> int:
    """The index of the single highest value, or -1 on a tie at the top, no value, or 0."""
    points = one_to_top(values)
    return points.index(1) if 1 in points else -1


def _worth(per_card: dict[int, float]) -> tuple[float, ...]:
    return tuple(per_card.get(c, 0.0) for c in range(NUM_CARDS))


class ScoreItem:
    """One kind of point. Subclasses fill in ``award`` (fast) and ``values`` (the sheet)."""

    key = ""
    #: what capturing each card is worth towards this item, for the bots (hand points)
    worth: tuple[float, ...] = (0.0,) * NUM_CARDS

    @property
    def label(self) -> str:
        """The key clients translate to show this item's name."""
        return "item." + self.key

    def award(
        self, piles: list[int], sweeps: list[int], declared: list[int], totals: list[int]
    ) -> None:
        """Add this item's points per side to ``totals`` (the search's fast path)."""
        raise NotImplementedError

    def values(self, piles: list[int], sweeps: list[int], declared: list[int]) -> list[Value]:
        """What the score sheet shows for this item per side (a count, a yes/no)."""
        raise NotImplementedError

    def points(self, piles: list[int], sweeps: list[int], declared: list[int]) -> list[int]:
        """This item's points per side."""
        out = [0] * len(piles)
        self.award(piles, sweeps, declared, out)
        return out

    def points_from(self, values: Sequence[Value]) -> list[int]:
        """This item's points per side from what the sheet shows for it (``values``): the
        score sheet works each item out once, and its points follow from its values."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<item {self.key}>"


class Most(ScoreItem):
    """One point to the single side with most cards of a kind (cards, coins, sevens)."""

    def __init__(self, key: str, mask: int, worth: dict[int, float]) -> None:
        self.key = key
        self.mask = mask
        self.worth = _worth(worth)

    def award(
        self, piles: list[int], sweeps: list[int], declared: list[int], totals: list[int]
    ) -> None:
        # ``top`` of the counts, written out: every rollout of a search ends here
        mask = self.mask
        best = -1
        high = 0
        tied = False
        for i, p in enumerate(piles):
            v = (p & mask).bit_count()
            if v > high:
                high, best, tied = v, i, False
            elif v == high and high:
                tied = True
        if best >= 0 and not tied:
            totals[best] += 1

    def values(self, piles: list[int], sweeps: list[int], declared: list[int]) -> list[Value]:
        return [(p & self.mask).bit_count() for p in piles]

    #: the point to the single highest count (no wrapper: every public deal's sheet asks)
    points_from = staticmethod(one_to_top)


class Holding(ScoreItem):
    """Points to each side holding all of some cards (settebello, re bello, grande)."""

    def __init__(self, key: str, mask: int, points: int, worth: float) -> None:
        self.key = key
        self.mask = mask
        self.score = points
        self.worth = _worth({c: worth for c in range(NUM_CARDS) if mask >> c & 1})

    def award(
        self, piles: list[int], sweeps: list[int], declared: list[int], totals: list[int]
    ) -> None:
        mask = self.mask
        for i, p in enumerate(piles):
            if p & mask == mask:
                totals[i] += self.score

    def values(self, piles: list[int], sweeps: list[int], declared: list[int]) -> list[Value]:
        return [p & self.mask == self.mask for p in piles]

    def points_from(self, values: Sequence[Value]) -> list[int]:
        score = self.score
        return [score if v else 0 for v in values]


class Primiera(ScoreItem):
    """One point to the single side with the best primiera (all four suits needed)."""

    key = "primiera"
    worth = _worth({c: {7: 0.35, 6: 0.15, 1: 0.08}.get(RANK[c], 0.0) for c in range(NUM_CARDS)})

    def __init__(self, faces: str) -> None:
        self.faces = faces

    def award(
        self, piles: list[int], sweeps: list[int], declared: list[int], totals: list[int]
    ) -> None:
        # ``top`` of the ``primiera_total``s, written out (as in ``Most.award``)
        table = BEST[self.faces]
        best = -1
        high = 0
        tied = False
        for i, p in enumerate(piles):
            a = table[p & 0x3FF][0]
            b = table[p >> 10 & 0x3FF][0]
            c = table[p >> 20 & 0x3FF][0]
            d = table[p >> 30 & 0x3FF][0]
            if not (a and b and c and d):
                continue
            v = a + b + c + d
            if v > high:
                high, best, tied = v, i, False
            elif v == high:
                tied = True
        if best >= 0 and not tied:
            totals[best] += 1

    def values(self, piles: list[int], sweeps: list[int], declared: list[int]) -> list[Value]:
        return [primiera_total(p, self.faces) for p in piles]

    #: the point to the single best primiera (as ``Most.points_from``)
    points_from = staticmethod(one_to_top)


class CoinRun(ScoreItem):
    """Napola / piccola: ace, 2 and 3 of coins score 3, plus one per further coin in the run."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.worth = _worth({c: 0.3 for c in range(3)})

    def award(
        self, piles: list[int], sweeps: list[int], declared: list[int], totals: list[int]
    ) -> None:
        for i, p in enumerate(piles):
            if p & 0b111 == 0b111:
                totals[i] += napola_points(p)

    def values(self, piles: list[int], sweeps: list[int], declared: list[int]) -> list[Value]:
        return [napola_points(p) for p in piles]

    def points_from(self, values: Sequence[Value]) -> list[int]:
        return [int(v or 0) for v in values]


class Counted(ScoreItem):
    """As many points as a side counted this hand: a point per sweep (``scope``), or the
    points its seats declared (Cirulla's ``declarations``)."""

    def __init__(self, key: str, declared: bool) -> None:
        self.key = key
        self.declared = declared

    def award(
        self, piles: list[int], sweeps: list[int], declared: list[int], totals: list[int]
    ) -> None:
        for i, n in enumerate(declared if self.declared else sweeps):
            totals[i] += n

    def values(self, piles: list[int], sweeps: list[int], declared: list[int]) -> list[Value]:
        return list(declared if self.declared else sweeps)

    def points_from(self, values: Sequence[Value]) -> list[int]:
        return [int(v or 0) for v in values]


CARDS = Most("cards", ALL_CARDS, dict.fromkeys(range(NUM_CARDS), 0.1))
COIN_ITEM = Most("coins", COINS, {c: 0.12 for c in range(NUM_CARDS) if COINS >> c & 1})
SEVENS = Most("sevens", RANK_MASK[7], {c: 0.3 for c in range(NUM_CARDS) if RANK[c] == 7})
SETTEBELLO_ITEM = Holding("settebello", 1 << SETTEBELLO, 1, 1.0)
RE_BELLO_ITEM = Holding("re_bello", 1 << RE_BELLO, 1, 1.0)
#: king, knight and knave of coins
GRANDE = Holding("grande", 0b111 << 7, 5, 0.8)
SWEEPS = Counted("scope", declared=False)
NAPOLA = CoinRun("napola")
PICCOLA = CoinRun("piccola")
DECLARED = Counted("declarations", declared=True)
PRIMIERA = {faces: Primiera(faces) for faces in BEST}

#: the items every sheet lists points for (zero when not played), in sheet order; items
#: of newer variants follow them only where they are played
SHEET_KEYS = ("cards", "coins", "settebello", "primiera", "sevens", "scope", "napola", "re_bello")
