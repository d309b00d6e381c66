"""The position format (our FEN): JSON that names every card of a hand in progress.

``dump_position`` writes a ``Hand``'s position and ``load_position`` reads one back: the
format has this one home.

``load_position`` checks everything a hand-written or received position can get wrong
(unknown keys, bad cards, a card twice or missing, hand sizes that no turn order produces)
and says what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from .cards import ALL_CARDS, BIT, CARD_BY_TEXT, NUM_CARDS, card, card_text, cards_of, cards_text
from .hand import Hand
from .meaning import meaning_of
from .moves import MARKS, OPENING, PositionError
from .rules import Rules

POSITION_KEYS = (
    "rules", "dealer", "to_move", "hands", "table", "stock", "captured", "scope",
    "last_capturer", "scores",
)
#: keys a position may add: Cirulla's declarations (absent: none pending or made)
OPTIONAL_KEYS = ("declarations",)


def _is_int(v: object) -> bool:
    return type(v) is int


_KEY_SET = frozenset(POSITION_KEYS)
#: the name of each card zone, in reading order, by number of players (for errors)
_ZONE_NAMES = {
    n: [f"hands[{i}]" for i in range(n)] + ["table", "stock"] + [f"captured[{i}]" for i in range(n)]
    for n in range(2, 7)
}


#: round index of each deal shape that passed ``_round_of`` and ``_check_turn``
_SHAPES: dict[tuple[Any, ...], int] = {}


def _per_seat(value: Any, n: int, where: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != n:
        raise PositionError(f"{where} must have one entry per seat ({n})")
    return value


def _check_keys(data: dict[Any, Any]) -> None:
    """Every position key present and no unknown one (its own function: a comprehension
    reading ``data`` in ``load_position`` would make ``data`` a cell, slower on every read
    there)."""
    missing = [k for k in POSITION_KEYS if k not in data]
    if missing:
        raise PositionError(f"position lacks {', '.join(missing)}")
    extra = sorted(str(k) for k in set(data) - _KEY_SET - set(OPTIONAL_KEYS))
    if extra:
        raise PositionError(f"unknown position key(s): {', '.join(extra)}")


def load_position(data: Any) -> Hand:
    """Build a game from a position; raise ``PositionError`` (a ValueError) if anything is
    off."""
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    if data.keys() != _KEY_SET:
        _check_keys(data)
    try:
        rules = Rules.from_dict(data["rules"])
    except ValueError as e:
        raise PositionError(f"rules: {e}") from None
    n = rules.players
    dealer, to_move = data["dealer"], data["to_move"]
    if not _is_int(dealer) or not 0 <= dealer < n:
        raise PositionError(f"dealer must be a seat 0..{n - 1}")
    if not _is_int(to_move) or not 0 <= to_move < n:
        raise PositionError(f"to_move must be a seat 0..{n - 1}")
    hands_raw = _per_seat(data["hands"], n, "hands")
    piles_raw = _per_seat(data["captured"], n, "captured")
    zones_raw = [*hands_raw, data["table"], data["stock"], *piles_raw]
    read = _read_zones_fast(zones_raw, n)
    if read is None:  # something is off: find it and say what, card by card
        read = _read_zones(zones_raw, _ZONE_NAMES[n])
    masks, stock, order = read
    hand_masks, table, captured = masks[:n], masks[n], masks[n + 2 :]
    scope = _per_seat(data["scope"], n, "scope")
    for s in scope:
        if type(s) is not int or s < 0:
            raise PositionError("scope must hold a non-negative count per seat")
    scores = data["scores"]
    if not isinstance(scores, list) or len(scores) != rules.teams:
        raise PositionError(f"scores must hold a non-negative total per side ({rules.teams})")
    for s in scores:
        if type(s) is not int or s < 0:
            raise PositionError(f"scores must hold a non-negative total per side ({rules.teams})")
    lc = data["last_capturer"]
    if lc is not None and (not _is_int(lc) or not 0 <= lc < n):
        raise PositionError("last_capturer must be null or a seat")

    sizes = list(map(int.bit_count, hand_masks))
    in_hands = sum(sizes)
    hand_over = not in_hands and not stock
    # the deal's shape (round, whose turn) depends on a few small numbers: checked once each
    shape = (rules.rounds, n, len(stock), dealer, to_move, *sizes)
    round_index = _SHAPES.get(shape)
    if round_index is None:
        round_index = _round_of(rules, len(stock))
        if not hand_over:
            _check_turn(sizes, dealer, to_move, rules.rounds[round_index])
        if len(_SHAPES) < 100_000:
            _SHAPES[shape] = round_index
    if any(scope) or (hand_over and table):  # (most positions: nothing to count)
        _check_counts(rules, dealer, sizes, round_index, captured, scope, lc, table, hand_over)
    if max(scores) >= rules.target:
        _check_scores(rules, scores)

    declarations = data.get("declarations")
    decl = (
        _NO_DECLARATIONS if declarations is None
        else _declarations(declarations, rules, hand_masks, to_move, hand_over)
    )
    stock.reverse()
    return Hand.from_parts(
        rules,
        dealer=dealer,
        to_move=to_move,
        hands=hand_masks,
        table=table,
        stock=stock,
        captured=captured,
        scope=list(scope),
        last_capturer=-1 if lc is None else lc,
        scores=list(scores),
        round=round_index,
        order=order,
        declared=decl[0],
        shown=decl[1],
        undecided=decl[2],
    )


#: a position that says nothing of declarations: none pending or made
_NO_DECLARATIONS: tuple[list[int] | None, list[int] | None, int] = (None, None, 0)



def display_order(hand: Hand) -> list[int]:
    """Each card's display order: cards keep their place, a laid card goes to the end of
    the table, taken cards and leftovers to the end of the pile (replayed from history)."""
    seq = [0] * NUM_CARDS
    for i, c in enumerate(hand.order):
        seq[c] = i
    nxt = NUM_CARDS
    table = hand.table0
    for _, code, _ in hand.history:
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
    if hand.hand_over and table & ~hand.table:
        for t in cards_of(table & ~hand.table):
            seq[t] = nxt
            nxt += 1
    return seq

def dump_position(hand: Hand) -> dict[str, Any]:
    """The position of a hand as JSON-ready data (see docs/formats.md); ``load_position``
    reads it back."""
    seq = display_order(hand)

    def ordered(mask: int) -> list[str]:
        return [card_text(c) for c in sorted(cards_of(mask), key=seq.__getitem__)]

    out: dict[str, Any] = {
        "rules": hand.rules.to_dict(),
        "dealer": hand.dealer,
        "to_move": hand.to_move,
        "hands": [ordered(h) for h in hand.hands],
        "table": ordered(hand.table),
        "stock": [card_text(c) for c in reversed(hand.stock)],
        "captured": [ordered(c) for c in hand.captured],
        "scope": list(hand.scope),
        "last_capturer": None if hand.last_capturer < 0 else hand.last_capturer,
        "scores": list(hand.scores),
    }
    if hand.meaning.declares:
        out["declarations"] = {
            "points": list(hand.declared),
            "shown": [cards_text(h) for h in hand.shown],
            "pending": [s for s in range(hand.n) if hand.undecided >> s & 1],
        }
    return out


def _declarations(
    data: Any, rules: Rules, hands: list[int], to_move: int, hand_over: bool
) -> tuple[list[int] | None, list[int] | None, int]:
    """Declared points, shown hands and pending seats (a bit each) of a position's
    ``declarations`` (given)."""
    if not meaning_of(rules).declares:
        raise PositionError("declarations given but these rules have none")
    n = rules.players
    if not isinstance(data, dict) or set(data) != {"points", "shown", "pending"}:
        raise PositionError("declarations must hold points, shown and pending")
    points = _per_seat(data["points"], n, "declarations.points")
    if any(type(p) is not int or p < 0 for p in points):
        raise PositionError("declarations.points must hold a non-negative count per seat")
    shown = []
    for s, cards in enumerate(_per_seat(data["shown"], n, "declarations.shown")):
        if not isinstance(cards, list):
            raise PositionError(f"declarations.shown[{s}] must be a list of cards")
        mask = 0
        for t in cards:
            mask |= 1 << _parse_card(t, f"declarations.shown[{s}]")
        if mask and not points[s]:
            raise PositionError(f"seat {s} shows a hand it did not declare")
        shown.append(mask)
    pending = data["pending"]
    if not isinstance(pending, list) or any(not _is_int(s) or not 0 <= s < n for s in pending):
        raise PositionError("declarations.pending must list seats")
    undecided = 0
    meaning = meaning_of(rules)
    for s in pending:
        if hand_over or hands[s].bit_count() != rules.rounds[0] or not meaning.declaration(
            hands[s]
        ):
            raise PositionError(f"seat {s} has no hand to declare")
        undecided |= 1 << s
    return list(points), shown, undecided


def _check_scores(rules: Rules, scores: list[int]) -> None:
    """Match points banked before this hand: a single side at or past the target would
    have won already (a tie at the top plays on)."""
    top = max(scores)
    if top >= rules.target and scores.count(top) == 1:
        raise PositionError(
            f"scores {scores}: side {scores.index(top)} already has {top} of the "
            f"{rules.target} points to win, so the match ended before this hand"
        )


def _check_counts(
    rules: Rules,
    dealer: int,
    sizes: list[int],
    round_index: int,
    captured: list[int],
    scope: list[int],
    last_capturer: int | None,
    table: int,
    hand_over: bool,
) -> None:
    """Sweeps must fit the plays each seat has made and the cards it has taken: a sweep is
    a capture, a capture is one of the seat's plays and takes at least two cards (the card
    played and one from the table). The dealer's opening sweep of a table making 15 or 30
    (``table_fifteen``, one or two sweeps) is the one capture made without a play. A
    finished hand with a last capturer has given it the table. (Piles are not checked
    further: hand-built positions put the cards that do not matter on any pile.)"""
    dealt = sum(rules.rounds[: round_index + 1])
    for seat, pile in enumerate(captured):
        taken = pile.bit_count()
        plays = dealt - sizes[seat]
        opening = 2 if rules.table_fifteen and rules.table_cards and seat == dealer else 0
        most = min(plays, taken // 2) + opening
        if scope[seat] > most:
            raise PositionError(
                f"scope[{seat}] is {scope[seat]}, but seat {seat} has made {plays} plays and "
                f"taken {taken} cards: at most {most} sweeps"
            )
    if hand_over and table and last_capturer is not None:
        raise PositionError("the hand is over with cards on the table and a last capturer: "
                            "the table goes to the last capturer's pile")


def _parse_card(text: Any, where: str) -> int:
    """A card the fast reading did not take (not a canonical card text), or an error."""
    try:
        return card(text)
    except ValueError as e:
        raise PositionError(f"{where}: {e}") from None


def _read_zones_fast(
    zones: list[Any], n: int
) -> tuple[list[int], list[int], Sequence[int]] | None:
    """``_read_zones`` for the usual input (lists of canonical card texts, each card once),
    in a few C-level passes; None whenever anything is unusual, for ``_read_zones`` to
    judge and explain."""
    flat: list[Any] = []
    ends = []
    for value in zones:
        if type(value) is not list:
            return None
        flat += value
        ends.append(len(flat))
    if len(flat) != NUM_CARDS:
        return None
    try:
        order: tuple[int, ...] = itemgetter(*flat)(CARD_BY_TEXT)
    except (KeyError, TypeError):  # a card in another spelling, or not a card
        return None
    bits: tuple[int, ...] = itemgetter(*order)(BIT)
    masks = []
    start = 0
    for end in ends:
        masks.append(sum(bits[start:end]))
        start = end
    # forty single bits add up to all forty cards only if no two are the same card: a
    # repeated bit carries into a higher one, and the sum of forty then falls short
    if sum(masks) != ALL_CARDS:
        return None
    return masks, list(order[ends[n] : ends[n + 1]]), order


def _read_zones(
    zones: list[Any], names: list[str]
) -> tuple[list[int], list[int], Sequence[int]]:
    """Each zone's card mask, the stock's cards in order, and all cards in reading order;
    every card must appear exactly once."""
    seen = 0
    order: list[int] = []
    masks = []
    stock: list[int] = []
    by_text = CARD_BY_TEXT
    for z, value in enumerate(zones):
        if not isinstance(value, list):
            raise PositionError(f"{names[z]} must be a list of cards")
        m = 0
        collect = stock if names[z] == "stock" else None
        for t in value:
            try:
                c = by_text[t]
            except (KeyError, TypeError):
                c = _parse_card(t, names[z])
            b = 1 << c
            if seen & b:
                raise PositionError(f"{card_text(c)} appears twice")
            seen |= b
            m |= b
            order.append(c)
            if collect is not None:
                collect.append(c)
        masks.append(m)
    if len(order) != NUM_CARDS:
        absent = [card_text(c) for c in range(NUM_CARDS) if not seen >> c & 1]
        raise PositionError(f"every card must appear once; missing: {' '.join(absent)}")
    return masks, stock, order


def _round_of(rules: Rules, stock_size: int) -> int:
    """Which round of dealing is being played, from how many cards are left to deal."""
    rounds = rules.rounds
    left = 0
    for i in range(len(rounds) - 1, -1, -1):
        if left == stock_size:
            return i
        left += rules.players * rounds[i]
    raise PositionError(
        f"a stock of {stock_size} cards does not fit the deal ({rules.table_cards} to the "
        f"table, rounds of {list(rounds)} cards per player)"
    )


def _check_turn(sizes: list[int], dealer: int, to_move: int, round_size: int) -> None:
    """Hands must look like some seats in turn order have played one card more."""
    n = len(sizes)
    first = (dealer + 1) % n
    order = [(first + i) % n for i in range(n)]
    j = (to_move - first) % n
    full = sizes[to_move]
    ok = 1 <= full <= round_size and all(
        sizes[s] == (full - 1 if k < j else full) for k, s in enumerate(order)
    )
    if not ok:
        raise PositionError(
            f"hand sizes {sizes} do not fit seat {to_move} to move with dealer {dealer} "
            f"(each seat before it in turn order has played one card more)"
        )
