"""An online Swiss event among accounts: entries (full, twice, after the start), tables
made at the server for each pairing with the entrants seated, results entered from the
matches' ends (stand-ins play whoever is away: grace 0 here) and the next round paired
by itself, the seats' tokens handed to their own accounts only; and how a finished
match's end reads as a result (an absent player forfeits)."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from event_helpers import Person, client_for

from scopa.server.common.refusal import Refusal
from scopa.server.play import flow, frames
from scopa.server.store.tournament_models import RoundTableRow
from scopa.server.tournaments.online import table_result
from scopa.server.tournaments.policy import pairs_itself
from scopa.tournament import Event, Result

#: longest wait for a whole event of quick bot matches on a busy machine
DEADLINE = 240


def wait_for(check: Any, what: str, deadline: float = DEADLINE) -> Any:
    """Poll the API until ``check()`` is true (the matches run in the app's loop)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_entries(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        org, a, b, c = (Person(client, n) for n in ("Organiser", "Anna", "Bruno", "Carla"))
        r = org.post("/api/events", {"name": "Tiny", "capacity": 2, "target": 11})
        assert r.status_code == 201, r.text
        event = r.json()["id"]
        assert a.post(f"/api/events/{event}/join").status_code == 200
        r = a.post(f"/api/events/{event}/join")
        assert r.status_code == 409 and "already" in r.json()["detail"]
        assert b.post(f"/api/events/{event}/join").status_code == 200
        r = c.post(f"/api/events/{event}/join")
        assert r.status_code == 409 and "full" in r.json()["detail"]
        assert b.post(f"/api/events/{event}/leave").status_code == 200
        assert c.post(f"/api/events/{event}/join").status_code == 200
        assert client.post(f"/api/events/{event}/join").status_code == 401
        listed = client.get("/api/events").json()["events"]
        assert [e["entered_count"] for e in listed] == [2]
        assert org.post(f"/api/events/{event}/rounds").status_code == 201
        r = b.post(f"/api/events/{event}/join")
        assert r.status_code == 409 and "started" in r.json()["detail"]
        r = a.post(f"/api/events/{event}/leave")
        assert r.status_code == 409


def test_bad_settings_are_refused(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        org = Person(client, "Organiser")
        for body in ({"name": "x", "variant": "scopone", "target": 21},  # partners online
                     {"name": "x", "target": 11, "deals_per_round": 2},
                     {"name": "x", "duplicate": True, "target": 11},
                     {"name": "x", "format": "knockout", "rounds": 9, "capacity": 8},
                     {"name": "x", "entrants": ["A", "B"]},          # names: paper only
                     {"name": "x", "mode": "paper", "entrants": ["A", "A"]}):
            r = org.post("/api/events", body)
            assert r.status_code == 400, (body, r.text)
        assert client.get("/api/events").json()["events"] == []


def test_a_swiss_event_plays_itself_out(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        org = Person(client, "Organiser")
        people = [Person(client, n) for n in ("Anna", "Bruno")]
        event = org.post("/api/events", {
            "name": "Online Swiss", "target": 1, "rounds": 2, "capacity": 4,
            "auto_next": True}).json()["id"]
        for p in people:
            assert p.post(f"/api/events/{event}/join").status_code == 200
        assert people[0].post(f"/api/events/{event}/bots", {"level": "random"}).status_code == 403
        assert org.post(f"/api/events/{event}/bots", {"level": "nobody"}).status_code == 400
        for _ in range(2):
            assert org.post(f"/api/events/{event}/bots", {"level": "random"}).status_code == 200
        assert client.get(f"/api/events/{event}").json()["entrants"] == [
            "Anna", "Bruno", "Giulia", "Marco"]
        r = org.post(f"/api/events/{event}/rounds")
        assert r.status_code == 201, r.text
        # a seat's token goes to its own account only
        seat = people[0].post(f"/api/events/{event}/seat")
        if seat.status_code == 200:  # (the table may be over already: no seat now)
            body = seat.json()
            assert body["seat"] == 0 and len(body["token"]) > 20
            assert org.post(f"/api/events/{event}/seat").status_code == 404
        page = wait_for(lambda: (p := client.get(f"/api/events/{event}").json())
                        ["status"] == "finished" and p, "the event's end")
        played = page["event"]["played"]
        assert len(played) == 2
        for rnd in played:
            assert rnd["seed"] and len(rnd["tables"]) == 2
            for t in rnd["tables"]:
                people_at = [n for n in (t["home"], t["away"]) if n in ("Anna", "Bruno")]
                if len(people_at) == 1:  # nobody came: the stand-in's play does not count
                    assert t["result"] == {"forfeit": people_at[0]}
                elif people_at:  # both away: neither played
                    assert t["result"] == {"double_forfeit": True}
                else:  # two bots: the match's score
                    assert t["result"]["score"][0] != t["result"]["score"][1]
        assert {(t["round"], t["number"]) for t in page["tables"]} == {
            (1, 1), (1, 2), (2, 1), (2, 2)}
        doubles = sum(t["result"] == {"double_forfeit": True}
                      for rnd in played for t in rnd["tables"])
        assert sum(s["match_points"] for s in page["standings"]) == 2 * (4 - doubles)


def test_an_event_table_takes_no_rematch_vote(tmp_path: Path) -> None:
    """The event pairs a table's next game: a rematch vote at its finished match is
    refused (``event_table``) and changes nothing, and its frames say there is none (the
    page offers none), also as the store gives the table back after a restart."""
    with client_for(tmp_path) as client:
        org, a, b = (Person(client, n) for n in ("Organiser", "Anna", "Bruno"))
        event = org.post("/api/events", {"name": "Once", "target": 1, "rounds": 1}).json()["id"]
        for p in (a, b):
            assert p.post(f"/api/events/{event}/join").status_code == 200
        assert org.post(f"/api/events/{event}/rounds").status_code == 201
        page = wait_for(lambda: (p := client.get(f"/api/events/{event}").json())
                        ["status"] == "finished" and p, "the event's end")
        table_id = page["tables"][0]["table_id"]
        master = client.app.state.master  # type: ignore[attr-defined]
        table = client.portal.call(master.find, table_id)
        assert table.match_over and table.event_table
        assert frames.table_info(table)["rematch"] is False
        for seat in (0, 1):  # both votes would start a match at any other table
            with pytest.raises(Refusal) as e:
                client.portal.call(master.rematch, table, seat)
            assert e.value.code == "event_table" and "event" in e.value.message
        assert table.rematch_votes == set() and table.match_number == 1
        stored = client.portal.call(master.store.load_table, table_id)
        assert flow.rebuild(stored).event_table
        # a table of the lobby still offers one
        made = a.post("/api/tables", {"name": "Anna"}).json()
        assert made["table"]["rematch"] is True
        assert not flow.rebuild(client.portal.call(master.store.load_table,
                                                   made["table"]["id"])).event_table


def test_a_withdrawal_that_completes_the_round_pairs_the_next_one(tmp_path: Path) -> None:
    """Auto-next: the withdrawal whose forfeit is the round's last result pairs the next
    round, as the last match's end does (``Tournaments.round_may_be_over``); nobody is stood
    in for here, so only the withdrawal can end Anna and Bruno's table."""
    with client_for(tmp_path, grace_seconds=600.0) as client:
        org, a, b = (Person(client, n) for n in ("Organiser", "Anna", "Bruno"))
        event = org.post("/api/events", {"name": "Gone", "target": 1, "rounds": 2,
                                         "capacity": 4, "auto_next": True}).json()["id"]
        for p in (a, b):
            assert p.post(f"/api/events/{event}/join").status_code == 200
        for _ in range(2):
            assert org.post(f"/api/events/{event}/bots", {"level": "random"}).status_code == 200
        r = org.post(f"/api/events/{event}/rounds")
        assert r.status_code == 201, r.text
        assert [(t["home"], t["away"]) for t in r.json()["event"]["played"][0]["tables"]] == [
            ("Anna", "Bruno"), ("Giulia", "Marco")]

        def view() -> Any:
            return client.get(f"/api/events/{event}").json()

        wait_for(lambda: view()["event"]["played"][0]["tables"][1]["result"], "the bots' match")
        assert len(view()["event"]["played"]) == 1  # Anna and Bruno's table holds round 2
        r = org.post(f"/api/events/{event}/withdraw", {"entrant": "Bruno"})
        assert r.status_code == 200, r.text
        assert r.json()["event"]["played"][0]["tables"][0]["result"] == {"forfeit": "Bruno"}
        page = wait_for(lambda: (p := view())["event"]["played"][1:] and 2 in {
            t["round"] for t in p["tables"]} and p, "round 2 and its table", deadline=60)
        rnd = page["event"]["played"][1]
        assert all("Bruno" not in (t["home"], t["away"]) for t in rnd["tables"])
        assert len(rnd["tables"]) == 2 and page["status"] == "running"


def test_only_an_online_event_made_with_auto_next_pairs_itself() -> None:
    event = Event(["Anna", "Bruno", "Carla"], rounds=2, target=11)
    event.next_round()  # Anna v Bruno, Carla's bye
    assert not pairs_itself("online", True, event)  # the round is not over
    event.enter_result(1, 1, Result(score=(11, 7)))
    assert pairs_itself("online", True, event)
    assert not pairs_itself("online", False, event)
    assert not pairs_itself("paper", True, event)  # its organiser prints each round
    event.next_round()
    for t in event.current.tables if event.current else []:
        if t.away is not None:
            event.enter_result(2, t.number, Result(score=(11, 3)))
    assert event.finished and not pairs_itself("online", True, event)


def test_an_organiser_enters_a_double_forfeit_where_it_fits(tmp_path: Path) -> None:
    """From the API: neither entrant played, a loss for each; refused in a knockout (a
    table there needs a winner), and the refusal changes nothing."""
    with client_for(tmp_path) as client:
        org = Person(client, "Organiser")
        for fmt, status in (("swiss", 200), ("knockout", 400)):
            event = org.post("/api/events", {
                "name": fmt, "mode": "paper", "format": fmt, "target": 11,
                "entrants": ["Lia", "Marco", "Nadia", "Oscar"]}).json()["id"]
            assert org.post(f"/api/events/{event}/rounds").status_code == 201
            before = org.get(f"/api/events/{event}/download").json()
            r = org.post(f"/api/events/{event}/rounds/1/tables/1/result",
                         {"double_forfeit": True})
            assert r.status_code == status, r.text
            if status == 400:
                assert "needs a winner" in r.json()["detail"]
                assert org.get(f"/api/events/{event}/download").json() == before
                continue
            assert r.json()["event"]["played"][0]["tables"][0]["result"] == {
                "double_forfeit": True}
            lines = {s["entrant"]: s for s in r.json()["standings"]}
            for name in ("Lia", "Marco"):
                assert (lines[name]["match_points"], lines[name]["lost"]) == (0, 1)


def fake_table(**kw: Any) -> Any:
    seats = [SimpleNamespace(seat=i, kind="human", standin=False, resigned=False,
                             present=True) for i in range(2)]
    out = SimpleNamespace(seats=seats, abandoned=set(), final_scores=[11, 7], game=None)
    for k, v in kw.items():
        setattr(out, k, v)
    return out


def test_a_match_end_reads_as_a_result() -> None:
    event = Event(["Anna", "Bruno"], target=11)
    event.next_round()
    row = RoundTableRow(table_id="t", event_id="e", round=1, number=1, invite="i",
                        home_seat=0, entered=False)
    assert table_result(fake_table(), row, event) == Result(score=(11, 7))
    away = fake_table()
    away.seats[1].standin, away.seats[1].present = True, False
    assert table_result(away, row, event) == Result(forfeit="Bruno")
    rated = fake_table(abandoned={0})
    assert table_result(rated, row, event) == Result(forfeit="Anna")
    both = fake_table(abandoned={0, 1})  # neither played: a loss for both
    assert table_result(both, row, event) == Result(double_forfeit=True)
    assert event.outcome(event.table(1, 1), Result(double_forfeit=True)).match_points == {
        "Anna": 0, "Bruno": 0}
    knockout = Event(["Anna", "Bruno"], target=11, format="knockout")
    knockout.next_round()  # a knockout needs a winner: the stand-ins' score stands
    assert table_result(both, row, knockout) == Result(score=(11, 7))


def test_a_round_paired_just_before_a_stop_gets_its_tables_at_start(tmp_path: Path) -> None:
    """The round is stored before its tables are made: a server stopped in between makes
    them when it starts again (``RoundTables.resume``), once."""
    with client_for(tmp_path, grace_seconds=600.0) as client:
        org, a, b = (Person(client, n) for n in ("Organiser", "Anna", "Bruno"))
        event = org.post("/api/events", {"name": "Cut", "target": 11}).json()["id"]
        a.post(f"/api/events/{event}/join")
        b.post(f"/api/events/{event}/join")
        state = client.app.state  # type: ignore[attr-defined]
        hooks = list(state.tournaments.round_hooks)
        state.tournaments.round_hooks.clear()  # the stop: the round is stored, no table made
        assert org.post(f"/api/events/{event}/rounds").status_code == 201
        assert client.get(f"/api/events/{event}").json()["tables"] == []
        state.tournaments.round_hooks[:] = hooks
        client.portal.call(state.round_tables.resume)  # type: ignore[union-attr]
        client.portal.call(state.round_tables.resume)  # type: ignore[union-attr]
        tables = client.get(f"/api/events/{event}").json()["tables"]
        assert [(t["round"], t["number"]) for t in tables] == [(1, 1)]
        seat = b.post(f"/api/events/{event}/seat").json()
        assert seat["seat"] == 1 and seat["table_id"] == tables[0]["table_id"]
        # the token opens Bruno's seat (asked again: the same), and Anna's only hers
        master = state.master
        table = client.portal.call(master.find, seat["table_id"])
        assert master.authenticate(table, seat["token"]) == 1
        assert b.post(f"/api/events/{event}/seat").json()["token"] == seat["token"]
        assert master.authenticate(table, a.post(f"/api/events/{event}/seat").json()["token"]) == 0
        assert [s.user_id for s in table.seats] == [a.id, b.id]


def test_a_full_server_leaves_a_table_for_later_and_the_round_stands(tmp_path: Path) -> None:
    """The master refuses a table past ``max_live_tables``: the round is paired all the
    same (201), the tables it could make are there, the rest is made at the next start."""
    with client_for(tmp_path, grace_seconds=600.0, max_live_tables=1) as client:
        org = Person(client, "Organiser")
        people = [Person(client, n) for n in ("Anna", "Bruno", "Carla", "Dario")]
        event = org.post("/api/events", {"name": "Full", "target": 11}).json()["id"]
        for p in people:
            p.post(f"/api/events/{event}/join")
        r = org.post(f"/api/events/{event}/rounds")
        assert r.status_code == 201, r.text
        assert len(r.json()["event"]["played"][0]["tables"]) == 2
        assert [t["number"] for t in r.json()["tables"]] == [1]


def test_a_duplicate_round_deals_the_same_cards_at_every_table(tmp_path: Path) -> None:
    """Fixed deals online: every table of a duplicate round is dealt the round's seeds,
    in order, and its match ends after them; each table's result is its deals' points,
    scored against the field."""
    with client_for(tmp_path) as client:
        org = Person(client, "Organiser")
        event = org.post("/api/events", {
            "name": "Duplicate", "format": "round-robin", "rounds": 1, "duplicate": True,
            "deals_per_round": 2, "capacity": 4}).json()["id"]
        for _ in range(4):
            assert org.post(f"/api/events/{event}/bots", {"level": "random"}).status_code == 200
        assert org.post(f"/api/events/{event}/rounds").status_code == 201
        page = wait_for(lambda: (p := client.get(f"/api/events/{event}").json())
                        ["status"] == "finished" and p, "the round's end")
        rnd = page["event"]["played"][0]
        model = Event.from_dict(org.get(f"/api/events/{event}/download").json())
        seeds = [s for s, _ in model.deal_seeds(1, 1)]
        assert seeds == [s for s, _ in model.deal_seeds(1, 2)]
        master = client.app.state.master  # type: ignore[attr-defined]
        for t in page["tables"]:
            table = client.portal.call(master.find, t["table_id"])
            log = table.game.hand_log()
            assert [h["seed"] for h in log[:2]] == seeds
            result = rnd["tables"][t["number"] - 1]["result"]
            points = [[h["result"]["sides"][0]["total"], h["result"]["sides"][1]["total"]]
                      for h in log[:2]]
            assert result == {"deals": points}
        assert sum(s["field"] for s in page["standings"]) == pytest.approx(0)


def test_one_account_cannot_take_over_the_list(tmp_path: Path) -> None:
    # names cleaned as players' are, starts within a year, a few events an organiser, the
    # list paged and no dearer for events with many entrants
    with client_for(tmp_path, events_open_per_organiser=3) as client:
        org, other = Person(client, "Organiser"), Person(client, "Other")
        for body in ({"name": "Club\u202enight"}, {"name": "Club\u200enight"},
                     {"name": "x", "starts_at": "0001-01-01T00:00:00+14:00"},
                     {"name": "x", "starts_at": "0001-01-01T00:00:00"},
                     {"name": "x", "starts_at": "2999-01-01T00:00:00Z"},
                     {"name": "x", "mode": "paper", "entrants": ["A\u202e", "B"]}):
            r = org.post("/api/events", body)
            assert r.status_code in (400, 422), (body, r.text)  # the model's, the schema's
        made = [org.post("/api/events", {"name": f"Night {i}", "target": 11}) for i in range(5)]
        assert [r.status_code for r in made] == [201, 201, 201, 429, 429]
        assert "at most 3" in made[-1].json()["detail"]
        assert other.post("/api/events", {"name": "Real", "target": 11}).status_code == 201
        listed = client.get("/api/events?limit=2").json()
        assert listed["total"] == 4 and len(listed["events"]) == 2
        rest = client.get("/api/events?limit=2&offset=2").json()["events"]
        assert {e["name"] for e in listed["events"] + rest} == {
            "Night 0", "Night 1", "Night 2", "Real"}
        assert all("entrants" not in e and e["entered_count"] == 0 for e in rest)
        assert client.get("/api/events?limit=500").status_code == 422


def test_an_events_rules_options_grace_and_round_clock(tmp_path: Path) -> None:
    # the options a variant has, as in the lobby; its own grace for its tables; a round
    # clock the players see
    with client_for(tmp_path, grace_seconds=30) as client:
        org, anna = Person(client, "Organiser"), Person(client, "Anna")
        r = org.post("/api/events", {"name": "x", "options": {"no_such_option": 1}})
        assert r.status_code == 400, r.text
        r = org.post("/api/events", {"name": "Re Bello night", "variant": "re-bello",
                                     "options": {"sevens": False}, "target": 11,
                                     "grace_seconds": 600, "round_minutes": 45})
        assert r.status_code == 201, r.text
        event = r.json()["id"]
        assert r.json()["grace_seconds"] == 600 and r.json()["round_minutes"] == 45
        assert anna.post(f"/api/events/{event}/join").status_code == 200
        assert org.post(f"/api/events/{event}/bots", {"level": "beginner"}).status_code == 200
        before = time.time()
        page = org.post(f"/api/events/{event}/rounds").json()
        rnd = page["event"]["played"][0]
        ends = datetime.fromisoformat(rnd["ends_at"].replace("Z", "+00:00")).timestamp()
        assert before + 45 * 60 - 5 < ends < time.time() + 45 * 60 + 5
        assert page["event"]["options"] == {"sevens": False}
        seat = anna.post(f"/api/events/{event}/seat").json()
        table = client.app.state.master.tables[seat["table_id"]]  # type: ignore[attr-defined]
        assert table.grace == 600 and table.rules.sevens is False
        assert table.event_id == event
