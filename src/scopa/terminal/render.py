"""Rich renderings of what the human seat may see: the table, the hands, the piles, the
legal moves and a hand's score sheet. Everything is drawn from a ``PlayerView`` (or a
finished hand's public score sheet), so the screen cannot show a hidden card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..cards import SUIT, card_text, cards_of
from ..messages import card, cards, has, message, render, text
from ..moves import DECLARE, MARKS, Move
from ..view import PlayerView

SUIT_STYLE = ("bold yellow", "bold red", "bold blue", "bold green")


def words(key: str, lang: str, **args: Any) -> str:
    """The terminal's own words (``term.<key>`` in the shared catalogue) in ``lang``."""
    return render(message(f"term.{key}", **args), lang)


def card_markup(c: int) -> Text:
    """A card in notation (``7d``), coloured by suit."""
    return Text(card_text(c), style=SUIT_STYLE[SUIT[c]])


def cards_markup(cards: Sequence[int], empty: str | None = None, lang: str = "en") -> Text:
    if not cards:
        return Text(words("none", lang) if empty is None else empty, style="dim")
    return Text(" ").join(card_markup(c) for c in cards)


def move_text(move: Move, lang: str = "en") -> Text:
    """``7d takes 3s + 4d``, ``7d is laid on the table``, or a declaration (from history,
    where its capture field is the hand shown)."""
    if move.card >= MARKS:
        if move.card == DECLARE or move.capture:
            out = Text(words("declares", lang) + " ", style="bold")
            return out.append_text(cards_markup(cards_of(move.capture), ""))
        return Text(words("passes", lang), style="dim")
    out = card_markup(move.card)
    if move.capture:
        out.append(f" {words('takes', lang)} ")
        out.append_text(Text(" + ").join(card_markup(c) for c in cards_of(move.capture)))
    else:
        out.append(f" {words('laid', lang)}", style="dim")
    return out


def move_notation(move: Move) -> Text:
    """``7d:3s+4d`` (docs/formats.md), coloured by suit."""
    out = card_markup(move.card)
    if move.capture:
        out.append(":")
        out.append_text(Text("+").join(card_markup(c) for c in cards_of(move.capture)))
    return out


def play_words(name: str, move: Move, lang: str = "en", mine: bool = False) -> str:
    """The last-play line from the shared catalogue: "Anna took the 3 of swords with ...";
    ``mine``: the person at the keyboard's own play, in the second person ("You took",
    "Hai preso")."""
    if not move.capture:
        if mine:
            return words("youLaid", lang, card=card(move.card))
        return render(message("table.lastLay", name=name, card=card(move.card)), lang)
    taken = cards(cards_of(move.capture))
    if mine:
        return words("youTook", lang, cards=taken, card=card(move.card))
    return render(message("table.lastTake", name=name, cards=taken, card=card(move.card)),
                  lang)


def move_words(move: Move, lang: str = "en") -> str:
    """The move in plain words, for screen readers and the move list."""
    if move.is_declaration:
        return words("declareWords" if move.card == DECLARE else "passWords", lang)
    if not move.capture:
        return words("layWords", lang, card=card(move.card))
    return words("takeWords", lang, card=card(move.card), cards=cards(cards_of(move.capture)))


def state_panel(view: PlayerView, names: Sequence[str], lang: str = "en") -> RenderableType:
    """The table, the players (hand sizes, piles, sweeps) and the seat's own hand."""
    rules = view.rules
    players = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for col in ("colSeat", "colPlayer", "colSide", "colInHand", "colPile", "colSweeps"):
        players.add_column(words(col, lang),
                           justify="left" if col in ("colPlayer", "colSeat") else "right")
    for seat in range(rules.players):
        marks = []
        if seat == view.dealer:
            marks.append(words("dealer", lang))
        if seat == view.to_move and not view.hand_over:
            marks.append(words("toPlay", lang))
        who = names[seat] + (f" ({', '.join(marks)})" if marks else "")
        style = "bold" if seat == view.seat else ""
        players.add_row(
            str(seat), Text(who, style=style), str(rules.side_of(seat)),
            str(view.hand_sizes[seat]), str(view.captured[seat].bit_count()),
            str(view.scope[seat]),
        )
    table_line = Text(words("table", lang), style="bold").append_text(
        cards_markup(cards_of(view.table), words("empty", lang))
    )
    stock = Text(words("stock", lang, n=view.stock_size), style="dim")
    hand = Text(words("yourHand", lang), style="bold").append_text(
        cards_markup(cards_of(view.hand), lang=lang))
    shown = [
        Text(words("declaredHolds", lang, name=names[s]), style="bold").append_text(
            cards_markup(cards_of(m), lang=lang)
        )
        for s, m in enumerate(view.shown)
        if m and s != view.seat
    ]
    return Group(players, Text(""), table_line, stock, hand, *shown)


def moves_table(moves: Sequence[Move], lang: str = "en") -> Table:
    """The legal moves, numbered from 1."""
    table = Table(title=words("yourMoves", lang), show_header=False, box=None, padding=(0, 2))
    table.add_column(justify="right", style="bold cyan")
    table.add_column()
    table.add_column(style="dim")
    for i, m in enumerate(moves, 1):
        table.add_row(str(i), move_text(m, lang), move_words(m, lang))
    return table


def item_label(item: dict[str, Any], lang: str = "en") -> str:
    """A score item's name from the message catalogue (``item.<key>``, the label key the
    sheet carries), the browser sheet's words in the terminal's lower case; an unknown key
    shows as itself."""
    key = item.get("label") or f"item.{item['key']}"
    return text(key, lang).lower() if has(key, lang) else str(item["key"])


def score_sheet(
    result: dict[str, Any], names: Sequence[str], title: str, lang: str = "en"
) -> Table:
    """Where every point of the hand came from: one column per side."""
    sides = result["sides"]
    table = Table(title=title)
    table.add_column("")
    for side in sides:
        table.add_column(" & ".join(names[s] for s in side["seats"]), justify="right")

    items = sheet_items(result)
    for item in items:  # what each side has towards every item this table plays
        details = item.get("cards") or [None] * len(sides)
        table.add_row(item_label(item, lang), *[
            _shown(v, lang) + (f" ({' '.join(d)})" if d else "")
            for v, d in zip(item["values"], details, strict=True)
        ])
    for item in items:
        if any(item["points"]):
            label = item_label(item, lang)
            table.add_row(words("point", lang, label=label),
                          *[str(p or "") for p in item["points"]])
    table.add_row(f"[bold]{words('handPoints', lang)}", *[f"[bold]{s['total']}" for s in sides])
    return table


def sheet_items(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The sheet's own list of items; a sheet written before it had one gets one from its
    points (the values shown are then the points)."""
    if "items" in result:
        items: list[dict[str, Any]] = result["items"]
        return items
    sides = result["sides"]
    return [
        {"key": key, "values": [s["points"][key] for s in sides],
         "points": [s["points"][key] for s in sides]}
        for key in sides[0]["points"]
    ]


def _shown(value: object, lang: str = "en") -> str:
    if value is True:
        return words("yes", lang)
    if value is False:
        return ""
    return "-" if value is None else str(value)


def scores_line(scores: Sequence[int], side_names: Sequence[str], target: int,
                lang: str = "en") -> Text:
    parts = [f"{n} {s}" for n, s in zip(side_names, scores, strict=True)]
    return Text(words("match", lang, scores=" · ".join(parts), target=target), style="bold")
