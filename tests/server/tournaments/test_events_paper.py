"""A paper club night through the API: eight Scopone pairs, three Swiss rounds whose
results the organiser enters, standings checked against values worked out by hand; and
bad input that is refused and changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from event_helpers import Person, client_for

PAIRS = [f"Pair {c}" for c in "ABCDEFGH"]
#: per round, per table, (home, away, home's score, away's score), worked out by hand
ROUNDS = [
    [("A", "B", 21, 5), ("C", "D", 21, 10), ("E", "F", 21, 15), ("G", "H", 21, 20)],
    # after round 1: A +16, C +11, E +6, G +1 (2 points each), H -1, F -6, D -11, B -16
    [("A", "C", 21, 18), ("E", "G", 15, 21), ("H", "F", 21, 0), ("D", "B", 12, 21)],
    # after round 2: A 4 (+19), G 4 (+7), H 2 (+20), C 2 (+8), E 2 (0), B 2 (-7),
    # D 0 (-20), F 0 (-27)
    [("A", "G", 21, 11), ("H", "C", 19, 21), ("E", "B", 21, 3), ("D", "F", 21, 14)],
]
#: the final standings: (entrant, match points, difference, Buchholz)
FINAL = [("A", 6, 29, 10), ("E", 4, 18, 6), ("C", 4, 10, 10), ("G", 4, -3, 12),
         ("H", 2, 18, 8), ("D", 2, -13, 6), ("B", 2, -25, 12), ("F", 0, -34, 8)]


def pair(letter: str) -> str:
    return f"Pair {letter}"


def club_night(org: Person) -> str:
    r = org.post("/api/events", {
        "name": "Friday club night", "mode": "paper", "variant": "scopone",
        "format": "swiss", "rounds": 3, "target": 21, "capacity": 8, "entrants": PAIRS})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_club_night_of_eight_pairs(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        org = Person(client, "Organiser")
        event = club_night(org)
        for number, tables in enumerate(ROUNDS, 1):
            r = org.post(f"/api/events/{event}/rounds")
            assert r.status_code == 201, r.text
            paired = r.json()["event"]["played"][-1]
            assert [(t["home"], t["away"]) for t in paired["tables"]] == [
                (pair(h), pair(a)) for h, a, _, _ in tables]
            assert paired["seed"] is None and len(paired["commitment"]) == 64
            for i, (_, _, hs, aws) in enumerate(tables, 1):
                r = org.post(f"/api/events/{event}/rounds/{number}/tables/{i}/result",
                             {"score": [hs, aws]})
                assert r.status_code == 200, r.text
        page = client.get(f"/api/events/{event}").json()
        assert page["status"] == "finished"
        got = [(s["entrant"], s["match_points"], s["difference"], s["buchholz"])
               for s in page["standings"]]
        assert got == [(pair(e), mp, d, b) for e, mp, d, b in FINAL]
        # every round's seed is out now, and the event's JSON reads back
        assert all(r["seed"] for r in page["event"]["played"])
        full = org.get(f"/api/events/{event}/download").json()
        from scopa.tournament import Event

        assert Event.from_dict(full).finished


def _state(client: Any, event: str) -> Any:
    return client.get(f"/api/events/{event}").json()


@pytest.mark.parametrize("url, body, status", [
    ("rounds/1/tables/1/result", {"score": [21, 5]}, 400),         # entered twice
    ("rounds/1/tables/9/result", {"score": [21, 5]}, 400),         # no such table
    ("rounds/2/tables/1/result", {"score": [21, 5]}, 400),         # no such round
    ("rounds/1/tables/2/result", {"deals": [[1, 0]]}, 400),        # deals, not a score
    ("rounds/1/tables/2/result", {"score": [-1, 5]}, 422),         # negative points
    ("rounds/1/tables/2/result", {"score": [21, 5], "x": 1}, 422),  # unknown field
    ("rounds/1/tables/2/result", {"forfeit": "Pair Z"}, 400),      # not at this table
    ("rounds", None, 409),                                          # round 1 is not over
    ("withdraw", {"entrant": "Pair Z"}, 400),                       # no such entrant
    ("join", None, 409),                                            # paper: no joining
])
def test_bad_input_changes_nothing(tmp_path: Path, url: str, body: Any, status: int) -> None:
    with client_for(tmp_path) as client:
        org = Person(client, "Organiser")
        event = club_night(org)
        assert org.post(f"/api/events/{event}/rounds").status_code == 201
        assert org.post(f"/api/events/{event}/rounds/1/tables/1/result",
                        {"score": [21, 5]}).status_code == 200
        before = _state(client, event)
        r = org.post(f"/api/events/{event}/{url}", body)
        assert r.status_code == status, r.text
        assert _state(client, event) == before


def test_only_the_organiser_enters_results(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        org, other = Person(client, "Organiser"), Person(client, "Somebody")
        event = club_night(org)
        assert other.post(f"/api/events/{event}/rounds").status_code == 403
        assert org.post(f"/api/events/{event}/rounds").status_code == 201
        before = _state(client, event)
        assert other.post(f"/api/events/{event}/rounds/1/tables/1/result",
                          {"score": [21, 5]}).status_code == 403
        assert client.post(f"/api/events/{event}/rounds/1/tables/1/result",
                           json={"score": [21, 5]}).status_code == 401
        assert _state(client, event) == before
        assert client.get("/api/events/nope").status_code == 404


def test_a_correction_is_audited(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        org = Person(client, "Organiser")
        event = club_night(org)
        org.post(f"/api/events/{event}/rounds")
        org.post(f"/api/events/{event}/rounds/1/tables/1/result", {"score": [21, 5]})
        r = org.put(f"/api/events/{event}/rounds/1/tables/1/result",
                    {"score": [5, 21], "note": "sheet misread"})
        assert r.status_code == 200, r.text
        audit = r.json()["event"]["audit"]
        assert audit[-1]["note"] == "sheet misread" and audit[-1]["after"] == {"score": [5, 21]}
        assert r.json()["standings"][0]["entrant"] == "Pair B"


def test_duplicate_boards_only_for_the_organiser_until_the_round_is_over(tmp_path: Path) -> None:
    """No player sees a card before it may: a round's deals (and its seed) are shown to
    everyone once the round is over; before, only to a club night's organiser, who deals
    the boards."""
    with client_for(tmp_path) as client:
        org, player = Person(client, "Organiser"), Person(client, "Onlooker")
        event = org.post("/api/events", {
            "name": "Duplicate night", "mode": "paper", "deals_per_round": 2,
            "duplicate": True, "format": "round-robin",
            "entrants": ["Elena", "Fabio", "Gino", "Ilaria"]}).json()["id"]
        org.post(f"/api/events/{event}/rounds")
        url = f"/api/events/{event}/rounds/1/print"
        hidden = player.get(url).json()
        assert hidden["seed"] is None and all(t["deals"] is None for t in hidden["tables"])
        assert client.get(url).json() == hidden
        boards = org.get(url).json()["tables"]
        assert boards[0]["deals"] == boards[1]["deals"]  # every table: the same cards
        assert len(boards[0]["deals"]) == 2 and len(boards[0]["deals"][0]["deck"]) == 40
        assert player.get(f"/api/events/{event}").json()["event"]["played"][0]["seed"] is None
        for t in (1, 2):
            org.post(f"/api/events/{event}/rounds/1/tables/{t}/result",
                     {"deals": [[3, 1], [2, 2]]})
        shown = player.get(url).json()
        assert shown["seed"] and shown["tables"][0]["deals"] == boards[0]["deals"]
        assert org.get(f"/api/events/{event}/rounds/2/print").status_code == 404


def test_crosstable_travellers_and_csv_of_a_duplicate_scopone_night(tmp_path: Path) -> None:
    # the organiser sees a round's travellers as results come in; a player only once the
    # round is over, with the deal's four hands; the crosstable and the CSV follow the
    # standings
    with client_for(tmp_path) as client:
        org, player = Person(client, "Organiser"), Person(client, "Player")
        r = org.post("/api/events", {
            "name": "Duplicate Scopone", "mode": "paper", "variant": "scopone",
            "deals_per_round": 2, "duplicate": True, "rounds": 1,
            "entrants": ["N1", "N2", "N3", "N4"]})
        assert r.status_code == 201, r.text
        event = r.json()["id"]
        tables = org.post(f"/api/events/{event}/rounds").json()["event"]["played"][0]["tables"]
        scores = [[[6, 2], [3, 4]], [[4, 4], [1, 6]]]
        first = f"/api/events/{event}/rounds/1/tables/{tables[0]['number']}/result"
        assert org.post(first, {"deals": scores[0]}).status_code == 200
        url = f"/api/events/{event}/rounds/1/travellers"
        assert player.get(url).status_code == 403  # the round is not over
        assert len(org.get(url).json()["deals"][0]["tables"]) == 1
        second = f"/api/events/{event}/rounds/1/tables/{tables[1]['number']}/result"
        assert org.post(second, {"deals": scores[1]}).status_code == 200
        deals = player.get(url).json()["deals"]
        assert [len(d["tables"]) for d in deals] == [2, 2]
        assert [t["field"] for t in deals[0]["tables"]] == [4.0, -4.0]
        cards = deals[0]["cards"]
        assert len(cards["hands"]) == 4
        assert sum(len(h["cards"]) for h in cards["hands"]) + len(cards["table"]) == 40
        assert [h["side"] for h in cards["hands"]].count("home") == 2
        rows = player.get(f"/api/events/{event}/crosstable").json()["entrants"]
        assert [r["entrant"] for r in rows] == [
            s["entrant"] for s in player.get(f"/api/events/{event}").json()["standings"]]
        assert all(len(r["games"]) == 1 for r in rows)
        got = client.get(f"/api/events/{event}/standings.csv")
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
        assert got.text.splitlines()[0].startswith("rank,entrant,match_points")
        assert len(got.text.splitlines()) == 5
        assert client.get(f"/api/events/{event}/rounds/2/travellers").status_code == 404


def test_a_late_entry_and_a_round_sat_out(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        org, other = Person(client, "Organiser"), Person(client, "Other")
        r = org.post("/api/events", {"name": "Swiss night", "mode": "paper", "rounds": 3,
                                     "target": 11, "rest_points": 0,
                                     "entrants": ["A", "B", "C", "D"]})
        event = r.json()["id"]
        assert org.post(f"/api/events/{event}/late-entry", {"entrant": "E"}).status_code == 409
        assert org.post(f"/api/events/{event}/rounds").status_code == 201
        assert other.post(f"/api/events/{event}/late-entry",
                          {"entrant": "E"}).status_code == 403
        r = org.post(f"/api/events/{event}/late-entry", {"entrant": "E", "note": "late bus"})
        assert r.status_code == 200, r.text
        assert r.json()["entrants"] == ["A", "B", "C", "D", "E"]
        assert org.post(f"/api/events/{event}/late-entry",
                        {"entrant": "E\u202e"}).status_code == 422  # the schema's pattern
        r = org.post(f"/api/events/{event}/sit-out", {"entrant": "B", "round": 2})
        assert r.status_code == 200, r.text
        assert org.post(f"/api/events/{event}/sit-out",
                        {"entrant": "Z", "round": 2}).status_code == 400
        for t in r.json()["event"]["played"][0]["tables"]:
            if t["away"] is not None:
                org.post(f"/api/events/{event}/rounds/1/tables/{t['number']}/result",
                         {"score": [11, 3]})
        page = org.post(f"/api/events/{event}/rounds").json()
        rnd = page["event"]["played"][1]
        assert rnd["resting"] == ["B"]
        paired = {n for t in rnd["tables"] for n in (t["home"], t["away"]) if n}
        assert paired == {"A", "C", "D", "E"}
        assert next(s for s in page["standings"] if s["entrant"] == "B")["rests"] == 1
