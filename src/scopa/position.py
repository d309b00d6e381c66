"""Position: the state of one hand, what a search copies, apart from the rules of play.

The hands, the table, the stock, the piles, whose turn, this hand's plays and the match
score going into it; built from its parts (a loaded position, a view's sample).
``hand.Hand`` builds on it the rules of play: dealing, the legal plays and playing them,
the declarations, the score sheet, and ``copy`` (every search node, every playout: there
it names its class, 25 ns a copy less than asking ``type(self)``); as python-chess's
``Board`` builds its moves on a ``BaseBoard``. Reading the state (whose turn, the plays so
far) is here; changing it is ``Hand``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from .captures import CaptureSolver, SolutionRow
from .cards import NUM_CARDS, rank_key
from .meaning import Meaning, meaning_of
from .moves import ENGINE_MARKS, MARKS, Move
from .rules import Rules

#: card order of a state built without a deal or a position (views, samples)
_CARD_ORDER = tuple(range(NUM_CARDS))


class Position:
    """The state of a hand in progress (its rules of play: ``hand.Hand``)."""


    __slots__ = (
        "rules", "n", "dealer", "to_move", "hands", "table", "tkey", "stock", "captured",
        "scope", "last_capturer", "scores", "hand_over", "history", "in_hands", "round",
        "hand_number", "meaning", "undecided", "declared", "shown", "auto_declare",
        "order", "table0", "_rows", "_solver", "_result", "_legal",
    )

    #: legal moves of the current state, kept between legal_moves() and play()
    _legal: list[Move] | None
    _result: dict[str, Any] | None
    rules: Rules
    n: int
    dealer: int
    to_move: int
    hands: list[int]
    table: int
    tkey: int
    #: cards still to deal, the next one dealt LAST in the list (so dealing pops)
    stock: list[int]
    captured: list[int]
    scope: list[int]
    #: seat of the last capture, -1 for none
    last_capturer: int
    #: match points per side banked before this hand (replaced, never changed in place)
    scores: list[int]
    hand_over: bool
    #: this hand's plays: (seat, move code, swept); an Escoba opening sweep has card OPENING
    history: list[tuple[int, int, bool]]
    in_hands: int
    round: int
    #: which hand of its match this is (1 for the first)
    hand_number: int
    #: what the rules mean (solver, sweeps, items, declarations), shared by every hand
    meaning: Meaning
    #: the meaning's capture solver and its rows, read on every move generated
    _solver: CaptureSolver
    _rows: dict[int, SolutionRow]
    #: seats that may still declare their dealt hand this round (a bit per seat)
    undecided: int
    #: declaration points per seat this hand (a new list on every change: copies share it)
    declared: list[int]
    #: each seat's hand declared this round, public while its cards are held (a new list
    #: on every change)
    shown: list[int]
    #: every declaration that scores is made at once (the rules' "auto", or a search's
    #: imagined worlds, which assume every player declares)
    auto_declare: bool
    #: the cards in display order when ``history`` began (never mutated, so copies share
    #: it; each card's rank in it is worked out only when a position is written, by
    #: ``notation.dump_position``), and the table then
    order: Sequence[int]
    table0: int

    @classmethod
    def from_parts(
        cls,
        rules: Rules,
        *,
        dealer: int,
        to_move: int,
        hands: list[int],
        table: int,
        stock: list[int],
        captured: list[int],
        scope: list[int],
        last_capturer: int,
        scores: list[int],
        round: int,
        history: Sequence[tuple[int, int, bool]] = (),
        hand_number: int = 1,
        order: Sequence[int] | None = None,
        declared: Sequence[int] | None = None,
        shown: Sequence[int] | None = None,
        undecided: int = 0,
    ) -> Self:
        """A state assembled from its parts (a loaded position, a view's sample): the one
        way other modules build a ``Hand`` without dealing. ``stock`` lists the next card
        dealt last; the lists are taken over, not copied. Nothing is checked here: the
        caller has checked its input (``notation.load_position`` says what is wrong)."""
        # every field set once, here: positions are loaded on every public deal and in
        # every view a bot samples
        g = cls.__new__(cls)
        n = rules.players
        g.rules = rules
        g.n = n
        g.meaning = meaning = meaning_of(rules)
        g._solver = solver = meaning.solver
        g._rows = solver.rows
        g.auto_declare = meaning.auto_declares
        g._result = None
        g._legal = None
        g.dealer = dealer
        g.to_move = to_move
        g.hands = hands
        g.table = table
        g.tkey = rank_key(table)
        g.stock = stock
        g.captured = captured
        g.scope = scope
        g.last_capturer = last_capturer
        g.scores = scores
        g.history = list(history)
        g.in_hands = in_hands = sum(map(int.bit_count, hands))
        g.hand_over = not in_hands and not stock
        g.round = round
        g.hand_number = hand_number
        g.order = _CARD_ORDER if order is None else order
        g.table0 = table
        g.declared = list(declared) if declared else [0] * n
        g.shown = list(shown) if shown else [0] * n
        g.undecided = undecided
        return g

    @property
    def deciding(self) -> bool:
        """The seat to move must first declare its hand or pass."""
        return bool(self.undecided >> self.to_move & 1) and not self.hand_over

    def state_changed(self) -> None:
        """Forget what was derived from the state (legal moves, the score sheet): for code
        that changes the state in place outside ``play`` (the fast playouts)."""
        self._legal = None
        self._result = None

    def last_entry(self) -> tuple[int, int, bool]:
        """The history entry of the last move played (an opening sweep or a declaration
        the rules made may have come after it)."""
        for entry in reversed(self.history):
            if entry[1] & 63 not in ENGINE_MARKS:
                return entry
        raise ValueError("no move has been played in this hand")

    def moves(self) -> list[Move]:
        """This hand's moves so far, in order (from ``history``)."""
        return [
            Move.from_code(code if code & 63 < MARKS else code & 63)
            for _, code, _ in self.history
            if code & 63 not in ENGINE_MARKS
        ]

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.rules.variant}, hand {self.hand_number}, "
                f"to_move={self.to_move})")


__all__ = ["Position"]
