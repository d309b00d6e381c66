"""The crosstable, each entrant's history, a duplicate round's travellers and the CSV
standings, from a small event's results: every figure checked by hand."""

from __future__ import annotations

import csv
import io

from scopa.tournament import (
    Event,
    Result,
    crosstable,
    histories,
    standings,
    standings_csv,
    travellers,
)
from scopa.tournament.duplicate import field_scores


def _round_one() -> Event:
    event = Event(["A", "B", "C", "=cmd"], deals_per_round=2, duplicate=True, seed="s",
                  rounds=2)
    event.next_round()  # A-B, C-=cmd
    tables = {(t.home, t.away): t.number for t in event.round(1).tables}
    assert set(tables) == {("A", "B"), ("C", "=cmd")}
    event.enter_result(1, tables[("A", "B")], Result(deals=((4, 1), (2, 3))))
    event.enter_result(1, tables[("C", "=cmd")], Result(deals=((2, 2), (0, 5))))
    return event


def test_histories_and_the_crosstable() -> None:
    event = _round_one()
    games = histories(event)
    assert [(g.opponent, g.home, g.points_for, g.points_against, g.match_points, g.how)
            for g in games["A"]] == [("B", True, 6, 4, 2, "played")]
    assert [(g.opponent, g.home, g.points_for, g.match_points) for g in games["=cmd"]] == [
        ("C", False, 7, 2)]
    rows = crosstable(event, standings(event))
    by = {r["entrant"]: r for r in rows}
    assert by["A"]["met"] == {"B": 2} and by["B"]["met"] == {"A": 0}
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert by["C"]["games"][0]["opponent"] == "=cmd"


def test_a_duplicate_rounds_travellers_add_up_to_the_field_scores() -> None:
    event = _round_one()
    deals = travellers(event, 1)
    assert [d["deal"] for d in deals] == [0, 1]
    first = {t["home"]: t for t in deals[0]["tables"]}
    # deal 0: home margins A +3, C 0; each home against the other's
    assert first["A"]["field"] == 3.0 and first["C"]["field"] == -3.0
    assert (first["A"]["home_points"], first["A"]["away_points"]) == (4, 1)
    per_entrant: dict[str, float] = {}
    for d in deals:
        for t in d["tables"]:
            per_entrant[t["home"]] = per_entrant.get(t["home"], 0) + t["field"]
            per_entrant[t["away"]] = per_entrant.get(t["away"], 0) - t["field"]
    tables = [(t.home, t.away, list(t.result.deals)) for t in event.round(1).tables
              if t.result is not None and t.away is not None]
    assert per_entrant == field_scores(tables)


def test_the_standings_as_csv_quote_what_a_spreadsheet_would_run() -> None:
    event = _round_one()
    rows = list(csv.DictReader(io.StringIO(standings_csv(standings(event)))))
    assert rows[0]["rank"] == "1" and len(rows) == 4
    assert {r["entrant"] for r in rows} == {"A", "B", "C", "'=cmd"}
    assert all(r["withdrawn"] == "no" for r in rows)
    assert set(rows[0]) >= {"match_points", "difference", "field", "buchholz"}
