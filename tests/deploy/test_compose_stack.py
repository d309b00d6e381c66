"""The whole Compose stack, run with the commands docs/deploy.md gives (issue 40): the
doc's own shell lines are read from the doc and run as written (``sudo`` as root is the
command itself; the clone is a copy of this working tree; the operator's edit of
``deploy/.env`` appends the test's settings), on Debian 12's Compose v1, with the image built
on a plain Debian base and stand-ins for the PostgreSQL, Redis and Caddy images
(tests/deploy/standins: Debian's own packages) named through the compose file's image
settings.

Then, through Caddy only (https and wss, its certificate checked against its own CA): an
account is made (its cookie Secure: the workers believe Caddy's X-Forwarded-Proto), two
people play matches over wss while the doc's upgrade restarts one worker at a time on a
new image (each drains: its sockets close with 1012 and come back through Caddy), and
nothing anyone was told about is lost or doubled in the log; then the doc's backup, a
change, the doc's restore from a one-off container with the workers stopped, and the
backup's state is there again.

Slow: about 5 minutes with the images cached, 8 the first time."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import importlib.util
import json
import os
import random
import re
import ssl
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from dockerstack import BUILT, IMAGE, ROOT, checkout, free_port, run

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("docker")]

DOC = ROOT / "docs" / "deploy.md"
STANDINS = Path(__file__).parent / "standins"
#: how the doc names its Compose command (``dc``), run as it says
DC = "docker-compose -f deploy/compose.yaml --env-file deploy/.env"
SITE = "localhost"
#: what every operator's shell here starts with: stop at a failure; root's ``sudo`` is the
#: command itself; ``dc`` is the doc's Compose command
PRELUDE = f'set -e\nsudo() {{ "$@"; }}\ndc() {{ {DC} "$@"; }}\n'
#: the longest wait for one step of the stack (a start, a drain, moves to be played)
WAIT = 180

_spec = importlib.util.spec_from_file_location("rolling", ROOT / "bench" / "rolling.py")
assert _spec is not None and _spec.loader is not None
rolling: Any = importlib.util.module_from_spec(_spec)
sys.modules["rolling"] = rolling
_spec.loader.exec_module(rolling)


def doc_lines(heading: str) -> list[str]:
    """The shell lines of the ```sh blocks under a ``## heading`` of docs/deploy.md (up to
    the next heading of that level or higher), their trailing comments removed."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    level = heading.split(" ")[0]
    rest = text[start + len(heading) + 2:]
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", rest, re.M)]
    section = rest[:ends[0]] if ends else rest
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line:
                lines.append(line)
    return lines


@dataclass
class Operator:
    """A shell in the operator's folder, where ``sudo`` is the command itself (root),
    ``dc`` is the doc's Compose command and the clone is a copy of this working tree."""

    home: Path
    env: dict[str, str]

    def sh(self, line: str, timeout: float = 1800, check: bool = True) -> str:
        script = f'{PRELUDE}cd "$SCOPA_OPERATOR_DIR"\n{line}\n'
        done = run("bash", "-c", script, env=self.env, timeout=timeout, check=check)
        return done.stdout

    def healthy(self, *services: str) -> None:
        """Until ``dc ps`` says each service's container is healthy."""
        end = time.monotonic() + WAIT
        for service in services:
            while "(healthy)" not in self.sh(f"dc ps {service}", check=False):
                assert time.monotonic() < end, self.sh(f"dc logs --tail 40 {service}",
                                                       check=False)
                time.sleep(1)


@pytest.fixture(scope="module")
def standins(base_image: str) -> dict[str, str]:
    """The three services' stand-in images, built from Debian's packages."""
    images = {}
    for service in ("postgres", "redis", "caddy"):
        tag = f"local/standin-{service}"
        run("docker", "build", "-q", "--build-arg", f"BASE={base_image}", "--target",
            service, "-t", tag, str(STANDINS))
        images[service] = tag
    return images


@pytest.fixture(scope="module")
def stack(base_image: str, standins: dict[str, str],
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Operator, int]]:
    """The stack, up by the doc's first commands; (the operator's shell, Caddy's https
    port). Taken down with its volumes at the end."""
    home = tmp_path_factory.mktemp("operator")
    clone = checkout(tmp_path_factory.mktemp("clone"))
    https, http = free_port(), free_port()
    project = f"scopatest{os.getpid()}"
    settings = home / "settings.env"
    settings.write_text("\n".join([
        f"SCOPA_SITE={SITE}", "POSTGRES_PASSWORD=a-long-random-test-password",
        "SCOPA_OPERATOR_SECRET=an-operator-secret-of-the-test",
        f"SCOPA_BASE_IMAGE={base_image}", f"SCOPA_POSTGRES_IMAGE={standins['postgres']}",
        f"SCOPA_REDIS_IMAGE={standins['redis']}", f"SCOPA_CADDY_IMAGE={standins['caddy']}",
        f"SCOPA_HTTP_PORT={http}", f"SCOPA_HTTPS_PORT={https}", ""]))
    env = {**os.environ, "COMPOSE_PROJECT_NAME": project,
           "SCOPA_OPERATOR_DIR": str(home / "scopa")}
    # the doc's first block, as one script: install, clone, configure, build and start
    first = doc_lines("## With Docker Compose")
    assert first[-1] == f"sudo {DC} up -d --build", first
    script = "\n".join([
        # apt waits for another apt run to end (a test or a set-up beside this one): dpkg's
        # lock by itself, the package lists' lock (update) by running again once free
        "apt-get() { local n=0; until command apt-get -o DPkg::Lock::Timeout=600 \"$@\" "
        "2>/tmp/scopa-apt.err; do grep -q 'Could not get lock' /tmp/scopa-apt.err "
        "&& [ $((n += 1)) -lt 900 ] || { cat /tmp/scopa-apt.err >&2; return 1; }; sleep 1; "
        "done; }",
        f'git() {{ cp -a "{clone}" scopa; }}',  # the clone: this working tree's copy
        f'nano() {{ cat "{settings}" >> "$1"; }}',  # the operator's edit
        f'cd "{home}"', *first])
    operator = Operator(home / "scopa", env)
    # one stack on a machine at a time: its network's subnet and Caddy's address are fixed
    # (the workers trust that address), so a second run of the suite here waits its turn
    lock = open("/tmp/scopa-compose-stack.lock", "w")  # noqa: SIM115 - held to the end
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        run("bash", "-c", PRELUDE + script, env=env,
            timeout=1800)
        operator.healthy("scopa1", "scopa2")
        # the image as the doc's first build made it (before any upgrade), for test_image
        run("docker", "tag", "scopa:latest", IMAGE)
        BUILT.add(IMAGE)
        yield operator, https
    finally:
        if (home / "scopa").exists():
            operator.sh("dc logs --no-color > ../stack.log 2>&1 || true", check=False)
            operator.sh("dc down -v --remove-orphans", check=False, timeout=300)
        lock.close()


def caddy_ca(operator: Operator) -> ssl.SSLContext:
    """A TLS context that trusts Caddy's own CA only (it issued the site's certificate:
    ``localhost`` is served by Caddy's internal authority)."""
    end = time.monotonic() + WAIT
    while True:
        pem = operator.sh("dc exec -T caddy cat /data/caddy/pki/authorities/local/root.crt",
                          check=False)
        if "BEGIN CERTIFICATE" in pem:
            return ssl.create_default_context(cadata=pem)
        assert time.monotonic() < end, "Caddy never made its CA"
        time.sleep(1)


def front(operator: Operator, https: int) -> httpx.Client:
    """An HTTPS client to Caddy, as a browser of the site (its Origin), once the site
    answers through it."""
    client = httpx.Client(base_url=f"https://{SITE}:{https}", verify=caddy_ca(operator),
                          headers={"Origin": f"https://{SITE}"}, timeout=30)
    end = time.monotonic() + WAIT
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if client.get("/api/health").status_code == 200:
                return client
        assert time.monotonic() < end, "the site never answered through Caddy"
        time.sleep(1)


@dataclass
class Person:
    """A player at a table through Caddy: plays a random legal move on each turn (a few a
    second), says next and rematch, and after a close comes back (with a short random
    pause)."""

    url: str
    token: str
    tls: ssl.SSLContext
    rng: random.Random
    changed: asyncio.Event
    ledger: Any = field(default_factory=lambda: rolling.Ledger())
    seat: int | None = None
    closes: list[int | None] = field(default_factory=list)
    matches: int = 0
    moved: set[int] = field(default_factory=set)

    async def run(self) -> None:
        while True:
            try:
                async with websockets.connect(self.url, ssl=self.tls, open_timeout=10,
                                              origin=f"https://{SITE}",  # type: ignore[arg-type]
                                              max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    try:
                        async for raw in ws:
                            await self.on(ws, json.loads(raw))
                    finally:
                        self.closes.append(ws.close_code)
            except (OSError, TimeoutError, websockets.InvalidHandshake,
                    websockets.ConnectionClosed):
                pass
            await asyncio.sleep(self.rng.uniform(0.05, 0.5))

    async def on(self, ws: Any, f: dict[str, Any]) -> None:
        kind = f["type"]
        if kind == "welcome":
            self.seat = f["seat"]
            self.moved.clear()
        elif kind == "hand_end":
            await ws.send(json.dumps({"type": "next"}))
        elif kind == "match_end":
            self.matches += 1
            self.changed.set()
            await ws.send(json.dumps({"type": "rematch"}))
        elif kind == "state":
            before = len(self.ledger.acked)
            self.ledger.seen(f, self.seat)
            if len(self.ledger.acked) > before:
                self.changed.set()
            if f["your_turn"] and f["state_id"] not in self.moved:
                self.moved.add(f["state_id"])
                # a person's pace (the server's limit is 10 messages a second a socket)
                await asyncio.sleep(self.rng.uniform(0.1, 0.25))
                move = self.rng.choice(f["legal_moves"])
                self.ledger.sending(f, move)
                await ws.send(json.dumps({"type": "move", "state_id": f["state_id"],
                                          "move": move}))


async def played(people: list[Person], more: int) -> None:
    """Until the people have ``more`` acknowledged moves beyond what they have now."""
    goal = sum(len(p.ledger.acked) for p in people) + more
    deadline = time.monotonic() + WAIT
    changed = people[0].changed
    while sum(len(p.ledger.acked) for p in people) < goal:
        changed.clear()
        left = deadline - time.monotonic()
        assert left > 0, f"{sum(len(p.ledger.acked) for p in people)} of {goal} moves"
        await asyncio.wait_for(changed.wait(), left)


def logged_moves(operator: Operator) -> dict[Any, tuple[str, str | None]]:
    """Every move in the stack's log (``bench/rolling.py``'s query and reading), through
    psql in the database's container."""
    out = operator.sh("dc exec -T postgres psql -U scopa -d scopa -At -F '|' -c "
                      f"\"{rolling.MOVES_SQL}\"")
    return rolling.logged(line.split("|", 2) for line in out.splitlines())


def test_play_through_caddy_while_the_workers_are_upgraded(
        stack: tuple[Operator, int]) -> None:
    operator, https = stack
    # the image is the one built on the plain Debian base, with its compiled kernel
    assert "kernel" in operator.sh(
        "dc exec -T scopa1 python3 -c \"import scopa._kernel; print('kernel')\"")
    web = front(operator, https)
    signed = web.post("/api/account/signup", json={"name": "Ottavia",
                                                    "password": "correct horse 9"})
    assert signed.status_code == 201, signed.text
    cookie = signed.headers["set-cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie, cookie
    made = web.post("/api/tables", json={"name": "Anna", "target": 3, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    assert made.status_code == 201, made.text
    joined = web.post(f"/api/invites/{made.json()['invite']}/join", json={"name": "Bruno"})
    assert joined.status_code == 200, joined.text
    table = made.json()["table"]["id"]
    tokens = [made.json()["token"], joined.json()["token"]]
    upgrade = doc_lines("## Upgrading without stopping play")
    assert upgrade[0] == "dc build", upgrade

    async def main() -> list[Person]:
        changed = asyncio.Event()
        tls = caddy_ca(operator)
        people = [Person(f"wss://{SITE}:{https}/ws/{table}", token, tls, random.Random(i),
                         changed) for i, token in enumerate(tokens)]
        tasks = [asyncio.create_task(p.run()) for p in people]
        try:
            await played(people, 30)
            # a new version (a changed file in the clone), then the doc's upgrade, one
            # worker at a time, while the two play on
            with (operator.home / "README.md").open("a") as readme:
                readme.write("\nA new version.\n")
            for line in upgrade:
                await asyncio.to_thread(operator.sh, line)
                await played(people, 10)
            await played(people, 30)
            return people
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    people = asyncio.run(main())
    assert sum(p.matches for p in people) >= 2, "no match was played to its end"
    # both workers were replaced: every socket was closed by a drain at least once
    assert all(1012 in p.closes for p in people), [p.closes for p in people]
    lost, doubled = rolling.compare([p.ledger for p in people], logged_moves(operator))
    assert not lost and not doubled, (lost, doubled)
    images = operator.sh("docker ps --format '{{.Image}} {{.Names}}'")
    assert images.count("scopa:latest") == 2, images


def test_backup_and_restore_as_the_doc_says(stack: tuple[Operator, int]) -> None:
    operator, https = stack
    web = front(operator, https)
    for name in ("Before",):
        assert web.post("/api/account/signup", json={
            "name": name, "password": "correct horse 9"}).status_code == 201
    backup, stop, restore, start, copy = doc_lines("### Under Compose")
    assert backup.startswith("dc exec -T scopa1 scopa admin backup /backups/"), backup
    operator.sh(backup)
    made = operator.sh("dc exec -T scopa1 ls /backups").split()
    assert len(made) == 1, made
    # a change after the backup
    assert web.post("/api/account/signup", json={
        "name": "After", "password": "correct horse 9"}).status_code == 201
    operator.sh(stop)
    example = re.search(r"/backups/(\S+\.backup)", restore)
    assert example is not None, restore
    operator.sh(restore.replace(example.group(1), made[0]))
    operator.sh(start)
    operator.healthy("scopa1", "scopa2")
    web = front(operator, https)
    assert web.get("/api/players/Before").status_code == 200
    assert web.get("/api/players/After").status_code == 404
    # and out of the volume, into the operator's folder (the project's volume name)
    project = operator.env["COMPOSE_PROJECT_NAME"]
    operator.sh(copy.replace("deploy_backups", f"{project}_backups")
                .replace(example.group(1), made[0]))
    assert (operator.home / made[0]).stat().st_size > 1000
