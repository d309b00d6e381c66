"""A duplicate event's coming deals cannot be read nor derived during its round, on SQLite
and PostgreSQL: a seated player plays a hand while another table's match is over, then
everything a player, the organiser, a spectator or an outsider can read is gathered (the
player's frames, the event page, its print view and download, the lists, the other
table's replay and record, watching either table) and nothing in it is, or computes to,
a seed still secret (``seed_guess``: the old naming and the HMAC one). Once the round is
over its seed is shown, every hand's commitment seen at the table is the HMAC of it, and
the replays open."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx
from server_helpers import Client, ServerProcess, play_human
from sqlalchemy import select

from scopa.server.store.database import Store
from scopa.server.store.models import MatchRow
from scopa.server.store.tournament_models import RoundTableRow, TournamentRow
from scopa.shuffle import child_seed, commitment
from scopa.tournament import Event
from seed_guess import leaks, shown_strings

#: longest wait for a bots' match on a busy machine
DEADLINE = 120


def person(server: ServerProcess, name: str) -> httpx.Client:
    http = httpx.Client(base_url=server.base, timeout=30)
    r = http.post("/api/account/signup", json={"name": name, "password": "correct horse 9"})
    assert r.status_code == 201, r.text
    http.headers["X-CSRF-Token"] = r.json()["csrf"]
    return http


async def rows(url: str, event_id: str) -> tuple[Event, list[RoundTableRow],
                                                  dict[str, MatchRow]]:
    """The server's own records: the full event (its secrets), its tables, their matches."""
    store = Store(url)
    try:
        async with store.session() as s:
            ev = await s.get(TournamentRow, event_id)
            assert ev is not None and ev.event is not None
            tables = list(await s.scalars(select(RoundTableRow)
                                          .where(RoundTableRow.event_id == event_id)))
            matches = {m.table_id: m for m in await s.scalars(
                select(MatchRow).where(MatchRow.table_id.in_([t.table_id for t in tables])))}
            return Event.from_dict(ev.event), tables, matches
    finally:
        await store.close()


def wait_other_table_over(url: str, event_id: str, mine: str) -> MatchRow:
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        _, tables, matches = asyncio.run(rows(url, event_id))
        other = [matches.get(t.table_id) for t in tables if t.table_id != mine]
        if other and other[0] is not None and other[0].finished_at is not None:
            return other[0]
        time.sleep(0.1)
    raise AssertionError("the bots' table did not finish")


def test_a_duplicate_rounds_deals_stay_secret(server: ServerProcess,
                                              database_url: str) -> None:
    org, anna, outsider = (person(server, "Organiser"), person(server, "Anna"),
                           httpx.Client(base_url=server.base, timeout=30))
    r = org.post("/api/events", json={"name": "Duplicate night", "duplicate": True,
                                      "deals_per_round": 2, "rounds": 2, "capacity": 4})
    assert r.status_code == 201, r.text
    eid = r.json()["id"]
    assert anna.post(f"/api/events/{eid}/join").status_code == 200
    for _ in range(3):
        assert org.post(f"/api/events/{eid}/bots", json={"level": "random"}).status_code == 200
    assert org.post(f"/api/events/{eid}/rounds").status_code == 201
    seat = anna.post(f"/api/events/{eid}/seat")
    assert seat.status_code == 200, seat.text
    mine = seat.json()
    other_match = wait_other_table_over(database_url, eid, mine["table_id"])
    event, tables, _ = asyncio.run(rows(database_url, eid))
    other = next(t for t in tables if t.table_id != mine["table_id"])
    secrets = {event.round(1).seed} | {
        s for t in event.round(1).tables
        for s, _ in event.deal_seeds(1, t.number) + event.decider_seeds(1, t.number)}

    async def play_first_hand() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        me = await Client(server, mine["table_id"], mine["token"]).connect()
        await play_human(me, random.Random(1), until="hand_end")
        watchers = []
        for table_id, invite in ((other.table_id, other.invite),
                                 (mine["table_id"], mine["invite"])):
            w = await Client(server, table_id, invite=invite).connect()
            await asyncio.wait_for(w.queue.get(), 30)  # refused, or welcomed
            await w.close()
            watchers.extend(w.frames)
        await me.close()
        return me.frames, watchers

    frames, watched = asyncio.run(play_first_hand())
    hand_end = next(f for f in frames if f["type"] == "hand_end")
    assert hand_end["seed"] is None and hand_end["commitment"]
    assert watched and all(f["type"] == "error" for f in watched), watched
    seen: list[Any] = [frames, watched]
    replay = outsider.get(f"/api/matches/{other_match.id}")
    record = anna.get(f"/api/matches/{other_match.id}/record")
    assert replay.status_code == 403 and record.status_code == 403, (replay.text, record.text)
    # nor is its review asked or read (its plays' values would show the round's cards)
    asked = anna.post(f"/api/matches/{other_match.id}/review", json={})
    review = outsider.get(f"/api/matches/{other_match.id}/review")
    assert asked.status_code == 403 and review.status_code == 403, (asked.text, review.text)
    for who in (anna, org, outsider):
        for path in (f"/api/events/{eid}", f"/api/events/{eid}/rounds/1/print", "/api/events",
                     "/api/matches", f"/api/matches/{other_match.id}",
                     f"/api/matches/{other_match.id}/record",
                     f"/api/matches/{other_match.id}/review", f"/api/tables/{other.table_id}",
                     f"/api/events/{eid}/download", "/api/players/Anna"):
            got = who.get(path)
            assert got.status_code < 500, (path, got.text)
            seen.append(got.json() if "json" in got.headers.get("content-type", "") else got.text)
    page = anna.get(f"/api/events/{eid}").json()
    done = [t for t in page["event"]["played"][0]["tables"] if t["done"]]
    assert done and all(t["result"] is None for t in done)  # a finished table's points wait
    assert not leaks(shown_strings(seen), secrets)

    # the round over: its seed is shown and proves every hand's commitment seen at the table
    async def play_on() -> list[dict[str, Any]]:
        me = await Client(server, mine["table_id"], mine["token"]).connect()
        await play_human(me, random.Random(2), until="match_end")
        await me.close()
        return me.frames

    frames += asyncio.run(play_on())
    end = time.monotonic() + DEADLINE
    while (rnd := anna.get(f"/api/events/{eid}").json()["event"]["played"][0])["seed"] is None:
        assert time.monotonic() < end, "the round's seed was never shown"
        time.sleep(0.1)
    committed = {(f["commitment"]["hand_number"], f["commitment"]["commitment"])
                 for f in frames if f["type"] == "state" and f.get("commitment")}
    assert commitment(rnd["seed"]) == rnd["commitment"]
    for hand, c in committed:
        if hand <= 2:  # the round's deals (a level table deals on, from fresh seeds)
            assert c == commitment(child_seed(rnd["seed"], f"deal:{hand - 1}"))
    opened = outsider.get(f"/api/matches/{other_match.id}")
    assert opened.status_code == 200
    assert [h["seed"] for h in opened.json()["replay"]["hands"]][:2] == [
        child_seed(rnd["seed"], f"deal:{d}") for d in range(2)]
    assert json.dumps(rnd["tables"]).count('"result": null') == 0
