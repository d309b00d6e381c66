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
from ..game import Move
from ..messages import card, cards, message, render
from ..scoring import POINT_ITEMS
from ..view import PlayerView

ITEM_LABELS = {"scope": "sweeps", "sevens": "most sevens", "re_bello": "re bello (10d)"}
SUIT_STYLE = ("bold yellow", "bold red", "bold blue", "bold green")


def card_markup(c: int) -> Text:
    """A card in notation (``7d``), coloured by suit."""
    return Text(card_text(c), style=SUIT_STYLE[SUIT[c]])


def cards_markup(cards: Sequence[int], empty: str = "(none)") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_markup(c) for c in cards)


def move_text(move: Move) -> Text:
    """``7d takes 3s + 4d`` or ``7d is laid on the table``."""
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
    return Group(players, Text(""), table_line, stock, hand)


def moves_table(moves: Sequence[Move]) -> Table:
    """The legal moves, numbered from 1."""
    table = Table(title="Your moves", show_header=False, box=None, padding=(0, 2))
    table.add_column(justify="right", style="bold cyan")
    table.add_column()
    table.add_column(style="dim")
    for i, m in enumerate(moves, 1):
        table.add_row(str(i), move_text(m), move_words(m))
    return table


def score_sheet(result: dict[str, Any], names: Sequence[str], title: str) -> Table:
    """Where every point of the hand came from: one column per side."""
    sides = result["sides"]
    table = Table(title=title)
    table.add_column("")
    for side in sides:
        table.add_column(" & ".join(names[s] for s in side["seats"]), justify="right")

    def row(label: str, values: list[str]) -> None:
        table.add_row(label, *values)

    row("cards taken", [str(s["cards"]) for s in sides])
    row("coins", [str(s["coins"]) for s in sides])
    row("settebello (7d)", ["yes" if s["settebello"] else "" for s in sides])
    row("primiera", [
        f"{s['primiera']} ({' '.join(s['primiera_cards'])})" if s["primiera"] else "-"
        for s in sides
    ])
    row("sweeps", [str(s["scope"]) for s in sides])
    for item in POINT_ITEMS:
        if any(s["points"].get(item) for s in sides):
            label = ITEM_LABELS.get(item, item)
            row(f"point: {label}", [str(s["points"][item] or "") for s in sides])
    table.add_row("[bold]hand points", *[f"[bold]{s['total']}" for s in sides])
    return table


def scores_line(scores: Sequence[int], side_names: Sequence[str], target: int) -> Text:
    parts = [f"{n} {s}" for n, s in zip(side_names, scores, strict=True)]
    return Text("Match: " + " · ".join(parts) + f"   (playing to {target})", style="bold")
