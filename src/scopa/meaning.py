"""What a ``Rules`` means: the one home of every decision the options imply.

``rules.py`` holds the options as data; this module says what they mean, once per rule
set (``meaning_of`` caches it), for the engine, the fast playouts, both scoring paths, the
bots, the server and the clients: the capture solver, whether a sweep scores, which cards
sweep a table, when a deal is void, the opening 15/30 sweep, the declarations, the score
items, the allowed seatings, the target and the winner. A new variant is a preset in
``rules.py`` plus, at most, one new item in ``items.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .captures import CaptureSolver, solver_for
from .cards import NUM_CARDS, RANK, RANK_KEY_BITS, RANK_MASK, iter_cards
from .items import (
    CARDS,
    COIN_ITEM,
    DECLARED,
    GRANDE,
    NAPOLA,
    PICCOLA,
    PRIMIERA,
    RE_BELLO_ITEM,
    SETTEBELLO_ITEM,
    SEVENS,
    SHEET_KEYS,
    SWEEPS,
    ScoreItem,
    Value,
)
from .rules import VARIANT_SEATINGS, Rules

#: one score-sheet item as ``scoring.sheet`` works it out (see ``Meaning.sheet_plan``)
SheetStep = tuple[
    Callable[[list[int], list[int], list[int]], list[Value]],
    Callable[[Sequence[Value]], list[int]],
    str, str, int, int,
]

ACES = RANK_MASK[1]
#: Cirulla's wild card for declarations, the seven of cups (the "matta")
MATTA = 16
#: declaration points: a hand under 10, three of a kind (a hand that is both scores 10)
LOW_HAND = 3
THREE_OF_A_KIND = 10
_FIELD = (1 << RANK_KEY_BITS) - 1


def declaration_points(hand: int) -> int:
    """What a dealt hand of three cards may declare (0: nothing). The matta counts as
    whatever rank its holder likes best."""
    ranks = [RANK[c] for c in iter_cards(hand) if c != MATTA]
    if len(ranks) + (hand >> MATTA & 1) != 3:
        return 0
    if len(ranks) == 2:  # the matta: a twin of the pair, or an ace for the lowest sum
        trips = ranks[0] == ranks[1]
        low = ranks[0] + ranks[1] + 1 < 10
    else:
        trips = ranks[0] == ranks[1] == ranks[2]
        low = sum(ranks) < 10
    return THREE_OF_A_KIND if trips else LOW_HAND if low else 0


class Meaning:
    """Everything a rule set decides, computed once and shared."""

    __slots__ = (
        "rules", "solver", "items", "target", "seatings", "declarations", "card_worth",
        "equal_pairs", "last_play_sweeps", "_ace_void", "_sweepers", "_declared", "_awards",
        "sheet_plan", "side_seats", "declares", "auto_declares", "lay_always",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.solver: CaptureSolver = solver_for(
            rules.capture, rules.fewest_cards, rules.ace_takes_all
        )
        self.items: tuple[ScoreItem, ...] = _items(rules)
        self._awards = tuple(item.award for item in self.items)
        #: the score sheet's plan per item: (its values and its points from them, as
        #: bound once here, its key, label key, the slot of its values among the counts
        #: ``score_hand`` works out anyway (-1: the item's own), its place among the
        #: classic ``SHEET_KEYS`` (-1: a newer variant's item))
        self.sheet_plan: tuple[SheetStep, ...] = tuple(
            (item.values, _remembered(item.points_from), item.key, item.label,
             _KNOWN_SLOTS.get(item.key, -1),
             SHEET_KEYS.index(item.key) if item.key in SHEET_KEYS else -1)
            for item in self.items
        )
        #: each side's seats, in side order (the sheet lists them)
        self.side_seats: tuple[tuple[int, ...], ...] = tuple(
            tuple(rules.seats_of(side)) for side in range(rules.teams)
        )
        self.target = rules.target
        #: player count -> the numbers of sides allowed (the first is the default)
        self.seatings: dict[int, tuple[int, ...]] = VARIANT_SEATINGS[rules.variant]
        #: "off", "choice" (declaring is a move) or "auto"
        self.declarations = rules.declarations
        #: whether any hand may be declared at all (else nobody ever has declared points)
        self.declares = rules.declarations != "off"
        #: whether the engine declares every scoring hand itself (no declaring move)
        self.auto_declares = rules.declarations == "auto"
        #: each card's rough worth in hand points when captured (the bots' judgement)
        self.card_worth: tuple[float, ...] = tuple(
            sum(item.worth[c] for item in self.items) for c in range(NUM_CARDS)
        )
        #: a card left on the table can be taken by an equal card (the exposure risk)
        self.equal_pairs = rules.capture in ("equal", "cirulla") and not rules.ace_takes_all
        #: a sweep on the hand's very last play scores
        self.last_play_sweeps = rules.last_sweep_counts
        #: a card may always be laid, whatever it could take (taking is not obligatory)
        self.lay_always = rules.capture_optional
        self._ace_void = rules.ace_takes_all and not rules.ace_sweep_scopa
        self._sweepers: dict[int, int] = {}
        self._declared: dict[int, int] = {}

    def __reduce__(self) -> tuple[Callable[[Rules], Meaning], tuple[Rules]]:
        """A pickled meaning is its rules: unpickled, it is the rule set's shared meaning
        (its caches and bound plan stay behind)."""
        return meaning_of, (self.rules,)

    # -- sweeps -------------------------------------------------------------------------
    def sweep_scores(self, rank: int, capture: int, last_play: bool) -> bool:
        """Whether a capture that empties the table scores a scopa: never on the hand's
        last play (unless ``last_sweep_counts``), and not for an ace's take-all (unless
        ``ace_sweep_scopa``)."""
        if last_play and not self.last_play_sweeps:
            return False
        return not (self._ace_void and rank == 1 and not capture & ACES)

    def sweepers(self, table_key: int) -> int:
        """The mask of every card whose play would take the whole table (given by its rank
        key) as a scopa, the last-play rule aside."""
        found = self._sweepers.get(table_key)
        if found is None:
            found = 0
            if table_key:
                row = self.solver.row(table_key)
                has_ace = table_key & _FIELD
                for rank in range(1, 11):
                    if any(key == table_key for key, _, _ in row[rank]) and not (
                        self._ace_void and rank == 1 and not has_ace
                    ):
                        found |= RANK_MASK[rank]
            if len(self._sweepers) < 200_000:
                self._sweepers[table_key] = found
        return found

    def sweeping_ranks(self, table_key: int) -> list[int]:
        """The ranks whose play would sweep this table as a scopa."""
        mask = self.sweepers(table_key)
        return [r for r in range(1, 11) if mask & RANK_MASK[r]]

    # -- the deal -----------------------------------------------------------------------
    def void_deal(self, deck: list[int]) -> bool:
        """Whether the opening table dealt from ``deck`` voids the deal (too many kings, or
        in Cirulla too many aces): the same dealer deals again."""
        limits = self.void_limits()
        if not limits:
            return False
        r = self.rules
        start = r.players * r.rounds[0]
        table = deck[start : start + r.table_cards]
        return any(sum(1 for c in table if RANK[c] == rank) >= n for rank, n in limits)

    def void_limits(self) -> tuple[tuple[int, int], ...]:
        """(rank, count) pairs: that many cards of the rank on the opening table void the
        deal (kings; in Cirulla aces). Empty when no deal is ever void."""
        r = self.rules
        if not r.table_cards:
            return ()
        pairs = ((1, r.ace_redeal), (10, r.king_redeal))
        return tuple((rank, n) for rank, n in pairs if n is not None)

    def opening_sweeps(self, table: int) -> int:
        """Sweeps the dealer scores by taking the opening table (15: one, 30: two)."""
        if not self.rules.table_fifteen or not table:
            return 0
        total = sum(RANK[c] for c in iter_cards(table))
        return total // 15 if total in (15, 30) else 0

    def declaration(self, hand: int) -> int:
        """The points a freshly dealt hand may declare (0 if declarations are off)."""
        if not self.declares:
            return 0
        found = self._declared.get(hand)
        if found is None:
            found = self._declared[hand] = declaration_points(hand)
        return found

    # -- points -------------------------------------------------------------------------
    def side_piles(
        self, captured: list[int], scope: list[int], declared: list[int] | None
    ) -> tuple[list[int], list[int], list[int]]:
        """Each side's pooled pile, sweeps and declared points."""
        sides = self.rules.teams
        if sides == len(captured):
            return list(captured), list(scope), list(declared) if declared else [0] * sides
        piles = [0] * sides
        sweeps = [0] * sides
        decl = [0] * sides
        for seat, pile in enumerate(captured):
            piles[seat % sides] |= pile
            sweeps[seat % sides] += scope[seat]
            if declared:
                decl[seat % sides] += declared[seat]
        return piles, sweeps, decl

    def hand_totals(
        self, captured: list[int], scope: list[int], declared: list[int] | None = None
    ) -> list[int]:
        """Each side's points for a finished hand (the search's fast path)."""
        if self.rules.teams == len(captured) and declared is None:
            piles, sweeps, decl = captured, scope, _NO_DECLARATIONS[len(captured)]
        else:
            piles, sweeps, decl = self.side_piles(captured, scope, declared)
        totals = [0] * len(piles)
        for award in self._awards:  # (awards read the piles, never change them)
            award(piles, sweeps, decl, totals)
        return totals

    def outright(self, piles: list[int]) -> int | None:
        """The side that wins the match outright with this hand's piles (Napola's ten
        coins, when ``napola_outright``), else None."""
        if self.rules.napola_outright:
            for i, pile in enumerate(piles):
                if pile & 0x3FF == 0x3FF:
                    return i
        return None

    def outright_of(self, captured: list[int]) -> int | None:
        """``outright`` from the seats' piles (quick when no outright win is played)."""
        if not self.rules.napola_outright:
            return None
        return self.outright(self.side_piles(captured, [0] * len(captured), None)[0])

    def winner(self, totals: list[int], outright: int | None = None) -> int | None:
        """The side that has won the match with these totals, else None: an outright win
        first; then the single highest total at or past the target (a tie plays on)."""
        if outright is not None:
            return outright
        high = max(totals)
        if high < self.target:
            return None
        leaders = [i for i, t in enumerate(totals) if t == high]
        return leaders[0] if len(leaders) == 1 else None


def _remembered(
    points_from: Callable[[Sequence[Value]], list[int]],
) -> Callable[[Sequence[Value]], list[int]]:
    """An item's ``points_from`` that answers values it has seen before from memory (a
    new list each time): every public deal ends with a sheet, and its items ask about a
    few small counts, the same ones over and over."""
    memo: dict[tuple[Value, ...], tuple[int, ...]] = {}

    def points(values: Sequence[Value]) -> list[int]:
        key = tuple(values)
        found = memo.get(key)
        if found is None:
            found = tuple(points_from(key))
            if len(memo) < 50_000:
                memo[key] = found
        return list(found)

    return points


#: nobody's declared points, by number of sides (read only)
_NO_DECLARATIONS = {n: [0] * n for n in range(2, 7)}
#: the items whose per-side values the score sheet counts for the sides' classic facts
_KNOWN_SLOTS = {
    "cards": 0, "coins": 1, "sevens": 2, "primiera": 3, "scope": 4, "settebello": 5,
}


def _items(rules: Rules) -> tuple[ScoreItem, ...]:
    """The items a rule set plays, in score-sheet order."""
    out: list[ScoreItem] = [CARDS, COIN_ITEM, SETTEBELLO_ITEM]
    if rules.primiera:
        out.append(PRIMIERA[rules.primiera_faces])
    if rules.sevens:
        out.append(SEVENS)
    out.append(SWEEPS)
    if rules.napola:
        out.append(NAPOLA)
    if rules.re_bello:
        out.append(RE_BELLO_ITEM)
    if rules.piccola:
        out.append(PICCOLA)
    if rules.grande:
        out.append(GRANDE)
    if rules.declarations != "off":
        out.append(DECLARED)
    return tuple(out)


_MEANINGS: dict[Rules, Meaning] = {}
#: the same by the identity of the ``Rules`` object: hashing a rule set hashes every
#: option, and the scoring paths ask for its meaning once per hand
_BY_ID: dict[int, tuple[Rules, Meaning]] = {}


def meaning_of(rules: Rules) -> Meaning:
    """The shared ``Meaning`` of a rule set, built on first use."""
    hit = _BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    m = _MEANINGS.get(rules)
    if m is None:
        if len(_MEANINGS) > 1000:
            _MEANINGS.clear()
            _BY_ID.clear()
        m = _MEANINGS[rules] = Meaning(rules)
    if len(_BY_ID) > 1000:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, m)  # holds ``rules``: its id is not reused meanwhile
    return m


__all__ = ["Meaning", "meaning_of", "declaration_points", "MATTA"]
