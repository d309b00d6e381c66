"""``scopa replay`` and ``scopa verify``: read a game record, print it, check its seeds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from ..cards import cards_of, cards_text
from ..match import Match
from ..moves import Move
from ..record import RecordError, load_record, replay_steps, verify_record
from ..terminal.render import score_sheet
from .files import read_text


def _read(path: Path) -> dict[str, Any]:
    try:
        return load_record(read_text(path))
    except RecordError as e:
        raise typer.BadParameter(f"{path} is not a valid game record: {e}") from None


def score_table(result: dict[str, Any], title: str, names: list[str] | None = None) -> Table:
    """A hand's score sheet: one column per side, one row per item (the terminal's own
    sheet, drawn from the items the sheet lists)."""
    players = 1 + max(s for side in result["sides"] for s in side["seats"])
    return score_sheet(result, names or [f"seat {s}" for s in range(players)], title)


def replay_command(
    record: Path = typer.Argument(..., help="game record (JSON or text form)"),
) -> None:
    """Print a game record hand by hand: the deal, every move, every score sheet."""
    rec = _read(record)
    names = rec.get("players")
    console = Console()

    def who(seat: int) -> str:
        return names[seat] if names else f"seat {seat}"

    def on_move(game: Match, number: int, move: Move | None, seat: int | None) -> None:
        if move is None:
            console.rule(f"Hand {number}, dealer {who(game.hand.dealer)}")
            for s in range(game.hand.n):
                console.print(f"{who(s)}: {' '.join(cards_text(game.hand.hands[s]))}")
            console.print(f"table: {' '.join(cards_text(game.hand.table)) or '(empty)'}")
            return
        assert seat is not None
        _, code, swept = game.hand.last_entry()
        taken = cards_of(code >> 6)
        text = f"{who(seat)} plays {move}" if taken else f"{who(seat)} lays {move}"
        console.print(text + ("  [bold red]SCOPA![/]" if swept else ""))
        if game.hand.hand_over:
            console.print(score_table(game.hand.hand_result(), f"Hand {number}", names))

    game = replay_steps(rec, on_move=on_move)
    final = game.match_totals() if game.hand.hand_over else game.scores
    winner = game.winner
    console.print(f"Final score: {' - '.join(str(s) for s in final)}"
                  + ("" if winner is None else f"; side {winner} wins"))


def verify_command(
    record: Path = typer.Argument(..., help="game record (JSON or text form)"),
) -> None:
    """Check a record: every move legal, every score-sheet item and the final score what
    the moves give, every hand dealt from its revealed seed and matching its commitment."""
    console = Console(highlight=False)
    try:
        rec = load_record(read_text(record))
    except RecordError as e:
        console.print(f"[red]FAIL[/] {e}")
        raise typer.Exit(1) from None
    problems = verify_record(rec)
    if problems:
        for p in problems:
            console.print(f"[red]FAIL[/] {p}")
        raise typer.Exit(1)
    console.print(f"[green]OK[/] all {len(rec['hands'])} hands replay with every score-sheet "
                  "item as recorded; every deal comes from its revealed seed and matches its "
                  "commitment")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
    app.command("verify")(verify_command)
