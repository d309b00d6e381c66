"""The position format (our FEN): JSON that names every card of a hand in progress.

``load_position`` checks everything a hand-written or received position can get wrong
(unknown keys, bad cards, a card twice or missing, hand sizes that no turn order produces)
and says what is wrong.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .cards import NUM_CARDS, RANK_KEY, card, card_text
from .game import CARD_BY_TEXT, Game, PositionError
from .rules import Rules

G = TypeVar("G", bound=Game)

POSITION_KEYS = (
    "rules", "dealer", "to_move", "hands", "table", "stock", "captured", "scope",
    "last_capturer", "scores",
)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list of cards")
    out = []
    for t in value:
        c = CARD_BY_TEXT.get(t) if isinstance(t, str) else None
        if c is None:
            try:
                c = card(t)
            except ValueError as e:
                raise PositionError(f"{where}: {e}") from None
        out.append(c)
    return out


def _per_seat(value: Any, n: int, where: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != n:
        raise PositionError(f"{where} must have one entry per seat ({n})")
    return value


def load_position(cls: type[G], data: Any) -> G:
    """Build a game from a position; raise ``PositionError`` if anything is off."""
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    missing = [k for k in POSITION_KEYS if k not in data]
    if missing:
        raise PositionError(f"position lacks {', '.join(missing)}")
    extra = sorted(set(data) - set(POSITION_KEYS))
    if extra:
        raise PositionError(f"unknown position key(s): {', '.join(extra)}")
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
    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(_per_seat(data["hands"], n, "hands"))]
    table = _cards(data["table"], "table")
    stock = _cards(data["stock"], "stock")
    piles = _per_seat(data["captured"], n, "captured")
    captured = [_cards(c, f"captured[{i}]") for i, c in enumerate(piles)]
    scope = _per_seat(data["scope"], n, "scope")
    if not all(_is_int(s) and s >= 0 for s in scope):
        raise PositionError("scope must hold a non-negative count per seat")
    scores = data["scores"]
    if (
        not isinstance(scores, list)
        or len(scores) != rules.teams
        or not all(_is_int(s) and s >= 0 for s in scores)
    ):
        raise PositionError(f"scores must hold a non-negative total per side ({rules.teams})")
    lc = data["last_capturer"]
    if lc is not None and (not _is_int(lc) or not 0 <= lc < n):
        raise PositionError("last_capturer must be null or a seat")

    zones = [*hands, table, stock, *captured]
    seen: dict[int, int] = {}
    for cards in zones:
        for c in cards:
            if c in seen:
                raise PositionError(f"{card_text(c)} appears twice")
            seen[c] = 1
    if len(seen) != NUM_CARDS:
        absent = [card_text(c) for c in range(NUM_CARDS) if c not in seen]
        raise PositionError(f"every card must appear once; missing: {' '.join(absent)}")

    round_index = _round_of(rules, len(stock))
    sizes = [len(h) for h in hands]
    hand_over = not any(sizes) and not stock
    if not hand_over:
        _check_turn(sizes, dealer, to_move, rules.rounds[round_index])

    g = cls.__new__(cls)
    g._init_empty(rules)
    g.dealer = dealer
    g.to_move = to_move
    g.hands = [sum(1 << c for c in h) for h in hands]
    g.table = sum(1 << c for c in table)
    g.tkey = sum(RANK_KEY[c] for c in table)
    g.stock = stock[::-1]
    g.captured = [sum(1 << c for c in p) for p in captured]
    g.scope = list(scope)
    g.last_capturer = -1 if lc is None else lc
    g.scores = list(scores)
    g.hand_over = hand_over
    g.history = []
    g.in_hands = sum(sizes)
    g.round = round_index
    seq = g._seq
    i = 0
    for cards in zones:
        for c in cards:
            seq[c] = i
            i += 1
    g._seq_next = i
    return g


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
