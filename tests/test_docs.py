"""The examples in README.md and docs/ run as written, so they cannot drift from the code."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shlex
from pathlib import Path

import pytest

from scopa.match import Match
from scopa.notation import dump_position
from scopa.record import game_record, record_to_text

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
    game = scope["match"]
    totals = game.match_totals()  # type: ignore[attr-defined]
    assert out.getvalue().split("\n")[-2] == f"{game.winner} {totals}"  # type: ignore[attr-defined]
    # the printed final score is the one that won: the winner's total reaches the target
    assert totals[game.winner] >= game.rules.target  # type: ignore[attr-defined]
    assert totals[game.winner] == max(totals)  # type: ignore[attr-defined]


# -- README: every command line of the "Playing" block runs as written --------------------
def playing_commands() -> list[list[str]]:
    """The ``scopa`` command lines of README's "Playing" block, comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Playing", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    out = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == ".venv/bin/scopa", line
            out.append(words[1:])
    return out


#: what each command needs to run here without a person or a long wait: stdin, and
#: settings that shorten a run (the command line as written is kept, these are added or
#: replace a value)
BOT_LINES = [{"type": "hello", "protocol": 1}, {"type": "quit"}]
SHORTER = {"--deals": "1", "--jobs": "1"}
EXTRA = {"arena": ["--matches", "0", "--time", "0.01"], "analyse": ["--time", "0.05"]}
STDIN = {"play": "quit\n", "bot": "".join(json.dumps(m) + "\n" for m in BOT_LINES)}


def _shortened(words: list[str]) -> list[str]:
    out = list(words)
    for i, w in enumerate(out[:-1]):
        if w in SHORTER:
            out[i + 1] = SHORTER[w]
    return out + EXTRA.get(words[0], [])


def _files(folder: Path) -> None:
    """The files README's commands name: a position and a game record."""
    game = Match.new("scopa", seed="readme")
    game.hand.play(game.hand.legal_moves()[0])
    (folder / "position.json").write_text(json.dumps(dump_position(game.hand)))
    rng = random.Random(1)
    while not game.hand.hand_over:
        game.hand.play(rng.choice(game.hand.legal_moves()))
    (folder / "game.txt").write_text(record_to_text(game_record(game, ["Ann", "Bob"])))


def test_the_playing_block_lists_every_command() -> None:
    assert {w[0] for w in playing_commands()} >= {
        "serve", "play", "arena", "analyse", "replay", "verify", "bot"}


@pytest.mark.parametrize("words", playing_commands(), ids=" ".join)
def test_readme_command_runs_as_written(
    words: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from scopa.cli import app
    from scopa.server.ops.announce import Announcing

    monkeypatch.chdir(tmp_path)
    _files(tmp_path)
    served: list[dict[str, object]] = []

    def run(self: Announcing) -> None:  # what serving would listen on, without listening
        served.append({"host": self.config.host, "port": self.config.port})
        self.started = True

    monkeypatch.setattr(Announcing, "run", run)
    # uvicorn's Config points its log handlers at the stderr of the moment (CliRunner's, closed
    # once the command returns): left so, later logging in this worker writes to a closed file
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    for key in [k for k in os.environ if k.startswith("SCOPA_")]:
        monkeypatch.delenv(key)
    result = CliRunner().invoke(app, _shortened(words), input=STDIN.get(words[0], ""))
    assert result.exit_code == 0, result.output
    if words[0] == "serve":  # the address README gives
        assert served and (served[0]["host"], served[0]["port"]) == ("127.0.0.1", 8000)
    if "--opponents" in words:
        levels = words[words.index("--opponents") + 1 :]
        assert all(f"{level} " in result.output for level in levels)
