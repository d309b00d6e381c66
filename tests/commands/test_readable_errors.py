"""Issue 27 item 4: what a new user meets on the command line reads as one clear message,
never a traceback, and every help text shows as written."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from scopa.cli import app

runner = CliRunner(env={"COLUMNS": "200"})


def _words(text: str) -> str:
    """Text with its wrapping undone (the help formatter breaks lines at spaces and after
    hyphens)."""
    return " ".join(text.split()).replace("- ", "-")


@pytest.mark.parametrize("command", ["analyse", "replay", "verify"])
def test_a_file_that_is_not_utf8_is_one_clear_error(tmp_path: Path, command: str) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"giocatore": "Nicolò"}'.encode("latin-1"))
    r = runner.invoke(app, [command, str(path)])
    assert r.exit_code == 2, r.output
    assert f"{path} is not UTF-8 text" in _words(r.output)
    assert "Traceback" not in r.output and "UnicodeDecodeError" not in r.output


def _commands() -> list[tuple[str, Any]]:
    commands: dict[str, Any] = getattr(typer.main.get_command(app), "commands")  # noqa: B009
    return sorted(commands.items())


@pytest.mark.parametrize("name", [name for name, _ in _commands()])
def test_every_help_text_is_shown_as_written(name: str) -> None:
    command = dict(_commands())[name]
    shown = _words(runner.invoke(app, [name, "--help"]).output)
    texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
    for text in filter(None, texts):
        assert _words(text) in shown, f"scopa {name} --help does not show: {text}"


def test_the_ray_extra_is_named_in_arena_help() -> None:
    shown = _words(runner.invoke(app, ["arena", "--help"]).output)
    assert "pip install 'scopa[ray]'" in shown


def test_play_seats_a_frozen_bot_as_arena_does() -> None:
    r = runner.invoke(app, ["play", "-o", "champion-2026-12", "--seed", "1"],
                      input="1\n1\nquit\n")
    assert r.exit_code == 0, r.output
    assert re.search(r"champion-2026-12 1 (laid|took)", r.stdout), r.stdout


def test_play_refuses_an_unknown_bot_in_one_line() -> None:
    r = runner.invoke(app, ["play", "-o", "grandmaster"])
    assert r.exit_code == 2 and "unknown bot 'grandmaster'" in r.output


def test_bot_takes_a_hello_without_a_version_as_the_current_one() -> None:
    r = runner.invoke(app, ["bot", "greedy"], input='{"type": "hello"}\n')
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout.splitlines()[0]) == {
        "type": "ready", "name": "greedy", "protocol": 1}
    r = runner.invoke(app, ["bot", "greedy"], input='{"type": "hello", "protocol": 2}\n')
    assert json.loads(r.stdout.splitlines()[0])["type"] == "error"


@pytest.mark.parametrize("name", ["game.txt", "game.json"])
def test_play_saves_what_replay_verify_and_analyse_read(tmp_path: Path, name: str) -> None:
    record, position = tmp_path / name, tmp_path / "position.json"
    r = runner.invoke(app, ["play", "-o", "greedy", "--seed", "4", "--record", str(record),
                            "--position", str(position)], input="1\nquit\n")
    assert r.exit_code == 0, r.output
    assert record.read_text(encoding="utf-8").startswith("{") == (name == "game.json")
    verified = runner.invoke(app, ["verify", str(record)])
    assert verified.exit_code == 0 and "OK" in verified.output, verified.output
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0 and "You plays" in replayed.output, replayed.output
    analysed = runner.invoke(app, ["analyse", str(position), "--json"])
    assert analysed.exit_code == 0, analysed.output
    assert json.loads(analysed.stdout)["moves"]


def test_play_refuses_a_record_it_could_not_write_before_playing(tmp_path: Path) -> None:
    r = runner.invoke(app, ["play", "--record", str(tmp_path / "no" / "game.txt")],
                      input="1\n" * 50)
    assert r.exit_code == 2
    assert "the folder" in _words(r.output) and "does not exist" in _words(r.output)
    assert "Your move" not in r.output


def test_arena_saves_every_game_as_a_record_and_plays_the_same(tmp_path: Path) -> None:
    args = ["arena", "random", "greedy", "--deals", "2", "--matches", "1", "--json"]
    plain = json.loads(runner.invoke(app, args).stdout)
    r = runner.invoke(app, [*args, "--jobs", "2", "--record", str(tmp_path / "games")])
    assert r.exit_code == 0, r.output
    recorded = json.loads(r.stdout)
    assert recorded["deal_margins"] == plain["deal_margins"]
    files = sorted(p.name for p in (tmp_path / "games").iterdir())
    assert files == ["deal-0-0.txt", "deal-0-1.txt", "deal-1-0.txt", "deal-1-1.txt",
                     "match-0-0.txt", "match-0-1.txt"]
    for name in files:
        checked = runner.invoke(app, ["verify", str(tmp_path / "games" / name)])
        assert checked.exit_code == 0 and "OK" in checked.output, checked.output
    shown = runner.invoke(app, ["replay", str(tmp_path / "games" / "deal-0-1.txt")]).output
    assert "greedy plays" in shown or "greedy lays" in shown


def test_arena_refuses_a_record_folder_it_cannot_make(tmp_path: Path) -> None:
    r = runner.invoke(app, ["arena", "random", "greedy", "--deals", "1",
                            "--record", str(tmp_path / "no" / "games")])
    assert r.exit_code == 2 and "does not exist" in _words(r.output)
