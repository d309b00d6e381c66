"""``scopa puzzles make`` and ``load`` through the command line: the commands of
docs/puzzles.md run as written; a bad file is refused line by line and changes nothing."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scopa.cli import app
from scopa.server.puzzles.store import PuzzleStore
from scopa.server.store.database import Store

ROOT = Path(__file__).parents[2]
runner = CliRunner()


def doc_commands() -> list[list[str]]:
    text = (ROOT / "docs" / "puzzles.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)
    return [shlex.split(line)[1:] for block in blocks for line in block.splitlines()
            if line.startswith("scopa ")]


def count(db: Path) -> int:
    async def run() -> int:
        store = Store(f"sqlite:///{db}")
        try:
            await store.migrate()
            return await PuzzleStore(store).count()
        finally:
            await store.close()
    return asyncio.run(run())


def test_the_docs_commands_make_and_load_puzzles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    monkeypatch.chdir(tmp_path)
    commands = doc_commands()
    assert [c[:2] for c in commands] == [["puzzles", "make"], ["puzzles", "load"]]
    made = runner.invoke(app, commands[0])
    assert made.exit_code == 0, made.output
    lines = (tmp_path / "puzzles.jsonl").read_text().splitlines()
    assert len(lines) == 5 and all(json.loads(line)["format"] == 1 for line in lines)
    assert "made 5 puzzles of 5 asked in" in made.output
    loaded = runner.invoke(app, commands[1])
    assert loaded.exit_code == 0, loaded.output
    assert "5 puzzles verified, 5 new loaded, 0 kept before" in loaded.output
    again = runner.invoke(app, commands[1])
    assert "5 puzzles verified, 0 new loaded, 5 kept before" in again.output
    assert count(tmp_path / "scopa.sqlite") == 5


def test_a_bad_file_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite"
    out = tmp_path / "p.jsonl"
    made = runner.invoke(app, ["puzzles", "make", "--count", "2", "--seed", "3", "--out",
                               str(out), "--db", f"sqlite:///{db}"])
    assert made.exit_code == 0, made.output
    assert count(db) == 2
    good, other = [json.loads(line) for line in out.read_text().splitlines()]
    fresh = runner.invoke(app, ["puzzles", "make", "--count", "1", "--seed", "4"])
    new = json.loads(fresh.stdout.splitlines()[0])
    worse = next(p for p in other["plays"] if not p["best"])
    other["best"] = worse["move"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps(new), json.dumps(other), "{not json", ""]))
    refused = runner.invoke(app, ["puzzles", "load", str(bad), "--db", f"sqlite:///{db}"])
    assert refused.exit_code == 1
    assert f"refused line 2 (puzzle {other['id']}): the stored play is not the best" in \
        refused.output
    assert "refused line 3: not JSON" in refused.output
    assert "2 puzzles refused; nothing loaded" in refused.output
    assert count(db) == 2  # the good new puzzle of the bad file was not loaded either


def test_rules_without_puzzles_are_a_clear_error() -> None:
    result = runner.invoke(app, ["puzzles", "make", "--count", "1", "--variant", "scopone"])
    assert result.exit_code == 2
    assert "two players" in result.output
