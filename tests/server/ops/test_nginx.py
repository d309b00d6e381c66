"""nginx in front of two workers on PostgreSQL and Redis, with the proxy settings of
``deploy/nginx.conf``: a table made and joined through the balancer, its two people's
sockets on different workers, then one worker drained (SIGTERM) and restarted and the
other killed (SIGKILL) mid-hand and restarted. The people come back through the balancer
each time; nothing anyone was told about is lost or doubled; the workers see the player's
address through X-Forwarded-For (trusted proxies). nginx runs in the foreground,
as an unprivileged user, on a port of its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from reconnecting import Person, books, progress, rolling
from server_helpers import ROOT, ServerProcess, free_port
from services import BROKER_URL, dsn, fresh_database, redis_prefix

pytestmark = pytest.mark.slow

SAMPLE = ROOT / "deploy" / "nginx.conf"
MOVES_BETWEEN = 4
#: safety bound of nginx's start and of a worker's stop (the events waited for)
WAIT = 60


def shipped() -> tuple[str, str]:
    """The sample's WebSocket ``map`` block and its proxy directives (of ``location /``),
    so the test proxies exactly as the shipped configuration does."""
    text = SAMPLE.read_text(encoding="utf-8")
    found = re.search(r"^map \$http_upgrade .*?^\}", text, re.S | re.M)
    assert found is not None
    location = text[text.rindex("location / {"):]
    directives = [line.strip() for line in location[:location.index("}")].splitlines()
                  if line.strip().startswith("proxy_") and "proxy_pass" not in line]
    return found.group(0), "\n".join(directives)


def config(run: Path, port: int, workers: list[int]) -> str:
    """The test's nginx.conf: the balanced ``/`` (round robin, no stickiness) and ``/w1/``,
    ``/w2/`` to reach one worker on purpose, all with the sample's directives."""
    map_block, directives = shipped()
    servers = "\n".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;" for p in workers)
    pinned = "\n".join(f"upstream w{i + 1} {{ server 127.0.0.1:{p}; }}"
                       for i, p in enumerate(workers))
    locations = "\n".join(
        f"location /w{i + 1}/ {{ proxy_pass http://w{i + 1}/; {directives} }}"
        for i in range(len(workers)))
    temps = " ".join(f"{k}_temp_path {run}/{k};" for k in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""
worker_processes 1;
events {{ worker_connections 512; }}
http {{
access_log {run}/access.log;
{temps}
{map_block}
upstream scopa {{ {servers} }}
{pinned}
server {{
listen 127.0.0.1:{port};
{locations}
location / {{ proxy_pass http://scopa; {directives} }}
}}
}}
"""


@contextlib.contextmanager
def nginx(workers: list[int]) -> Iterator[int]:
    """nginx in the foreground before ``workers``, as user nobody when run as root (and
    as whoever runs the tests otherwise); yields its port."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(binary, os.X_OK):
        pytest.fail("nginx is needed: scripts/setup.sh --dev installs it (nginx-light)")
    run = Path(tempfile.mkdtemp(prefix="scopa-nginx-"))
    as_user: dict[str, str] = {}
    if os.geteuid() == 0:
        shutil.chown(run, "nobody")
        as_user = {"user": "nobody", "group": "nogroup"}
    port = free_port()
    conf = run / "nginx.conf"
    conf.write_text(config(run, port, workers))
    shutil.chown(conf, **({"user": "nobody"} if as_user else {"user": os.getuid()}))
    log = open(run / "stderr.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [binary, "-p", str(run), "-c", str(conf), "-e", str(run / "error.log"),
         "-g", f"daemon off; pid {run}/nginx.pid;"],
        stdout=log, stderr=log, **as_user)  # type: ignore[call-overload]
    try:
        deadline = time.monotonic() + WAIT
        while True:  # started when it accepts connections
            assert proc.poll() is None, (run / "stderr.log").read_text() + (
                (run / "error.log").read_text() if (run / "error.log").exists() else "")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)
        yield port
    finally:
        proc.send_signal(signal.SIGQUIT)  # graceful: its workers finish, then it exits
        try:
            proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        shutil.rmtree(run, ignore_errors=True)


def test_two_workers_behind_nginx_drained_and_killed_lose_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOPA_TEST_LOG", "info")  # the access log: the address each saw
    with fresh_database() as url:
        env = {"SCOPA_BROKER_URL": BROKER_URL, "SCOPA_BROKER_PREFIX": redis_prefix(),
               "SCOPA_LEASE_SECONDS": "1.5", "SCOPA_TRUSTED_PROXIES": "127.0.0.1"}
        servers = [ServerProcess(tmp_path / f"w{i}.sqlite", database_url=url, **env).start()
                   for i in range(2)]
        ports = [s.port for s in servers]
        people: list[Person] = []
        try:
            with nginx(ports) as port:
                front = f"http://127.0.0.1:{port}"
                # the table is made and joined through the balancer (each request may land
                # on either worker)
                made = httpx.post(f"{front}/api/tables", timeout=30, json={
                    "name": "Anna", "seats": [{"kind": "human"}, {"kind": "human"}],
                    "target": 11})
                assert made.status_code == 201, made.text
                joined = httpx.post(f"{front}/api/invites/{made.json()['invite']}/join",
                                    json={"name": "Bruno"}, timeout=30)
                assert joined.status_code == 200, joined.text
                tid = made.json()["table"]["id"]
                # the workers trust nginx's X-Forwarded-For (SCOPA_TRUSTED_PROXIES): they
                # see the address nginx was asked from, not nginx's own
                asked = httpx.get(f"{front}/api/meta?from=afar", timeout=30,
                                  headers={"X-Forwarded-For": "203.0.113.7"})
                assert asked.status_code == 200
                seen = [line for s in servers for line in s.log.read_text().splitlines()
                        if "/api/meta?from=afar" in line]
                assert seen and all("203.0.113.7" in line for line in seen), seen
                tokens = [made.json()["token"], joined.json()["token"]]
                balanced = f"ws://127.0.0.1:{port}"

                async def main() -> None:
                    changed = asyncio.Event()
                    # Anna's socket to worker 1, Bruno's to worker 2 (through nginx); after
                    # a close both come back through the balanced route
                    for i, token in enumerate(tokens):
                        people.append(Person(f"{balanced}/w{i + 1}", [balanced], tid, token,
                                             random.Random(i), changed))
                    tasks = [asyncio.create_task(p.run()) for p in people]
                    try:
                        await progress(people, changed, MOVES_BETWEEN)
                        # worker 1 drained (SIGTERM), a fresh one on its port
                        old = servers[0]
                        assert old.proc is not None
                        old.proc.send_signal(signal.SIGTERM)
                        code = await asyncio.to_thread(old.proc.wait, WAIT)
                        assert code in (0, -signal.SIGTERM), old.log.read_text()
                        servers[0] = await asyncio.to_thread(ServerProcess(
                            tmp_path / "w0-again.sqlite", port=ports[0], database_url=url,
                            **env).start)
                        await progress(people, changed, MOVES_BETWEEN)
                        # worker 2 killed mid-hand: the survivor takes its tables over
                        await asyncio.to_thread(servers[1].kill)
                        await progress(people, changed, MOVES_BETWEEN)
                        servers[1] = await asyncio.to_thread(ServerProcess(
                            tmp_path / "w1-again.sqlite", port=ports[1], database_url=url,
                            **env).start)
                        await progress(people, changed, MOVES_BETWEEN)
                    finally:
                        for t in tasks:
                            t.cancel()
                        await asyncio.gather(*tasks, return_exceptions=True)

                asyncio.run(main())
        finally:
            for s in servers:
                s.stop()
        logged = asyncio.run(rolling.logged_moves(dsn(url)))
    lost, doubled = books(people, logged)
    assert lost == [] and doubled == []
    assert sum(len(p.ledger.acked) for p in people) >= 4 * MOVES_BETWEEN
    anna, bruno = people
    assert anna.served[0].endswith("/w1") and bruno.served[0].endswith("/w2")
    assert len(anna.served) > 1 and len(bruno.served) > 1  # both came back, through nginx
    # the drained worker's sockets were closed as a restart
    assert 1012 in {c for p in people for c in p.close_codes}
