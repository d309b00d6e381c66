"""``scopa review RECORD``: every play of a recorded match valued from its seat's view."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from ..record import RecordError, load_record
from .files import read_text


def review_text(review: dict[str, Any], names: list[str] | None) -> str:
    """The review as readable lines: the marked plays in order, then a summary per player."""

    def who(seat: int) -> str:
        return names[seat] if names and seat < len(names) else f"seat {seat}"

    def line(p: dict[str, Any]) -> str:
        text = (f"hand {p['hand']}, move {p['index']}: {who(p['seat'])} played {p['played']} "
                f"({p['played_value']:+.2f})")
        if p["loss"] > 0:
            text += f"; best {p['best']} ({p['best_value']:+.2f}), loss {p['loss']:.2f}"
        return text + (f" [{p['mark']}]" if p["mark"] else "")

    def detail(p: dict[str, Any], indent: str) -> list[str]:
        """Under a marked play: why the best play is best, then the hindsight line."""
        out = [f"{indent}why: {p['why_best']}"] if p.get("why_best") else []
        return out + [f"{indent}{hindsight_line(p)}"] if p.get("hindsight_best") else out

    t = review["thresholds"]
    out = [f"Review at {review['simulations']} simulations a play; marks from a loss of "
           f"{t['inaccuracy']} (inaccuracy), {t['mistake']} (mistake), {t['blunder']} "
           "(blunder) expected points"]
    marked = [p for p in review["plays"] if p["mark"]]
    out.append("")
    out.append("Marked plays:" if marked else "No marked plays.")
    for p in marked:
        out += ["  " + line(p), *detail(p, "      ")]
    for s in review["seats"]:
        out.append("")
        marks = ", ".join(f"{n} {m}" for m, n in s["marks"].items()) or "no marks"
        out.append(f"{who(s['seat'])}: {s['plays']} plays, average loss "
                   f"{s['average_loss']:.3f} a play, {marks}")
        if s["costliest"]:
            out.append("  costliest:")
            out += ["    " + line(p) for p in s["costliest"]]
    out += ["", "Hindsight: the best play with every card seen (the other hands and the stock: "
            "not what the player could know), never the marks' basis."]
    return "\n".join(out) + "\n"


def hindsight_line(p: dict[str, Any]) -> str:
    """A play's hindsight in words: with every card seen, the best play and the loss."""
    how = "solved exactly" if p.get("hindsight_exact") else "estimated"
    if not p["hindsight_loss"]:
        return f"hindsight, with every card seen ({how}): {p['played']} was the best play"
    return (f"hindsight, with every card seen ({how}): best {p['hindsight_best']}, "
            f"loss {p['hindsight_loss']:.2f}")


def review_command(
    record: Path = typer.Argument(..., help="game record (JSON or text form)"),
    as_json: bool = typer.Option(False, "--json", help="print the review as JSON"),
    simulations: int | None = typer.Option(
        None, "--simulations", min=1, help="search budget a play (default: the review's default)"
    ),
    seed: int = typer.Option(0, help="search seed (same seed and budget: same review)"),
) -> None:
    """Value every play of a finished match from what its seat could see: the play made,
    the best play, the loss; marks and a summary per player."""
    from ..bots.review import DEFAULT_SIMULATIONS, review_record

    try:
        rec = load_record(read_text(record))
        review = review_record(rec, simulations or DEFAULT_SIMULATIONS, seed).to_dict()
    except RecordError as e:
        raise typer.BadParameter(f"{record} is not a valid game record: {e}") from None
    if as_json:
        sys.stdout.write(json.dumps(review, indent=2) + "\n")
    else:
        sys.stdout.write(review_text(review, rec.get("players")))


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)
