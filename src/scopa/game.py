"""Game: the state of a match and its current hand, legal moves, and play.

Two ways in:
- the public one (``legal_moves`` / ``play`` with ``Move`` objects or move dicts), which
  validates everything and keeps card order for display;
- the internal one (``legal_codes`` / ``play_code`` with moves packed in one int:
  ``card | capture_mask << 6``), which search bots use millions of times.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Self

from .captures import _expand_slow
from .cards import (
    ALL_CARDS,
    NUM_CARDS,
    RANK,
    RANK_KEY,
    card,
    card_text,
    cards_of,
    cards_text,
    iter_cards,
    rank_key,
)
from .meaning import Meaning, meaning_of
from .rules import Rules
from .scoring import sheet
from .shuffle import deck_from_seed, new_seed

#: the seat each card of a round of dealing goes to, in dealing order, by number of seats,
#: first seat and cards dealt to each seat (one loop over it deals the round)
_DEAL_ORDER = {
    n: [
        [tuple((f + i) % n for i in range(n)) * size for size in range(NUM_CARDS // n + 1)]
        for f in range(n)
    ]
    for n in range(2, 7)
}
#: card order of a state built without a deal or a position (views, samples)
_CARD_ORDER = tuple(range(NUM_CARDS))
#: the card field of a history entry for the opening 15/30 sweep by the dealer (Escoba,
#: Cirulla); its capture field holds the table taken
OPENING = 63
#: the card field of the two declaration moves (Cirulla): declare the dealt hand, or pass.
#: In history a declaration's capture field holds the hand shown.
DECLARE = 62
PASS = 61
#: the card field of a history entry for a declaration made by the rules (``"auto"``)
AUTO_DECLARE = 60
#: codes whose card field is at least this are not card plays
MARKS = 60


def is_card_play(code: int) -> bool:
    """Whether a history code is a card played (not an opening sweep or a declaration)."""
    return code & 63 < MARKS


class IllegalMoveError(ValueError):
    """A move that is malformed or not legal in the current state."""


class PositionError(ValueError):
    """A position or record that does not describe a reachable state."""


class Move(NamedTuple):
    """One play: the card from hand and the mask of table cards it takes (0: laid)."""

    card: int
    capture: int = 0

    @property
    def code(self) -> int:
        return self.card | self.capture << 6

    @classmethod
    def from_code(cls, code: int) -> Move:
        return _MOVES[code]

    @property
    def capture_cards(self) -> list[int]:
        return cards_of(self.capture)

    @property
    def is_declaration(self) -> bool:
        """A declaration move (declare or pass), not a card played."""
        return self.card == DECLARE or self.card == PASS

    def to_dict(self) -> dict[str, Any]:
        if self.card >= MARKS:
            return {"declare": self.card == DECLARE}
        taken = [card_text(c) for c in cards_of(self.capture)]
        return {"card": card_text(self.card), "capture": taken}

    def __str__(self) -> str:
        if self.card >= MARKS:
            return "declare" if self.card == DECLARE else "pass"
        if not self.capture:
            return card_text(self.card)
        return card_text(self.card) + ":" + "+".join(card_text(c) for c in cards_of(self.capture))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``7d`` (laid), ``7d:3s+4d`` (capture), ``declare`` or ``pass``."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text like '7d:3s+4d', got {text!r}")
        word = _DECLARATION_WORDS.get(text.strip().lower())
        if word is not None:
            return cls.from_code(word)
        head, colon, tail = text.strip().partition(":")
        if colon and not tail:
            raise IllegalMoveError(f"malformed move {text!r}: nothing after ':'")
        try:
            c = card(head)
            taken = [card(t) for t in tail.split("+")] if tail else []
        except ValueError as e:
            raise IllegalMoveError(f"malformed move {text!r}: {e}") from None
        return cls.from_cards(c, taken)

    @classmethod
    def from_cards(cls, c: int, taken: list[int]) -> Move:
        mask = 0
        for t in taken:
            if mask >> t & 1:
                raise IllegalMoveError(f"capture names {card_text(t)} twice")
            mask |= 1 << t
        if mask >> c & 1:
            raise IllegalMoveError("a card cannot capture itself")
        return cls.from_code(c | mask << 6)

    @classmethod
    def from_dict(cls, data: Any) -> Move:
        """Parse ``{"card": "7d", "capture": ["3s", "4d"]}`` or ``{"declare": true}``."""
        if isinstance(data, dict) and "declare" in data:
            if set(data) != {"declare"} or type(data["declare"]) is not bool:
                raise IllegalMoveError(
                    'a declaration is {"declare": true} or {"declare": false}, got '
                    + repr(data)[:200]
                )
            return cls.from_code(DECLARE if data["declare"] else PASS)
        if not isinstance(data, dict) or set(data) - {"card", "capture"} or "card" not in data:
            raise IllegalMoveError(
                'a move must be {"card": "7d", "capture": ["3s", "4d"]}, got ' + repr(data)[:200]
            )
        taken = data.get("capture", [])
        if not isinstance(taken, list) or len(taken) > NUM_CARDS:
            raise IllegalMoveError("capture must be a list of cards")
        try:
            c = card(data["card"])
            cards = [card(t) for t in taken]
        except ValueError as e:
            raise IllegalMoveError(f"malformed move: {e}") from None
        return cls.from_cards(c, cards)


#: the keys of a move's dict form (a card play or a declaration)
MOVE_KEYS = ("card", "capture", "declare")


def move_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The move's own keys of a dict that carries more (a stored event: seat, by...)."""
    return {k: data[k] for k in MOVE_KEYS if k in data}


class _MoveCache(dict[int, Move]):
    """One shared ``Move`` per code, made on first use: ``legal_moves`` hands out the same
    objects every time, so ``play`` finds them by identity."""

    def __missing__(self, code: int) -> Move:
        m = Move(code & 63, code >> 6)
        if len(self) < 1_000_000:  # bounded: a long-running server meets many tables
            self[code] = m
        return m


_MOVES = _MoveCache()
_move_of = _MOVES.__getitem__
_DECLARATION_WORDS = {"declare": DECLARE, "pass": PASS}
#: the moves open to a seat that may declare its dealt hand
DECISION_CODES = (DECLARE, PASS)

#: (card, rank) pairs of hand masks seen so far: iterating a hand is the hot loop
_HAND_CARDS: dict[int, tuple[tuple[int, int], ...]] = {}


def held_cards(hand: int) -> tuple[tuple[int, int], ...]:
    """The (card, rank) pairs of a hand, cached for small hands."""
    held = tuple((c, RANK[c]) for c in iter_cards(hand))
    if len(held) <= 4 and len(_HAND_CARDS) < 300_000:
        _HAND_CARDS[hand] = held
    return held


class Game:
    """A match in progress: the current hand's state plus the match score and log."""

    __slots__ = (
        "rules", "n", "dealer", "to_move", "hands", "table", "tkey", "stock", "captured",
        "scope", "last_capturer", "scores", "hand_over", "history", "in_hands", "round",
        "seed", "hand_number", "hand_seed", "hand_attempt", "deck", "results",
        "meaning", "undecided", "declared", "shown", "auto_declare",
        "_rows", "_solver", "_order", "_table0", "_result", "_legal",
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
    scores: list[int]
    hand_over: bool
    #: this hand's plays: (seat, move code, swept); an Escoba opening sweep has card OPENING
    history: list[tuple[int, int, bool]]
    in_hands: int
    round: int
    seed: str | None
    hand_number: int
    hand_seed: str | None
    hand_attempt: int
    deck: list[int] | None
    results: list[dict[str, Any]]
    #: what the rules mean (solver, sweeps, items, declarations), shared by every game
    meaning: Meaning
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
    #: it; each card's rank in it is worked out only when a position is written), and the
    #: table then
    _order: Sequence[int]
    _table0: int

    # -- construction -------------------------------------------------------------------
    def __init__(
        self,
        rules: Rules | None = None,
        seed: str | int | None = None,
        dealer: int | None = None,
        deck: list[int] | None = None,
        hand_seed: str | None = None,
    ) -> None:
        """Start a match: deal its first hand from ``deck``, or from ``hand_seed``, or from
        ``seed`` (the match seed: hand k is dealt from the seed ``f"{seed}:{k}"``), or from a
        fresh cryptographic seed."""
        self._init_empty(rules or Rules.preset())
        self.seed = None if seed is None else str(seed)
        self.dealer = self.n - 1 if dealer is None else dealer
        if not 0 <= self.dealer < self.n:
            raise ValueError(f"dealer must be a seat 0..{self.n - 1}")
        if deck is not None:
            self._deal(deck)
        else:
            self._deal_seeded(hand_seed if hand_seed is not None else self._hand_seed_for(1))

    def _init_empty(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.players
        self.meaning = meaning = meaning_of(rules)
        self._solver = meaning.solver
        self._rows = self._solver.rows
        self.undecided = 0
        self.declared = [0] * rules.players
        self.shown = [0] * rules.players
        self.auto_declare = meaning.auto_declares
        self.scores = [0] * rules.teams
        self.hand_number = 1
        self.results = []
        self.seed = None
        self.hand_seed = None
        self.hand_attempt = 0
        self.deck = None
        self._order = _CARD_ORDER
        self._table0 = 0
        self._result = None
        self._legal = None

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
        way other modules build a ``Game`` without dealing. ``stock`` lists the next card
        dealt last; the lists are taken over, not copied. Nothing is checked here: the
        caller has checked its input (``notation.load_position`` says what is wrong)."""
        # every field set once, here (no ``_init_empty`` first): positions are loaded on
        # every public deal and in every view a bot samples
        g = cls.__new__(cls)
        n = rules.players
        g.rules = rules
        g.n = n
        g.meaning = meaning = meaning_of(rules)
        g._solver = solver = meaning.solver
        g._rows = solver.rows
        g.auto_declare = meaning.auto_declares
        g.results = []
        g.seed = None
        g.hand_seed = None
        g.hand_attempt = 0
        g.deck = None
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
        g._order = _CARD_ORDER if order is None else order
        g._table0 = table
        g.declared = list(declared) if declared else [0] * n
        g.shown = list(shown) if shown else [0] * n
        g.undecided = undecided
        return g

    @classmethod
    def new(
        cls, variant: str = "scopa", seed: str | int | None = None, **options: Any
    ) -> Game:
        """A new match of a named variant with option overrides."""
        return cls(Rules.preset(variant, **options), seed=seed)

    def _hand_seed_for(self, number: int) -> str:
        return new_seed() if self.seed is None else f"{self.seed}:{number}"

    def _deal_seeded(self, seed: str) -> None:
        attempt = 0
        deck = deck_from_seed(seed, attempt)
        while self._void_deal(deck):
            attempt += 1
            deck = deck_from_seed(seed, attempt)
        self._deal(deck)
        self.hand_seed = seed
        self.hand_attempt = attempt

    def _void_deal(self, deck: list[int]) -> bool:
        return self.meaning.void_deal(deck)

    def _check_deck(self, deck: list[int]) -> None:
        if not isinstance(deck, list) or sorted(deck) != list(range(NUM_CARDS)):
            raise PositionError("a deck must hold each of the 40 cards once")
        if self._void_deal(deck):
            raise PositionError("this deck is a void deal (too many kings or aces on the table)")

    def _deal(self, deck: list[int]) -> None:
        """Deal a hand from a deck in deal order: hands one card at a time from the seat
        after the dealer, then the table, the rest is the stock."""
        self._check_deck(deck)
        r = self.rules
        n = self.n
        self.deck = list(deck)
        self._order = tuple(deck)
        self.stock = deck[::-1]
        self.hands = [0] * n
        self.round = -1
        self.history = []
        self.declared = [0] * n
        self._deal_round()
        table = 0
        for _ in range(r.table_cards):
            table |= 1 << self.stock.pop()
        self.table = table
        self.tkey = rank_key(table)
        self.captured = [0] * n
        self.scope = [0] * n
        self.last_capturer = -1
        self.hand_over = False
        self.hand_seed = None
        self.hand_attempt = 0
        self._result = None
        self._legal = None
        self._table0 = table
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
        for c, rank in held:
            sols = row[rank]
            if not sols:
                out.append(c)
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

    @property
    def deciding(self) -> bool:
        """The seat to move must first declare its hand or pass."""
        return bool(self.undecided >> self.to_move & 1) and not self.hand_over

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

    def state_changed(self) -> None:
        """Forget what was derived from the state (legal moves, the score sheet): for code
        that changes the state in place outside ``play`` (the fast playouts)."""
        self._legal = None
        self._result = None

    def copy(self) -> Game:
        """An independent copy of the state and match log (earlier hands' entries are shared
        read-only dicts)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.n = self.n
        g.dealer = self.dealer
        g.to_move = self.to_move
        g.hands = self.hands.copy()
        g.table = self.table
        g.tkey = self.tkey
        g.stock = self.stock.copy()
        g.captured = self.captured.copy()
        g.scope = self.scope.copy()
        g.last_capturer = self.last_capturer
        g.scores = self.scores.copy()
        g.hand_over = self.hand_over
        g.history = self.history.copy()
        g.in_hands = self.in_hands
        g.round = self.round
        g.seed = self.seed
        g.hand_number = self.hand_number
        g.hand_seed = self.hand_seed
        g.hand_attempt = self.hand_attempt
        g.deck = self.deck
        g.results = self.results.copy()
        g.meaning = self.meaning
        g.undecided = self.undecided
        g.declared = self.declared  # replaced, never changed in place (``_declare``)
        g.shown = self.shown
        g.auto_declare = self.auto_declare
        g._rows = self._rows
        g._solver = self._solver
        g._order = self._order
        g._table0 = self._table0
        g._result = self._result
        g._legal = None
        return g

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
        for c, rank in held:
            sols = row[rank]
            if not sols:
                out.append(move_of(c))
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
            c, m = move
            if c in DECISION_CODES and m == 0:
                raise IllegalMoveError(f"seat {self.to_move} has no declaration to make now")
            if self.deciding:
                raise IllegalMoveError(
                    f"seat {self.to_move} must first declare its hand or pass: "
                    '{"declare": true} or {"declare": false}'
                )
            if not (type(c) is int and type(m) is int and 0 <= c < NUM_CARDS
                    and 0 <= m <= ALL_CARDS):
                raise IllegalMoveError(f"not a move: {move!r} names no card")
            if not self.hands[self.to_move] >> c & 1:
                raise IllegalMoveError(f"{card_text(c)} is not in the hand of seat {self.to_move}")
            raise IllegalMoveError(self._why_illegal(move))
        # the legal move equal to ``move`` (which may spell its numbers as True or 7.0)
        c, m = legal[legal.index(move)]
        self.play_code(c | m << 6)

    def last_entry(self) -> tuple[int, int, bool]:
        """The history entry of the last move played (an opening sweep or a declaration
        the rules made may have come after it)."""
        for entry in reversed(self.history):
            if entry[1] & 63 not in _ENGINE_MARKS:
                return entry
        raise ValueError("no move has been played in this hand")

    def moves(self) -> list[Move]:
        """This hand's moves so far, in order (from ``history``)."""
        return [
            Move.from_code(code if code & 63 < MARKS else code & 63)
            for _, code, _ in self.history
            if code & 63 not in _ENGINE_MARKS
        ]

    def _why_illegal(self, move: Move) -> str:
        text = str(move)
        options = [m for m in self.legal_moves() if m.card == move.card]
        if move.capture & ~self.table:
            missing = cards_of(move.capture & ~self.table)
            return f"{text}: {', '.join(card_text(c) for c in missing)} not on the table"
        takes = [m for m in options if m.capture]
        if not takes:
            return f"{text}: {card_text(move.card)} takes nothing here; lay it"
        if not move.capture:
            return f"{text}: {card_text(move.card)} must capture: " + " or ".join(
                str(m) for m in takes
            )
        return f"{text}: not a legal capture; legal: " + " or ".join(str(m) for m in takes)

    # -- hand and match -----------------------------------------------------------------
    def hand_result(self) -> dict[str, Any]:
        """The score sheet of the finished hand (see ``scoring.score_hand``)."""
        if not self.hand_over:
            raise ValueError("the hand is not over yet")
        if self._result is None:
            self._result = sheet(self.meaning, self.captured, self.scope, self.declared)
        return self._result

    def match_totals(self) -> list[int]:
        """Match points per side counting the finished current hand."""
        res = self.hand_result()
        return [s + side["total"] for s, side in zip(self.scores, res["sides"], strict=True)]

    @property
    def winner(self) -> int | None:
        """The winning side once the match is decided, else None."""
        if not self.hand_over:
            return None
        return self.meaning.winner(self.match_totals(), self.hand_result()["outright"])

    @property
    def match_over(self) -> bool:
        return self.winner is not None

    def next_hand(self, seed: str | int | None = None, deck: list[int] | None = None) -> None:
        """Bank the finished hand's points and deal the next hand, the deal passing on."""
        if not self.hand_over:
            raise ValueError("the hand is not over yet")
        if self.match_over:
            raise ValueError("the match is over")
        if deck is not None:
            self._check_deck(deck)  # before anything changes
        res = self.hand_result()
        self.results.append(self._hand_entry(res))
        self.scores = self.match_totals()
        self.hand_number += 1
        self.dealer = (self.dealer + 1) % self.n
        if deck is not None:
            self._deal(deck)
        else:
            number = self.hand_number
            self._deal_seeded(str(seed) if seed is not None else self._hand_seed_for(number))

    def _hand_entry(self, result: dict[str, Any] | None) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "seed": self.hand_seed,
            "redeals": self.hand_attempt,
            "deck": [card_text(c) for c in self.deck] if self.deck is not None else None,
            "moves": [m.to_dict() for m in self.moves()],
            "result": result,
        }

    def hand_log(self) -> list[dict[str, Any]]:
        """Every hand so far with its dealer, seed, deck, moves and result (None for the
        hand in progress): the material of a game record. A position loaded without its
        deal has no entry for its hand."""
        out = list(self.results)
        if self.deck is not None:
            out.append(self._hand_entry(self.hand_result() if self.hand_over else None))
        return out

    # -- positions ----------------------------------------------------------------------
    def _display_order(self) -> list[int]:
        """Each card's display order: cards keep their place, a laid card goes to the end of
        the table, taken cards and leftovers to the end of the pile (replayed from history)."""
        seq = [0] * NUM_CARDS
        for i, c in enumerate(self._order):
            seq[c] = i
        nxt = NUM_CARDS
        table = self._table0
        for _, code, _ in self.history:
            c = code & 63
            cap = code >> 6
            if MARKS <= c < OPENING:  # a declaration: no card moves
                continue
            if c != OPENING:
                seq[c] = nxt
                nxt += 1
            if cap:
                for t in cards_of(cap):
                    seq[t] = nxt
                    nxt += 1
                table &= ~cap
            else:
                table |= 1 << c
        if self.hand_over and table & ~self.table:
            for t in cards_of(table & ~self.table):
                seq[t] = nxt
                nxt += 1
        return seq

    def to_position(self) -> dict[str, Any]:
        """The position as JSON-ready data (see docs/formats.md)."""
        seq = self._display_order()

        def ordered(mask: int) -> list[str]:
            return [card_text(c) for c in sorted(cards_of(mask), key=seq.__getitem__)]

        out: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "to_move": self.to_move,
            "hands": [ordered(h) for h in self.hands],
            "table": ordered(self.table),
            "stock": [card_text(c) for c in reversed(self.stock)],
            "captured": [ordered(c) for c in self.captured],
            "scope": list(self.scope),
            "last_capturer": None if self.last_capturer < 0 else self.last_capturer,
            "scores": list(self.scores),
        }
        if self.meaning.declares:
            out["declarations"] = {
                "points": list(self.declared),
                "shown": [cards_text(h) for h in self.shown],
                "pending": [s for s in range(self.n) if self.undecided >> s & 1],
            }
        return out

    def __repr__(self) -> str:
        return f"Game({self.rules.variant}, hand {self.hand_number}, to_move={self.to_move})"


#: history marks the engine writes itself (no player's move)
_ENGINE_MARKS = frozenset((OPENING, AUTO_DECLARE))

__all__ = [
    "Game", "Move", "IllegalMoveError", "PositionError", "OPENING", "DECLARE", "PASS",
    "AUTO_DECLARE", "is_card_play",
]
