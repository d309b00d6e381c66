"""Rich renderings of what the human seat may see: the table, the hands, the piles, the
legal moves and a hand's score sheet. Everything is drawn from a ``PlayerView`` (or a
finished hand's public score sheet), so the screen cannot show a hidden card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..cards import SUIT, card_name, card_text, cards_of
from ..messages import card, cards, has, message, render, text
from ..moves import DECLARE, MARKS, Move
from ..view import PlayerView

SUIT_STYLE = ("bold yellow", "bold red", "bold blue", "bold green")


def card_markup(c: int) -> Text:
    """A card in notation (``7d``), coloured by suit."""
    return Text(card_text(c), style=SUIT_STYLE[SUIT[c]])


def cards_markup(cards: Sequence[int], empty: str = "(none)") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_markup(c) for c in cards)


def move_text(move: Move) -> Text:
    """``7d takes 3s + 4d``, ``7d is laid on the table``, or a declaration (from history,
    where its capture field is the hand shown)."""
    if move.card >= MARKS:
        if move.card == DECLARE or move.capture:
            out = Text("declares the hand ", style="bold")
            return out.append_text(cards_markup(cards_of(move.capture), ""))
        return Text("passes (no declaration)", style="dim")
    out = card_markup(move.card)
    if move.capture:
        out.append(" takes ")
        out.append_text(Text(" + ").join(card_markup(c) for c in cards_of(move.capture)))
    else:
        out.append(" is laid on the table", style="dim")
    return out


def move_notation(move: Move) -> Text:
    """``7d:3s+4d`` (docs/formats.md), coloured by suit."""
    out = card_markup(move.card)
    if move.capture:
        out.append(":")
        out.append_text(Text("+").join(card_markup(c) for c in cards_of(move.capture)))
    return out


def play_words(name: str, move: Move) -> str:
    """The last-play line from the shared catalogue: "You took the 3 of swords with ..."."""
    if not move.capture:
        return render(message("table.lastLay", name=name, card=card(move.card)))
    taken = cards(cards_of(move.capture))
    return render(message("table.lastTake", name=name, cards=taken, card=card(move.card)))


def move_words(move: Move) -> str:
    """The move in plain words, for screen readers and the move list."""
    if move.is_declaration:
        return "declare your hand (it is shown)" if move.card == DECLARE else "pass"
    if not move.capture:
        return f"lay the {card_name(move.card)}"
    taken = ", ".join(card_name(c) for c in cards_of(move.capture))
    return f"{card_name(move.card)} takes {taken}"


def state_panel(view: PlayerView, names: Sequence[str]) -> RenderableType:
    """The table, the players (hand sizes, piles, sweeps) and the seat's own hand."""
    rules = view.rules
    players = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for col in ("seat", "player", "side", "in hand", "pile", "sweeps"):
        players.add_column(col, justify="left" if col in ("player", "seat") else "right")
    for seat in range(rules.players):
        marks = []
        if seat == view.dealer:
            marks.append("dealer")
        if seat == view.to_move and not view.hand_over:
            marks.append("to play")
        who = names[seat] + (f" ({', '.join(marks)})" if marks else "")
        style = "bold" if seat == view.seat else ""
        players.add_row(
            str(seat), Text(who, style=style), str(rules.side_of(seat)),
            str(view.hand_sizes[seat]), str(view.captured[seat].bit_count()),
            str(view.scope[seat]),
        )
    table_line = Text("Table: ", style="bold").append_text(
        cards_markup(cards_of(view.table), "(empty)")
    )
    stock = Text(f"Stock: {view.stock_size} cards", style="dim")
    hand = Text("Your hand: ", style="bold").append_text(cards_markup(cards_of(view.hand)))
    shown = [
        Text(f"{names[s]} declared, holds: ", style="bold").append_text(
            cards_markup(cards_of(m))
        )
        for s, m in enumerate(view.shown)
        if m and s != view.seat
    ]
    return Group(players, Text(""), table_line, stock, hand, *shown)


def moves_table(moves: Sequence[Move]) -> Table:
    """The legal moves, numbered from 1."""
    table = Table(title="Your moves", show_header=False, box=None, padding=(0, 2))
    table.add_column(justify="right", style="bold cyan")
    table.add_column()
    table.add_column(style="dim")
    for i, m in enumerate(moves, 1):
        table.add_row(str(i), move_text(m), move_words(m))
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
            _shown(v) + (f" ({' '.join(d)})" if d else "")
            for v, d in zip(item["values"], details, strict=True)
        ])
    for item in items:
        if any(item["points"]):
            label = item_label(item, lang)
            table.add_row(f"point: {label}", *[str(p or "") for p in item["points"]])
    table.add_row("[bold]hand points", *[f"[bold]{s['total']}" for s in sides])
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


def _shown(value: object) -> str:
    if value is True:
        return "yes"
    if value is False:
        return ""
    return "-" if value is None else str(value)


def scores_line(scores: Sequence[int], side_names: Sequence[str], target: int) -> Text:
    parts = [f"{n} {s}" for n, s in zip(side_names, scores, strict=True)]
    return Text("Match: " + " · ".join(parts) + f"   (playing to {target})", style="bold")
