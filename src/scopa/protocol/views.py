"""Rebuilding a ``PlayerView`` from its JSON form (``PlayerView.to_dict``).

An external bot receives exactly the seat's view; a bot served over the protocol needs it
back as a ``PlayerView``. Everything is checked, because the JSON may come from anywhere:
a wrong card, a card in two places or counts that do not add up raise ``ValueError``.
"""

from __future__ import annotations

from typing import Any

from ..cards import NUM_CARDS, card
from ..moves import AUTO_DECLARE, DECLARE, OPENING, PASS
from ..rules import Rules
from ..view import PlayerView

VIEW_KEYS = {
    "rules", "seat", "dealer", "to_move", "hand", "hand_sizes", "table", "stock_size",
    "captured", "scope", "last_capturer", "scores", "hand_over", "hand_number", "history",
}
#: keys only views of tables with declarations (Cirulla) carry
OPTIONAL_VIEW_KEYS = {"declarations"}


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _mask(value: Any, where: str) -> int:
    if not isinstance(value, list):
        raise ValueError(f"view.{where} must be a list of cards")
    mask = 0
    for t in value:
        try:
            c = card(t)
        except ValueError as e:
            raise ValueError(f"view.{where}: {e}") from None
        if mask >> c & 1:
            raise ValueError(f"view.{where} names {t} twice")
        mask |= 1 << c
    return mask


def _ints(value: Any, n: int, where: str, low: int = 0) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n or not all(
        _is_int(v) and v >= low for v in value
    ):
        raise ValueError(f"view.{where} must be a list of {n} integers >= {low}")
    return tuple(value)


def _seat(value: Any, n: int, where: str, allow_none: bool = False) -> int:
    if value is None and allow_none:
        return -1
    if not _is_int(value) or not 0 <= value < n:
        raise ValueError(f"view.{where} must be a seat 0..{n - 1}")
    return int(value)


def _history(value: Any, n: int) -> tuple[tuple[int, int, bool], ...]:
    if not isinstance(value, list):
        raise ValueError("view.history must be a list")
    out = []
    for i, e in enumerate(value):
        if isinstance(e, dict) and "declare" in e:
            out.append(_declaration_entry(e, n, i))
            continue
        if not isinstance(e, dict) or set(e) != {"seat", "card", "capture", "scopa"}:
            raise ValueError(f"view.history[{i}] must have seat, card, capture, scopa")
        seat = _seat(e["seat"], n, f"history[{i}].seat")
        c = OPENING if e["card"] is None else _mask([e["card"]], f"history[{i}].card")
        if e["card"] is not None:
            c = c.bit_length() - 1
        cap = _mask(e["capture"], f"history[{i}].capture")
        if not isinstance(e["scopa"], bool):
            raise ValueError(f"view.history[{i}].scopa must be true or false")
        out.append((seat, c | cap << 6, e["scopa"]))
    return tuple(out)


def _declaration_entry(e: dict[str, Any], n: int, i: int) -> tuple[int, int, bool]:
    """A declaration in the history: ``{"seat", "declare": false}`` (a pass), or
    ``{"seat", "declare": true, "shown": [...], "auto": bool}``."""
    seat = _seat(e.get("seat"), n, f"history[{i}].seat")
    if e.get("declare") is False and set(e) == {"seat", "declare"}:
        return (seat, PASS, False)
    if e.get("declare") is True and set(e) == {"seat", "declare", "shown", "auto"}:
        shown = _mask(e["shown"], f"history[{i}].shown")
        mark = AUTO_DECLARE if e["auto"] is True else DECLARE
        return (seat, mark | shown << 6, False)
    raise ValueError(f"view.history[{i}] is not a declaration entry")


def _declarations(
    value: Any, rules: Rules, seat: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    if value is None:
        return (), (), 0
    n = rules.players
    if not isinstance(value, dict) or set(value) != {"points", "shown", "pending"}:
        raise ValueError("view.declarations must hold points, shown and pending")
    points = _ints(value["points"], n, "declarations.points")
    if not isinstance(value["shown"], list) or len(value["shown"]) != n:
        raise ValueError(f"view.declarations.shown must hold one list per seat ({n})")
    shown = tuple(_mask(s, f"declarations.shown[{i}]") for i, s in enumerate(value["shown"]))
    if not isinstance(value["pending"], bool):
        raise ValueError("view.declarations.pending must be true or false")
    return points, shown, (1 << seat) if value["pending"] else 0


def _round(rules: Rules, hand_sizes: tuple[int, ...], stock_size: int) -> int:
    """The round of dealing in progress, from how many cards have left the stock."""
    dealt = NUM_CARDS - rules.table_cards - stock_size
    total = 0
    for r, size in enumerate(rules.rounds):
        total += size * rules.players
        if total >= dealt:
            return r
    raise ValueError("view.stock_size does not fit the rules' deal")


def view_from_dict(data: Any) -> PlayerView:
    """The ``PlayerView`` whose ``to_dict()`` is ``data``; ``ValueError`` if it is not valid.

    ``to_move`` is null in a finished hand; it comes back as the dealer then."""
    if not isinstance(data, dict):
        raise ValueError("a view must be a JSON object")
    missing = VIEW_KEYS - set(data)
    if missing:
        raise ValueError(f"view lacks {', '.join(sorted(missing))}")
    extra = set(data) - VIEW_KEYS - OPTIONAL_VIEW_KEYS
    if extra:
        raise ValueError(f"unknown view key(s): {', '.join(sorted(extra))}")
    rules = Rules.from_dict(data["rules"])
    n = rules.players
    seat = _seat(data["seat"], n, "seat")
    dealer = _seat(data["dealer"], n, "dealer")
    hand_over = data["hand_over"]
    if not isinstance(hand_over, bool):
        raise ValueError("view.hand_over must be true or false")
    to_move = _seat(data["to_move"], n, "to_move", allow_none=hand_over)
    hand = _mask(data["hand"], "hand")
    table = _mask(data["table"], "table")
    if not isinstance(data["captured"], list) or len(data["captured"]) != n:
        raise ValueError(f"view.captured must hold one pile per seat ({n})")
    captured = tuple(_mask(p, f"captured[{i}]") for i, p in enumerate(data["captured"]))
    declared, shown, undecided = _declarations(data.get("declarations"), rules, seat)
    seen = 0
    for m in (hand, table, *captured, *(s for i, s in enumerate(shown) if i != seat)):
        if seen & m:
            raise ValueError("view shows a card in two places")
        seen |= m
    hand_sizes = _ints(data["hand_sizes"], n, "hand_sizes")
    if hand_sizes[seat] != hand.bit_count():
        raise ValueError("view.hand_sizes disagrees with the seat's hand")
    stock_size = data["stock_size"]
    if not _is_int(stock_size) or stock_size < 0:
        raise ValueError("view.stock_size must be an integer >= 0")
    hidden = NUM_CARDS - seen.bit_count()
    shown_elsewhere = sum(s.bit_count() for i, s in enumerate(shown) if i != seat)
    if hidden != sum(hand_sizes) - hand_sizes[seat] + stock_size - shown_elsewhere:
        raise ValueError("view's card counts do not add up to 40")
    hand_number = data["hand_number"]
    if not _is_int(hand_number) or hand_number < 1:
        raise ValueError("view.hand_number must be an integer >= 1")
    return PlayerView(
        rules=rules,
        seat=seat,
        dealer=dealer,
        to_move=dealer if to_move < 0 else to_move,
        hand=hand,
        hand_sizes=hand_sizes,
        table=table,
        stock_size=stock_size,
        captured=captured,
        scope=_ints(data["scope"], n, "scope"),
        last_capturer=_seat(data["last_capturer"], n, "last_capturer", allow_none=True),
        scores=_ints(data["scores"], rules.teams, "scores"),
        hand_over=hand_over,
        round=_round(rules, hand_sizes, stock_size),
        history=_history(data["history"], n),
        hand_number=hand_number,
        declared=declared,
        shown=shown,
        undecided=undecided,
    )
