"""scopa tournament end to end through Typer's CliRunner: the table, the JSON form, the
same event for any --jobs, an outside bot, and one clear line for bad arguments."""

from __future__ import annotations

import json
import re
import sys

import pytest
from typer.testing import CliRunner

from scopa.cli import app

runner = CliRunner(env={"COLUMNS": "200"})
FAST = ["random", "greedy", "heuristic", "random"]


def _json(args: list[str]) -> dict:  # type: ignore[type-arg]
    r = runner.invoke(app, ["tournament", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_the_standings_table() -> None:
    r = runner.invoke(app, ["tournament", *FAST, "--rounds", "2", "--deals-per-round", "1"])
    assert r.exit_code == 0, r.output
    assert "scopa swiss, 2 rounds, 1 deal a round" in r.stdout
    assert "Buchholz" in r.stdout and "random#2" in r.stdout
    assert "round 2/2 played" in r.stderr


def test_json_has_the_event_and_standings_in_rank_order() -> None:
    out = _json([*FAST, "--format", "round-robin", "--deals-per-round", "2", "--duplicate",
                 "--seed", "7"])
    event, lines = out["event"], out["standings"]
    assert event["format"] == "round-robin" and event["duplicate"] and len(event["played"]) == 3
    assert [s["rank"] for s in lines] == [1, 2, 3, 4]
    assert {s["entrant"] for s in lines} == {"random", "greedy", "heuristic", "random#2"}
    keys = [(-s["field"], -s["match_points"], -s["difference"]) for s in lines]
    assert keys == sorted(keys)
    # every table of a round was dealt from the same seeds, revealed with the round
    assert all(r["seed"] for r in event["played"])
    assert out["bots"]["random#2"] == "random"


def test_the_same_event_for_any_jobs() -> None:
    args = [*FAST[:3], "--format", "knockout", "--deals-per-round", "1", "--seed", "3"]
    one, two = _json(args), _json([*args, "--jobs", "2"])
    assert one["standings"] == two["standings"]
    assert one["event"]["played"] == two["event"]["played"]


def test_a_scopone_event_to_a_target() -> None:
    out = _json(["random", "greedy", "--variant", "scopone", "--target", "3", "--rounds", "1"])
    (table,) = out["event"]["played"][0]["tables"]
    assert max(table["result"]["score"]) >= 3


def test_an_outside_bot_takes_part() -> None:
    bot = f"cmd:{sys.executable} -m scopa.protocol greedy"
    out = _json(["random", bot, "--rounds", "1", "--deals-per-round", "1"])
    assert out["bots"][out["standings"][0]["entrant"]] in ("random", bot)
    assert len(out["standings"]) == 2


@pytest.mark.parametrize("args, words", [
    (["random"], "at least two entrants"),
    (["random", "greedy", "--format", "ladder"], "unknown format 'ladder'"),
    (["random", "nobody"], "unknown bot 'nobody'"),
    (["random", "greedy", "--duplicate", "--target", "11"], "fixed number of deals"),
    (["random", "greedy", "--target", "11", "--deals-per-round", "2"], "not both"),
    (["random", "greedy", "--players", "3"], "two sides"),
    (["random", "greedy", "--option", "nope=1"], "unknown option 'nope'"),
    (["random", "greedy", "greedy", "--format", "knockout", "--rounds", "3"], "has 2 rounds"),
])
def test_bad_arguments_get_one_line_and_exit_2(args: list[str], words: str) -> None:
    r = runner.invoke(app, ["tournament", *args])
    assert r.exit_code == 2, r.output
    errors = [line for line in r.output.splitlines() if "Error" in line]
    assert len(errors) == 1 and words in re.sub(r"\s+", " ", r.output)


def test_a_broken_outside_bot_stops_the_event_with_exit_1() -> None:
    r = runner.invoke(app, ["tournament", "random", f"cmd:{sys.executable} -c pass",
                            "--rounds", "1", "--deals-per-round", "1"])
    assert r.exit_code == 1, r.output
    assert "tournament stopped:" in r.output and "Traceback" not in r.output
