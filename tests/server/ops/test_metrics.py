"""``GET /metrics``: a real server scraped while a match is played (the counters move), who
may read it (the ``metrics`` setting), and that it names no table or player."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import Client, ServerProcess, play_human

from scopa.server.common.settings import Settings
from scopa.server.common.timing import PHASES
from scopa.server.ops.app import create_app

SECRET = "metrics-test-operator-secret"
AUTH = {"Authorization": f"Bearer {SECRET}"}


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition: (name, sorted labels) -> value."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in text_string_to_metric_families(text) for s in fam.samples}


def scrape(server: ServerProcess) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = httpx.get(server.base + "/metrics", headers=AUTH, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return samples(r.text)


def wait_for(server: ServerProcess, name: str, labels: dict[str, str], least: float,
             deadline: float = 60) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Scrape until the sample reaches ``least`` (the event), within a safety deadline."""
    key = (name, tuple(sorted(labels.items())))
    end = time.monotonic() + deadline
    while True:
        got = scrape(server)
        if got.get(key, 0) >= least:
            return got
        assert time.monotonic() < end, f"{key} never reached {least}: {got.get(key)}"
        time.sleep(0.1)


def test_a_match_moves_the_counters(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "scopa.sqlite", SCOPA_OPERATOR_SECRET=SECRET).start()
    try:
        before = scrape(server)
        assert before.get(("scopa_events_total", (("name", "moves.applied"),)), 0) == 0
        created = server.create(variant="scopa", players=2, target=1,
                                seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
        table_id = created["table"]["id"]

        async def play() -> None:
            client = await Client(server, table_id, created["token"]).connect()
            # the socket is counted while it is open
            await asyncio.to_thread(wait_for, server, "scopa_open_sockets", {}, 1)
            await play_human(client, random.Random(3))
            await client.close()

        asyncio.run(play())
        got = wait_for(server, "scopa_events_total", {"name": "moves.applied"}, 2)
        assert got[("scopa_phase_seconds_count", (("phase", "move.handled"),))] >= 1
        assert got[("scopa_phase_seconds_count", (("phase", "bot.think"),))] >= 1
        assert got[("scopa_events_total", (("name", "db.commits"),))] >= 2
        assert got[("scopa_tables", (("state", "finished"),))] == 1
        assert ("scopa_loop_lag_seconds", (("quantile", "0.99"),)) in got
        assert ("scopa_bot_queue_depth", ()) in got
        text = httpx.get(server.base + "/metrics", headers=AUTH, timeout=10).text
        assert table_id not in text and "Anna" not in text  # nothing names a table or player
    finally:
        server.stop()


def get(settings: Settings, headers: dict[str, str] | None = None) -> httpx.Response:
    """The route alone (no lifespan: nothing started, only the access rule runs)."""
    return TestClient(create_app(settings)).get("/metrics", headers=headers or {})


def test_operator_by_default() -> None:
    assert get(Settings()).status_code == 403  # no operator secret: refused
    on = Settings(operator_secret=SECRET)
    assert get(on).status_code == 401
    assert get(on, {"Authorization": "Bearer not-the-secret-at-all"}).status_code == 401
    assert get(on, AUTH).status_code == 200


def test_off_and_open() -> None:
    assert get(Settings(metrics="off", operator_secret=SECRET), AUTH).status_code == 404
    assert get(Settings(metrics="open")).status_code == 200


def test_bad_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="metrics"):
        Settings(metrics="public")  # type: ignore[arg-type]


def test_each_app_has_its_own_registry() -> None:
    """Two apps in one process: a phase recorded while one listens is not in the other."""
    one, two = create_app(Settings(metrics="open")), create_app(Settings(metrics="open"))
    one.state.metrics.start(one)
    try:
        PHASES.record("test.phase", 0.01)
    finally:
        one.state.metrics.stop()
    PHASES.samples.pop("test.phase", None)
    seen = samples(TestClient(one).get("/metrics").text)
    assert seen[("scopa_phase_seconds_count", (("phase", "test.phase"),))] == 1
    assert ("scopa_phase_seconds_count", (("phase", "test.phase"),)) not in samples(
        TestClient(two).get("/metrics").text)


def test_the_dashboard_shows_the_documented_queries() -> None:
    """docs/grafana-dashboard.json and the queries table of docs/server.md agree."""
    root = Path(__file__).resolve().parents[3] / "docs"
    doc = (root / "server.md").read_text().replace("\\|", "|")
    board = json.loads((root / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in board["panels"] for t in p["targets"]]
    assert exprs and all(f"`{e}`" in doc for e in exprs), [e for e in exprs if e not in doc]


def test_a_sample_costs_the_listeners_a_few_calls() -> None:
    """The listeners run several times on every move (issue 38): a sample and a count cost
    them a handful of Python calls (prometheus_client's labels().observe() took some 15
    each, a lock per bucket), and the page still shows every sample in its bucket."""
    import sys

    from scopa.server.ops.metrics import Metrics

    metrics = Metrics()
    metrics.start(None)
    calls = 0

    def profile(frame: object, what: str, arg: object) -> None:
        nonlocal calls
        if what in ("call", "c_call"):
            calls += 1

    try:
        PHASES.record("test.cost", 0.003)  # the first sample of a phase makes its buckets
        PHASES.count("test.cost")
        sys.setprofile(profile)
        for _ in range(10):
            PHASES.record("test.cost", 0.003)
            PHASES.count("test.cost")
        sys.setprofile(None)
    finally:
        sys.setprofile(None)
        metrics.stop()
        PHASES.samples.pop("test.cost", None)
        PHASES.counts.pop("test.cost", None)
    # PHASES' own work included (a deque append, a Counter update): 15 calls for both
    assert calls <= 10 * 15, calls
    seen: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in metrics.registry.collect():
        for s in family.samples:
            seen[(s.name, tuple(sorted(s.labels.items())))] = s.value
    assert seen[("scopa_phase_seconds_count", (("phase", "test.cost"),))] == 11
    assert seen[("scopa_phase_seconds_bucket", (("le", "0.0025"), ("phase", "test.cost")))] == 0
    assert seen[("scopa_phase_seconds_bucket", (("le", "0.005"), ("phase", "test.cost")))] == 11
    assert seen[("scopa_phase_seconds_bucket", (("le", "+Inf"), ("phase", "test.cost")))] == 11
    assert seen[("scopa_events_total", (("name", "test.cost"),))] == 11
