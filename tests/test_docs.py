"""The examples in README.md and docs/ run as written, so they cannot drift from the code."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def code_blocks(path: Path, language: str) -> list[str]:
    """The fenced code blocks of one language in a Markdown file."""
    text = path.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


@pytest.mark.parametrize("doc", ["README.md", "docs/engine.md"])
def test_python_examples_run(doc: str) -> None:
    blocks = code_blocks(ROOT / doc, "python")
    assert blocks, f"{doc} has no Python example"
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, doc, "exec"), {})  # noqa: S102 - our own documentation
        assert out.getvalue().strip()


def test_engine_example_prints_the_match_totals() -> None:
    (block,) = code_blocks(ROOT / "docs/engine.md", "python")
    scope: dict[str, object] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/engine.md", "exec"), scope)  # noqa: S102
    game = scope["game"]
    totals = game.match_totals()  # type: ignore[attr-defined]
    assert out.getvalue().split("\n")[-2] == f"{game.winner} {totals}"  # type: ignore[attr-defined]
    # the printed final score is the one that won: the winner's total reaches the target
    assert totals[game.winner] >= game.rules.target  # type: ignore[attr-defined]
    assert totals[game.winner] == max(totals)  # type: ignore[attr-defined]
