"""Hand: one hand being played: dealing, its legal plays, and play.

What a search copies and a playout plays out is its state (``position.Position``: the
hands, the table, the stock, the piles, whose turn, this hand's plays, and the match score
going into it, which a position carries as our position format does: a bot weighs the
score); ``Hand`` adds the rules of play on it. Everything about the match around it (the
rules' target reached, the seeds, the log of earlier hands, the next deal) is
``scopa.match``'s, which holds the current ``Hand`` as python-chess's ``pgn.Game`` holds a
``Board``; so ``copy`` copies only the position, and this module imports nothing built on
it (views, positions and playouts take a ``Hand``; ``tests/test_layers.py`` keeps it so).

Two ways in:
- the public one (``legal_moves`` / ``play`` with ``Move`` objects or move dicts), which
  validates everything and keeps card order for display;
- the internal one (``legal_codes`` / ``play_code`` with moves packed in one int:
  ``card | capture_mask << 6``), which search bots use millions of times.
"""

from __future__ import annotations

from typing import Any, Self

from .captures import _expand_slow
from .cards import (
    ALL_CARDS,
    NUM_CARDS,
    RANK,
    RANK_KEY,
    card_text,
    cards_of,
    iter_cards,
    rank_key,
)
from .meaning import Meaning, meaning_of
from .moves import (
    AUTO_DECLARE,
    DECISION_CODES,
    DECLARE,
    MARKS,
    OPENING,
    PASS,
    IllegalMoveError,
    Move,
    PositionError,
)
from .moves import move_of as _move_of
from .position import Position
from .rules import Rules
from .scoring import sheet

#: the seat each card of a round of dealing goes to, in dealing order, by number of seats,
#: first seat and cards dealt to each seat (one loop over it deals the round)
_DEAL_ORDER = {
    n: [
        [tuple((f + i) % n for i in range(n)) * size for size in range(NUM_CARDS // n + 1)]
        for f in range(n)
    ]
    for n in range(2, 7)
}
#: (card, rank) pairs of hand masks seen so far: iterating a hand is the hot loop
_HAND_CARDS: dict[int, tuple[tuple[int, int], ...]] = {}


def held_cards(hand: int) -> tuple[tuple[int, int], ...]:
    """The (card, rank) pairs of a hand, cached for small hands."""
    held = tuple((c, RANK[c]) for c in iter_cards(hand))
    if len(held) <= 4 and len(_HAND_CARDS) < 300_000:
        _HAND_CARDS[hand] = held
    return held


def check_deck(meaning: Meaning, deck: list[int]) -> None:
    """Raise ``PositionError`` unless ``deck`` holds each card once and is no void deal."""
    if not isinstance(deck, list) or sorted(deck) != list(range(NUM_CARDS)):
        raise PositionError("a deck must hold each of the 40 cards once")
    if meaning.void_deal(deck):
        raise PositionError("this deck is a void deal (too many kings or aces on the table)")


class Hand(Position):
    """A hand in progress: dealing, its legal plays and playing them, the Cirulla
    declarations, and its score sheet once over (the state itself: ``Position``)."""

    __slots__ = ()

    # -- construction -------------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        rules: Rules,
        deck: list[int],
        *,
        dealer: int | None = None,
        scores: list[int] | None = None,
        hand_number: int = 1,
    ) -> Self:
        """Deal a hand from a deck in deal order (hands one card at a time from the seat
        after the dealer, then the table; the rest is the stock); the dealer defaults to
        the last seat. Raise ``PositionError`` for a deck that is not a deck or is a void
        deal (``check_deck``), ``ValueError`` for a dealer that is no seat."""
        n = rules.players
        dealer = n - 1 if dealer is None else dealer
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}")
        check_deck(meaning_of(rules), deck)  # before anything is built from it
        h = cls.from_parts(
            rules, dealer=dealer, to_move=(dealer + 1) % n, hands=[0] * n, table=0,
            stock=deck[::-1], captured=[0] * n, scope=[0] * n, last_capturer=-1,
            scores=[0] * rules.teams if scores is None else scores, round=-1,
            hand_number=hand_number, order=tuple(deck),
        )
        h._deal_out()
        return h

    def _deal_out(self) -> None:
        """The first round to the hands, then the table (``deal``: the stock is the deck)."""
        r = self.rules
        self._deal_round()
        table = 0
        for _ in range(r.table_cards):
            table |= 1 << self.stock.pop()
        self.table = table
        self.tkey = rank_key(table)
        self.table0 = table
        sweeps = self.meaning.opening_sweeps(table)
        if sweeps:
            d = self.dealer
            self.captured[d] |= table
            self.scope[d] += sweeps
            self.last_capturer = d
            self.history.append((d, OPENING | table << 6, True))
            self.table = 0
            self.tkey = 0

    # -- the internal fast path ---------------------------------------------------------
    def legal_codes(self) -> list[int]:
        """Every legal move of the seat to move, packed as ``card | capture << 6``."""
        if self.undecided and self.undecided >> self.to_move & 1:
            return list(DECISION_CODES)
        tkey = self.tkey
        row = self._rows.get(tkey)
        if row is None:
            row = self._solver.row(tkey)
        table = self.table
        hand = self.hands[self.to_move]
        held = _HAND_CARDS.get(hand)
        if held is None:
            held = held_cards(hand)
        out = []
        lay = self.meaning.lay_always
        for c, rank in held:
            sols = row[rank]
            if not sols or lay:
                out.append(c)
                if not sols:
                    continue
            for key, field, span in sols:
                if tkey & field == key:
                    out.append(c | (table & span) << 6)
                else:
                    for m in _expand_slow(table, key):
                        out.append(c | m << 6)
        return out

    def play_code(self, code: int) -> None:
        """Apply a packed move that ``legal_codes`` returned (not checked)."""
        c = code & 63
        if c >= MARKS:
            self._decide(c == DECLARE)
            return
        cap = code >> 6
        p = self.to_move
        self._legal = None
        self.hands[p] ^= 1 << c
        self.in_hands -= 1
        swept = False
        if cap:
            table = self.table ^ cap
            self.table = table
            if table:
                self.tkey -= rank_key(cap)
            else:
                self.tkey = 0
                if self.meaning.sweep_scores(RANK[c], cap, not (self.in_hands or self.stock)):
                    self.scope[p] += 1
                    swept = True
            self.captured[p] |= cap | 1 << c
            self.last_capturer = p
        else:
            self.table |= 1 << c
            self.tkey += RANK_KEY[c]
        self.history.append((p, code, swept))
        if self.in_hands:
            p += 1
            self.to_move = 0 if p == self.n else p
        elif self.stock:
            self._deal_round()
        else:
            self._end_hand()

    def _deal_round(self) -> None:
        """Deal the next round from the stock, one card at a time from the seat after the
        dealer; that seat plays first."""
        n = self.n
        self.round += 1
        size = self.rules.rounds[self.round]
        first = (self.dealer + 1) % n
        hands = self.hands
        pop = self.stock.pop
        for seat in _DEAL_ORDER[n][first][size]:
            hands[seat] |= 1 << pop()
        self.in_hands = n * size
        self.to_move = first
        if self.meaning.declares:
            self._offer_declarations()

    # -- declarations (Cirulla) ---------------------------------------------------------
    def _offer_declarations(self) -> None:
        """A round was dealt: each seat whose hand scores may declare it before its first
        play (or declares at once, with ``auto_declare``)."""
        self.undecided = 0
        self.shown = [0] * self.n
        declaration = self.meaning.declaration
        for seat, hand in enumerate(self.hands):
            if declaration(hand):
                if self.auto_declare:
                    self._declare(seat, AUTO_DECLARE)
                else:
                    self.undecided |= 1 << seat

    def _declare(self, seat: int, mark: int) -> None:
        # new lists, never changed in place: copies of the game share them
        hand = self.hands[seat]
        declared = self.declared.copy()
        declared[seat] += self.meaning.declaration(hand)
        self.declared = declared
        shown = self.shown.copy()
        shown[seat] = hand
        self.shown = shown
        self.history.append((seat, mark | hand << 6, False))

    def _decide(self, declare: bool) -> None:
        """The seat to move declares its hand or passes; it then plays a card."""
        p = self.to_move
        self._legal = None
        self.undecided &= ~(1 << p)
        if declare:
            self._declare(p, DECLARE)
        else:
            self.history.append((p, PASS, False))

    def assume_declarations(self) -> None:
        """From now on every hand that scores is declared at once (the worlds a search
        imagines: every player declares). The other seats' pending choices are made now;
        the seat to move keeps its own, for the search to weigh."""
        self.auto_declare = True
        for seat in range(self.n):
            if seat != self.to_move and self.undecided >> seat & 1:
                self._declare(seat, AUTO_DECLARE)
                self.undecided &= ~(1 << seat)
        self._legal = None

    def _end_hand(self) -> None:
        if self.table and self.last_capturer >= 0:
            self.captured[self.last_capturer] |= self.table
            self.table = 0
            self.tkey = 0
        self.hand_over = True

    def copy(self) -> Hand:
        """An independent copy of the position (what a search node or a playout changes);
        the rules, their meaning, the match score and the lists that are replaced rather
        than changed in place are shared."""
        h = Hand.__new__(Hand)
        h.rules = self.rules
        h.n = self.n
        h.dealer = self.dealer
        h.to_move = self.to_move
        h.hands = self.hands.copy()
        h.table = self.table
        h.tkey = self.tkey
        h.stock = self.stock.copy()
        h.captured = self.captured.copy()
        h.scope = self.scope.copy()
        h.last_capturer = self.last_capturer
        h.scores = self.scores  # replaced, never changed in place (``Match.next_hand``)
        h.hand_over = self.hand_over
        h.history = self.history.copy()
        h.in_hands = self.in_hands
        h.round = self.round
        h.hand_number = self.hand_number
        h.meaning = self.meaning
        h.undecided = self.undecided
        h.declared = self.declared  # replaced, never changed in place (``_declare``)
        h.shown = self.shown
        h.auto_declare = self.auto_declare
        h._rows = self._rows
        h._solver = self._solver
        h.order = self.order
        h.table0 = self.table0
        h._result = self._result
        h._legal = None
        return h

    # -- the public path ----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move (empty once the hand is over)."""
        if self.hand_over:
            return []
        moves = self._legal
        if moves is None:
            moves = self._legal = self._moves_now()
        return moves.copy()

    def _moves_now(self) -> list[Move]:
        """``legal_codes`` with each code turned into its shared ``Move`` on the spot (the
        same loop, copied: one list and one pass fewer on every public move)."""
        if self.undecided and self.undecided >> self.to_move & 1:
            # (``map``, not a comprehension: one reading ``move_of`` would make it a cell,
            # slower on every read in the loop below)
            return list(map(_move_of, DECISION_CODES))
        move_of = _move_of
        tkey = self.tkey
        row = self._rows.get(tkey)
        if row is None:
            row = self._solver.row(tkey)
        table = self.table
        hand = self.hands[self.to_move]
        held = _HAND_CARDS.get(hand)
        if held is None:
            held = held_cards(hand)
        out = []
        lay = self.meaning.lay_always
        for c, rank in held:
            sols = row[rank]
            if not sols or lay:
                out.append(move_of(c))
                if not sols:
                    continue
            for key, field, span in sols:
                if tkey & field == key:
                    out.append(move_of(c | (table & span) << 6))
                else:
                    for m in _expand_slow(table, key):
                        out.append(move_of(c | m << 6))
        return out

    def play(self, move: Move | dict[str, Any] | str) -> None:
        """Apply a legal move; raise ``IllegalMoveError`` (changing nothing) otherwise."""
        legal = self._legal
        if legal is not None and type(move) is Move:
            # the usual case: one of the Move objects legal_moves() just returned (found
            # by identity); ``_legal`` is only set while the hand is not over. The legal
            # move equal to ``move`` is played (its numbers are ints, whatever ``move``'s)
            try:
                c, m = legal[legal.index(move)]
            except ValueError:
                pass  # not legal: the checks below say why
            else:
                self.play_code(c | m << 6)
                return
        if type(move) is not Move:
            if isinstance(move, dict):
                move = Move.from_dict(move)
            elif isinstance(move, str):
                move = Move.parse(move)
            elif not isinstance(move, Move):
                raise IllegalMoveError(f"not a move: {move!r}")
        if self.hand_over:
            raise IllegalMoveError("the hand is over: no more moves")
        legal = self._legal
        if legal is None:
            legal = self._moves_now()
        if move not in legal:  # the cached Move objects: usually an identity hit
            raise IllegalMoveError(why_illegal(self, move))
        # the legal move equal to ``move`` (which may spell its numbers as True or 7.0)
        c, m = legal[legal.index(move)]
        self.play_code(c | m << 6)

    # -- the hand's result ---------------------------------------------------------------
    def hand_result(self) -> dict[str, Any]:
        """The score sheet of the finished hand (see ``scoring.score_hand``)."""
        if not self.hand_over:
            raise ValueError("the hand is not over yet")
        if self._result is None:
            self._result = sheet(self.meaning, self.captured, self.scope, self.declared)
        return self._result



def why_illegal(hand: Hand, move: Move) -> str:
    """What is wrong with a move that is not among ``hand``'s legal moves: the words of
    its ``IllegalMoveError`` (the first thing a player got wrong, then the legal options
    for the card played). Apart from ``Hand.play``, which only needs to know that it is
    not legal, because explaining is a job of its own."""
    c, m = move
    seat = hand.to_move
    if c in DECISION_CODES and m == 0:
        return f"seat {seat} has no declaration to make now"
    if hand.deciding:
        return (f"seat {seat} must first declare its hand or pass: "
                '{"declare": true} or {"declare": false}')
    if not (type(c) is int and type(m) is int and 0 <= c < NUM_CARDS and 0 <= m <= ALL_CARDS):
        return f"not a move: {move!r} names no card"
    if not hand.hands[seat] >> c & 1:
        return f"{card_text(c)} is not in the hand of seat {seat}"
    text = str(move)
    if m & ~hand.table:
        missing = cards_of(m & ~hand.table)
        return f"{text}: {', '.join(card_text(t) for t in missing)} not on the table"
    takes = [o for o in hand.legal_moves() if o.card == c and o.capture]
    if not takes:
        return f"{text}: {card_text(c)} takes nothing here; lay it"
    if not m:
        return f"{text}: {card_text(c)} must capture: " + " or ".join(str(o) for o in takes)
    return f"{text}: not a legal capture; legal: " + " or ".join(str(o) for o in takes)


__all__ = ["Hand", "check_deck", "held_cards", "why_illegal"]
