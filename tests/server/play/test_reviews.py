"""Game reviews through a real server (issue 42): a finished match's review is asked, judged
by the analysis workers off the request path (the answer comes at once, the progress and
then the review by asking again), kept with the match, and bounded per player and per
worker; every play of every seat is judged, in order, from that seat's own view (the
engine's side of that is tests/bots/test_review.py)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerProcess, play_human

from scopa.bots.review import mark_of

#: long enough for a slow machine; the review of a one-hand match takes about a second
DEADLINE = 180


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("reviews") / "scopa.sqlite",
                         database_url=database_url, SCOPA_REVIEW_SIMULATIONS="30",
                         SCOPA_TRUSTED_PROXIES="127.0.0.1").start()
    yield proc
    proc.stop()


async def _play(server: ServerProcess) -> str:
    created = server.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
                            target=1)
    client = await Client(server, created["table"]["id"], created["token"]).connect()
    end = await play_human(client, random.Random(3))
    await client.close()
    match_id: str = end["match_id"]
    return match_id


def review_when(server: ServerProcess, match_id: str, status: str) -> dict[str, Any]:
    """The review's answer once it reaches ``status`` (asked again until it does)."""
    end = time.monotonic() + DEADLINE
    while True:
        r = server.get(f"/api/matches/{match_id}/review")
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        if answer["status"] == status or time.monotonic() > end:
            assert answer["status"] == status, answer
            return answer
        assert answer["status"] in ("queued", "running"), answer
        time.sleep(0.2)


def test_a_finished_match_is_reviewed_play_by_play(server: ServerProcess) -> None:
    match_id = asyncio.run(_play(server))
    before = server.get(f"/api/matches/{match_id}/review").json()
    assert before["status"] == "none" and before["review"] is None
    asked = server.post(f"/api/matches/{match_id}/review", {})
    assert asked.status_code == 202, asked.text
    assert asked.json()["status"] in ("queued", "running", "done")
    done = review_when(server, match_id, "done")
    review = done["review"]
    assert done["done"] == done["total"] == len(review["plays"]) > 0
    assert review["simulations"] == 30
    # every play of both seats, in the order played (the replay's moves)
    replay = server.get(f"/api/matches/{match_id}").json()["replay"]
    moves = [(h["number"], m["seat"]) for h in replay["hands"] for m in h["moves"]
             if m.get("card") is not None]
    assert [(p["hand"], p["seat"]) for p in review["plays"]] == moves
    assert {p["seat"] for p in review["plays"]} == {0, 1}
    for p in review["plays"]:
        assert p["loss"] >= 0
        assert p["mark"] == mark_of(p["loss"])
        # the hindsight, judged by the worker on the true position, travels with the play
        assert p["hindsight_loss"] >= 0 and p["hindsight_best"]
        assert isinstance(p["hindsight_exact"], bool)
        if p["choices"] == 1:  # forced: not searched, nothing lost
            assert p["played_value"] is None and p["loss"] == 0 and p["played"] == p["best"]
        else:
            assert p["best_value"] >= p["played_value"] - 1e-9
    assert [s["seat"] for s in review["seats"]] == [0, 1]
    # asked again: the review kept with the match, not made twice
    again = server.post(f"/api/matches/{match_id}/review", {})
    assert again.status_code == 202 and again.json()["review"] == review


def test_a_review_of_no_finished_match_is_refused(server: ServerProcess) -> None:
    for path in ("/api/matches/nosuchmatch/review", "/api/matches/" + "x" * 40 + "/review"):
        assert server.post(path, {}).status_code == 404
        assert server.get(path).status_code == 404


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Reviews that take long (a big budget), one per player and two waiting a worker."""
    proc = ServerProcess(tmp_path_factory.mktemp("slow") / "scopa.sqlite",
                         SCOPA_REVIEW_SIMULATIONS="50000", SCOPA_REVIEWS_PER_PLAYER="1",
                         SCOPA_REVIEWS_QUEUE="2", SCOPA_TRUSTED_PROXIES="127.0.0.1").start()
    yield proc
    proc.stop()


def finished_matches(server: ServerProcess, count: int) -> list[str]:
    """The ids of ``count`` finished matches of bots alone (public tables)."""
    for _ in range(count):
        server.create(seats=[{"kind": "bot", "level": "random"}] * 2, target=1,
                      public=True)
    end = time.monotonic() + DEADLINE
    while True:
        found = [m["id"] for m in server.get("/api/matches").json()["matches"]]
        if len(found) >= count or time.monotonic() > end:
            assert len(found) >= count, found
            return found[:count]
        time.sleep(0.2)


def ask(server: ServerProcess, match_id: str, address: str) -> httpx.Response:
    return httpx.post(f"{server.base}/api/matches/{match_id}/review", json={},
                      headers={"X-Forwarded-For": address}, timeout=10)


def test_reviews_are_bounded_per_player_and_per_worker(slow_server: ServerProcess) -> None:
    matches = finished_matches(slow_server, 3)
    # one player asks for all three at once: one is queued, the others refused (the count
    # and the write are one transaction: requests at once cannot pass the bound)
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda m: ask(slow_server, m, "10.9.0.1"), matches))
    assert sorted(a.status_code for a in answers) == [202, 429, 429], [a.text for a in answers]
    first = matches[[a.status_code for a in answers].index(202)]
    second, third = (m for m in matches if m != first)
    refused = next(a for a in answers if a.status_code == 429)
    assert "on the way" in refused.json()["detail"]
    for m in (second, third):  # nothing was queued for the refused ones
        assert slow_server.get(f"/api/matches/{m}/review").json()["status"] == "none"
    # another player: queued behind the first
    queued = ask(slow_server, second, "10.9.0.2")
    assert queued.status_code == 202
    assert queued.json()["status"] == "queued" and queued.json()["ahead"] == 1
    # a third player finds the worker's queue full
    busy = ask(slow_server, third, "10.9.0.3")
    assert busy.status_code == 503, busy.text
    assert slow_server.get(f"/api/matches/{third}/review").json()["status"] == "none"
    # the first review is judged meanwhile, and asking it again changes nothing
    assert review_when(slow_server, first, "running")["total"] > 0
    assert ask(slow_server, first, "10.9.0.4").json()["status"] == "running"


def test_the_review_routes_are_in_the_openapi_document(server: ServerProcess) -> None:
    doc = server.get("/openapi.json").json()
    path = doc["paths"]["/api/matches/{match_id}/review"]
    assert set(path) == {"get", "post"}
    assert "202" in path["post"]["responses"] and "429" in path["post"]["responses"]


def test_a_stopped_server_leaves_its_reviews_to_ask_again(tmp_path: Path) -> None:
    """SIGTERM mid-review: the review reads as failed at once (not after the stale time),
    and asked again at the next server it is made."""
    db = tmp_path / "scopa.sqlite"
    first = ServerProcess(db, SCOPA_REVIEW_SIMULATIONS="50000",
                          SCOPA_TRUSTED_PROXIES="127.0.0.1").start()
    try:
        (match_id,) = finished_matches(first, 1)
        assert ask(first, match_id, "10.9.1.1").status_code == 202
        review_when(first, match_id, "running")
    finally:
        first.stop()
    again = ServerProcess(db, SCOPA_REVIEW_SIMULATIONS="30",
                          SCOPA_TRUSTED_PROXIES="127.0.0.1").start()
    try:
        stopped = again.get(f"/api/matches/{match_id}/review").json()
        assert stopped["status"] == "failed" and "stopped" in stopped["error"], stopped
        assert ask(again, match_id, "10.9.1.1").status_code == 202
        assert review_when(again, match_id, "done")["review"]["simulations"] == 30
    finally:
        again.stop()
