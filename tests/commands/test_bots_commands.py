"""scopa play / arena / analyse / bot, end to end through Typer's CliRunner."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scopa.cli import app
from scopa.match import Match
from scopa.moves import Move
from scopa.notation import dump_position, load_position
from scopa.rules import CAPTURE_MODES
from scopa.view import PlayerView

runner = CliRunner(env={"COLUMNS": "200"})


def _plain(text: str) -> str:
    """Output without Rich's box drawing and line wrapping."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_arena_table() -> None:
    r = runner.invoke(app, ["arena", "random", "greedy", "--deals", "6", "--seed", "2"])
    assert r.exit_code == 0, r.output
    assert "6 duplicate deals" in r.stdout and "greedy" in r.stdout and "margin" in r.stdout


def test_arena_json_is_reproducible() -> None:
    args = ["arena", "random", "greedy", "--deals", "5", "--seed", "4", "--matches", "1",
            "--variant", "scopone", "--json"]
    first = json.loads(runner.invoke(app, args).stdout)
    second = json.loads(runner.invoke(app, [*args, "--jobs", "2"]).stdout)
    assert first["rules"]["variant"] == "scopone" and first["deals"] == 5
    assert [b["name"] for b in first["bots"]] == ["random", "greedy"]
    assert first["deal_margins"] == second["deal_margins"]
    assert first["bots"][0]["margin"] == second["bots"][0]["margin"]


def test_arena_with_an_external_program() -> None:
    cmd = f"cmd:{sys.executable} -m scopa.protocol greedy"
    r = runner.invoke(app, ["arena", "random", cmd, "--deals", "2", "--json", "--matches", "0"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["bots"][1]["moves"] == 2 * 2 * 18


def test_arena_with_a_broken_program_stops_with_its_error() -> None:
    fake = Path(__file__).parents[1] / "protocol" / "fake_bot.py"
    cmd = f"cmd:{sys.executable} {fake} illegal"
    r = runner.invoke(app, ["arena", "random", cmd, "--deals", "2"])
    assert r.exit_code == 1
    assert "arena stopped" in _plain(r.output) and "not legal here" in _plain(r.output)


def test_arena_bad_arguments() -> None:
    r = runner.invoke(app, ["arena", "random", "nosuchbot"])
    assert r.exit_code == 2 and "unknown bot" in _plain(r.output)
    r = runner.invoke(app, ["arena", "random", "random", "--players", "7"])
    assert r.exit_code == 2 and "players" in _plain(r.output)


def test_bot_serves_the_protocol() -> None:
    game = Match.new("scopa", seed=1).hand
    view = PlayerView.of(game, game.to_move)
    lines = [
        {"type": "hello", "protocol": 1},
        {"type": "new_game", "rules": game.rules.to_dict(), "seat": view.seat, "seed": 5},
        {"type": "move_request", "id": 1, "view": view.to_dict(),
         "legal": [m.to_dict() for m in view.legal_moves()], "time_limit": 0.2},
        {"type": "quit"},
    ]
    r = runner.invoke(app, ["bot", "greedy"], input="".join(json.dumps(m) + "\n" for m in lines))
    assert r.exit_code == 0, r.output
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert out[0]["type"] == "ready" and out[0]["name"] == "greedy"
    assert Move.from_dict(out[1]["move"]) in view.legal_moves()


def test_bot_refuses_an_unknown_level() -> None:
    r = runner.invoke(app, ["bot", "nosuch"], input="")
    assert r.exit_code == 2 and "unknown bot" in _plain(r.output)


def test_play_a_whole_match_from_scripted_input() -> None:
    r = runner.invoke(app, ["play", "--opponents", "random", "--seed", "3", "--target", "4"],
                      input="1\n" * 400)
    assert r.exit_code == 0, r.output
    assert "score sheet" in r.stdout and "the match" in r.stdout


def test_play_quit_and_bad_options() -> None:
    r = runner.invoke(app, ["play", "--players", "4", "-o", "greedy", "--seed", "1"],
                      input="quit\n")
    assert r.exit_code == 0 and "You left the match" in r.stdout
    assert "partner greedy 2" in r.stdout
    r = runner.invoke(app, ["play", "--opponents", "oracle"])
    assert r.exit_code == 2 and "sees every card" in _plain(r.output)
    r = runner.invoke(app, ["play", "--variant", "poker"])
    assert r.exit_code == 2 and "unknown variant" in _plain(r.output)


def _position(tmp_path: Path) -> Path:
    game = Match.new("scopa", seed=8).hand
    game.play(game.legal_moves()[0])
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(dump_position(game)))
    return path


def test_analyse_json_lists_every_legal_move(tmp_path: Path) -> None:
    path = _position(tmp_path)
    game = load_position(json.loads(path.read_text()))
    r = runner.invoke(app, ["analyse", str(path), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["seat"] == game.to_move
    moves = [Move.from_dict(m["move"]) for m in data["moves"]]
    assert sorted(moves) == sorted(game.legal_moves())
    values = [m["value"] for m in data["moves"]]
    assert values == sorted(values, reverse=True)


def test_analyse_table_and_errors(tmp_path: Path) -> None:
    path = _position(tmp_path)
    r = runner.invoke(app, ["analyse", str(path), "--time", "0.1"])
    assert r.exit_code == 0 and "best first" in r.stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": {}}')
    r = runner.invoke(app, ["analyse", str(bad)])
    assert r.exit_code == 2 and "position lacks" in _plain(r.output)
    bad.write_text("not json")
    r = runner.invoke(app, ["analyse", str(bad)])
    assert r.exit_code == 2 and "not JSON" in _plain(r.output)
    r = runner.invoke(app, ["analyse", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "cannot read" in _plain(r.output)


# -- every option reachable: --target, --teams, --option KEY=VALUE -------------------------
def test_parse_options_reads_json_values_and_text() -> None:
    from scopa.commands.bots import parse_options

    assert parse_options(["fewest_cards=true", "king_redeal=null", "capture=fifteen",
                          "rounds=[3,3,3,3,3,3]"]) == {
        "fewest_cards": True, "king_redeal": None, "capture": "fifteen",
        "rounds": [3, 3, 3, 3, 3, 3]}
    assert parse_options(["king_redeal=4"]) == {"king_redeal": 4}


@pytest.mark.parametrize(
    "args, words",
    [
        (["--option", "colour=red"], "unknown option 'colour'; the options are table_cards=N"),
        (["--option", "colour=red"], "re_bello=true|false"),
        (["--option", "capture=sums"], f"capture must be one of {CAPTURE_MODES}"),
        (["--option", "fewest_cards=yes"], "fewest_cards must be true or false"),
        (["--option", "king_redeal=9"], "king_redeal must be 1 to 4 or null"),
        (["--option", "players=4"], "give players as its own field (--players)"),
        (["--option", "napola"], "--option takes KEY=VALUE"),
        (["--option", "napola=true", "--option", "napola=false"], "napola given twice"),
        (["--teams", "4"], "teams (number of sides) must be at least 2 and divide 2"),
        (["--target", "0"], "target must be 1 to 1000"),
    ],
)
def test_bad_options_are_refused_by_play_and_arena(args: list[str], words: str) -> None:
    for command in (["play"], ["arena", "random", "greedy", "--deals", "1"]):
        r = runner.invoke(app, [*command, *args], input="quit\n")
        assert r.exit_code == 2, r.output
        assert words in _plain(r.output), _plain(r.output)


def test_arena_takes_target_teams_and_options() -> None:
    args = ["arena", "random", "greedy", "--deals", "2", "--matches", "1", "--json",
            "--players", "6", "--teams", "3", "--target", "5",
            "--option", "capture=fifteen", "--option", "fewest_cards=true",
            "--option", "king_redeal=null"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    rules = json.loads(r.stdout)["rules"]
    assert rules == {"variant": "scopa", "players": 6, "target": 5, "teams": 3,
                     "king_redeal": None, "capture": "fifteen", "fewest_cards": True}


def test_play_takes_target_teams_and_options() -> None:
    r = runner.invoke(app, ["play", "--players", "6", "--teams", "3", "--target", "5",
                            "--option", "sevens=true", "-o", "random", "--seed", "2"],
                      input="quit\n")
    assert r.exit_code == 0, r.output
    out = _plain(r.output)
    assert "scopa: 6 players, playing to 5" in out
    assert "You & partner random 3" in out  # three sides of two: seats 0 and 3


def test_play_takes_several_levels_after_opponents() -> None:
    r = runner.invoke(app, ["play", "--variant", "scopone", "--opponents", "greedy", "random",
                            "greedy", "--seed", "1"], input="quit\n")
    assert r.exit_code == 0, r.output
    out = _plain(r.output)
    assert "greedy 1" in out and "partner random 2" in out and "greedy 3" in out


FAKE = Path(__file__).parents[1] / "protocol" / "fake_bot.py"
#: two outside programs whose command lines agree for far longer than 40 characters
SHARED = f"{sys.executable} {FAKE} good --comment {'a-long-shared-prefix-' * 3}"


def test_arena_names_outside_bots_by_ready_name_and_keeps_their_commands() -> None:
    a, b = f"{SHARED} --name alpha", f"{SHARED} --name beta"
    r = runner.invoke(app, ["arena", f"cmd:{a}", f"cmd:{b}", "--deals", "2", "--json"])
    assert r.exit_code == 0, r.output
    bots = json.loads(r.stdout)["bots"]
    assert [(x["name"], x["command"]) for x in bots] == [("alpha", a), ("beta", b)]
    table = runner.invoke(app, ["arena", f"cmd:{a}", f"cmd:{a}", "--deals", "2"])
    assert table.exit_code == 0, table.output
    assert "alpha " in table.stdout and "alpha#2" in table.stdout


def test_arena_plays_no_matches_unless_asked_and_reports_deal_records() -> None:
    r = runner.invoke(app, ["arena", "greedy", "random", "--deals", "8", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["matches"] == 0
    for b in out["bots"]:
        assert b["win_rate"] is None and b["win_rate_se"] is None
        assert b["deals_won"] + b["deals_drawn"] + b["deals_lost"] == 8
    table = _plain(runner.invoke(app, ["arena", "greedy", "random", "--deals", "8"]).stdout)
    won = out["bots"][0]
    assert f"{won['deals_won']}/{won['deals_drawn']}/{won['deals_lost']}" in table
    assert "deals W/D/L" in table and "match wins" not in table
    with_matches = runner.invoke(app, ["arena", "greedy", "random", "--deals", "2",
                                       "--matches", "1", "--json"])
    assert json.loads(with_matches.stdout)["bots"][0]["win_rate"] is not None


def test_arena_prints_progress_lines_when_stderr_is_not_a_terminal() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from scopa.cli import main; main()", "arena", "greedy",
         "random", "--deals", "40", "--json"],
        capture_output=True, text=True, timeout=120, check=True,
    )
    assert json.loads(done.stdout)["deals"] == 40  # stdout stays clean JSON
    lines = done.stderr.splitlines()
    assert lines[0] == "arena: greedy, random; scopa, 2 players, seed 0, 1 job"
    assert lines[1].startswith("plays 40 duplicate deals x 2 seatings (80 hands) and no "
                               "matches")
    progress = lines[2:]
    pattern = (r"arena: deals (\d+)/40 \((\d+)%\), \d+:\d\d:\d\d elapsed, "
               r"margin greedy [+-]\d\.\d{3} ± \d\.\d{3}")
    found = [re.fullmatch(pattern, line) for line in progress]
    assert all(found), progress
    assert [int(m.group(1)) for m in found if m] == list(range(2, 41, 2))  # every 5%
    assert "\x1b" not in done.stderr and "━" not in done.stderr  # no bar, no colours


def test_arena_progress_is_a_bar_on_a_terminal() -> None:
    from rich.console import Console

    from scopa.arena.progress import ArenaPlan, ArenaProgress
    from scopa.commands.bots import _arena_progress

    screen = io.StringIO()
    plan = ArenaPlan(["a", "b"], "scopa", 2, 10, 0, 2, 0, 1)
    with _arena_progress(Console(file=screen, force_terminal=True, width=100), False) as show:
        for i in range(11):
            show(ArenaProgress(plan, i, 0, 1.0, [(0.5, 0.25), (-0.5, 0.25)]))
    text = screen.getvalue()
    assert "plays 10 duplicate deals" in text and "10/10" in text
    assert "margin a +0.500 ± 0.250" in text and "arena: deals" not in text
