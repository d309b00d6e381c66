"""Request ids (the client's if sane, else a new one; in the response and on log records)
and JSON log lines, on the route alone and in a real server's log."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from server_helpers import ServerProcess

from scopa.server.common.settings import Settings
from scopa.server.ops.app import create_app
from scopa.server.ops.logs import REQUEST_ID, JsonFormatter, RequestIdFilter, request_id
from scopa.server.ops.preflight import StartupError, settings_from


def test_a_sane_id_is_kept_and_echoed() -> None:
    client = TestClient(create_app(Settings()))
    r = client.get("/", headers={"X-Request-ID": "edge-7f3a.2:9"})
    assert r.headers["x-request-id"] == "edge-7f3a.2:9"


@pytest.mark.parametrize("given", [None, "", "a" * 65, "no spaces", "quote\"d", "é"])
def test_a_missing_or_odd_id_is_replaced(given: str | None) -> None:
    client = TestClient(create_app(Settings()))
    headers = {} if given is None else {"X-Request-ID": given.encode()}
    got = client.get("/", headers=headers).headers["x-request-id"]
    assert got != given and len(got) == 32 and int(got, 16) >= 0
    assert request_id(given) != request_id(given)  # a new one each time


def test_json_lines_carry_the_request_id() -> None:
    record = logging.LogRecord("scopa.server.x", logging.WARNING, __file__, 1,
                               "table %s is %s", ("t1", "busy"), None)
    token = REQUEST_ID.set("req-42")
    try:
        assert RequestIdFilter().filter(record)
    finally:
        REQUEST_ID.reset(token)
    line = json.loads(JsonFormatter().format(record))
    assert line["request_id"] == "req-42" and line["message"] == "table t1 is busy"
    assert line["level"] == "warning" and line["logger"] == "scopa.server.x"
    assert line["time"].endswith("Z")


def test_a_bad_log_format_is_refused() -> None:
    with pytest.raises(StartupError, match="log_format"):
        settings_from({"log_format": "xml"})


def test_a_real_server_logs_json_with_request_ids(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOPA_TEST_LOG", "info")  # access lines are logged at info
    server = ServerProcess(tmp_path / "scopa.sqlite", SCOPA_LOG_FORMAT="json").start()
    try:
        r = httpx.get(server.base + "/api/meta", headers={"X-Request-ID": "probe-1"}, timeout=10)
        assert r.headers["x-request-id"] == "probe-1"
        deadline = time.monotonic() + 30
        while True:  # the event: the access line written
            lines = [json.loads(x) for x in server.log.read_text().splitlines()
                     if x.startswith("{")]
            if any(x["request_id"] == "probe-1" for x in lines):
                break
            assert time.monotonic() < deadline, server.log.read_text()
            time.sleep(0.1)
        hit = next(x for x in lines if x["request_id"] == "probe-1")
        assert hit["logger"] == "uvicorn.access" and "/api/meta" in hit["message"]
        # every log line is JSON (the start-up banner is printed, not logged)
        others = [x for x in server.log.read_text().splitlines()
                  if x.strip() and not x.startswith("{") and not x.startswith("Scopa server")]
        assert not others, others
    finally:
        server.stop()
