"""Puzzles for the browser tests: a few made and loaded into the session's server (the
same seed each time, so loading twice adds nothing), and the answer worked out from what
the page is shown, as a player with the solver would."""

from __future__ import annotations

from typing import Any

from typer.testing import CliRunner

from scopa.bots.puzzles import best_index, solved_view, view_of
from scopa.cli import app
from scopa.moves import Move

COUNT = 8
SEED = "web"


def load_puzzles(database_url: str) -> None:
    made = CliRunner().invoke(app, ["puzzles", "make", "--count", str(COUNT), "--seed", SEED,
                                    "--db", database_url])
    assert made.exit_code == 0, made.output


def answers(view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The best play of a puzzle's view and another legal play, as move dicts."""
    v = view_of(view)
    solved = solved_view(v)
    best = best_index(solved)
    wrong = next(i for i in range(len(solved.codes)) if i != best)
    return (Move.from_code(solved.codes[best]).to_dict(),
            Move.from_code(solved.codes[wrong]).to_dict())
