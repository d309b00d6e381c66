"""Several workers on one PostgreSQL database and one Redis (the scaled deployment): real
server processes, real sockets. Any worker serves any table; a move is written once, under
the log's unique (match, seq), and reaches every worker's sockets in order; the lease
holder's death or a Redis restart loses nothing anyone was told about."""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import (  # noqa: F401 - pair: the module's fixture
    Client,
    ServerProcess,
    logged,
    pair,
    play_human,
    workers,
)
from services import BROKER_URL, fresh_database

pytestmark = pytest.mark.slow

#: the private Redis of the restart test listens in this range (this job's ports)
REDIS_PORTS = range(18150, 18200)








def moves_seen(client: Client, match_number: int = 1) -> list[tuple[int, str | None]]:
    """(state id, card) of every move a socket was told about, in the order it was told."""
    return [(f["state_id"], f["event"].get("card")) for f in client.frames
            if f["type"] == "state" and f.get("match_number") == match_number
            and f["event"] and f["event"].get("kind") == "move"]


def two_humans(server: ServerProcess, other: ServerProcess) -> tuple[str, str, str]:
    created = server.create(seats=[{"kind": "human"}, {"kind": "human"}], target=1)
    joined = other.join(created["invite"])  # the invite works at the other worker
    return created["table"]["id"], created["token"], joined["token"]


def test_a_player_on_each_worker_sees_every_move_in_order(pair: list[ServerProcess]) -> None:
    w1, w2 = pair
    tid, anna_token, bruno_token = two_humans(w1, w2)

    async def main() -> tuple[Client, Client]:
        anna = await Client(w1, tid, anna_token).connect()
        bruno = await Client(w2, tid, bruno_token).connect()
        for c in (anna, bruno):  # both seated before anyone moves
            await c.expect("welcome")
        await asyncio.gather(play_human(anna, random.Random(1)),
                             play_human(bruno, random.Random(2)))
        await anna.close()
        await bruno.close()
        return anna, bruno

    anna, bruno = asyncio.run(main())
    seen_a, seen_b = moves_seen(anna), moves_seen(bruno)
    ids = [sid for sid, _ in seen_a]
    assert ids == sorted(set(ids)) and len(ids) > 20  # in order, none twice
    assert seen_a == seen_b  # both workers told their player every move, the same
    match_id = anna.latest_state()["match_id"]
    log = logged(pair[0].database_url, match_id)
    moves = [(1_000_000 + e["seq"] + 1, e["data"]["card"]) for e in log if e["kind"] == "move"]
    assert moves == seen_a  # exactly the moves in the log, nothing more


async def chat_opened(client: Client) -> Client:
    await client.connect()
    await client.send({"type": "chat_open"})
    await client.expect("chat_history")
    return client


def chat_ids(client: Client) -> list[int]:
    """Ids of the chat messages a socket was sent, in the order it was sent them."""
    return [f["message"]["id"] for f in client.frames if f["type"] == "chat"]


def chat_authors(client: Client) -> set[str]:
    return {f["message"]["author"] for f in client.frames if f["type"] == "chat"}


async def heard(client: Client, *texts: str) -> None:
    """Wait until the socket has been sent chat messages with every one of ``texts``."""
    async def wait() -> None:
        while True:
            got = {f["message"].get("text") for f in client.frames if f["type"] == "chat"}
            if set(texts) <= got:
                return
            await client.queue.get()
    await asyncio.wait_for(wait(), 30)


def test_chat_reaches_every_worker_once_in_one_order(pair: list[ServerProcess]) -> None:
    """A player on each worker chats, both at once: each reads every message once, both
    in the same order (the broker's); the stored history has them all; the spectators'
    channel, also spread over both workers, stays apart; a mute stays with its reader."""
    w1, w2 = pair
    created = w1.create(seats=[{"kind": "human"}, {"kind": "human"}], target=1)
    tid, invite, anna_token = created["table"]["id"], created["invite"], created["token"]
    bruno_token = w2.join(invite)["token"]

    async def main() -> None:
        anna = await chat_opened(Client(w1, tid, anna_token))
        bruno = await chat_opened(Client(w2, tid, bruno_token))
        # a spectator at each worker (a private table is watched with its invite)
        watchers = [await chat_opened(Client(w, tid, invite=invite)) for w in (w1, w2)]
        said = {"a": ["a1", "a2", "a3"], "b": ["b1", "b2", "b3"]}

        async def talk(c: Client, texts: list[str]) -> None:
            for t in texts:
                await c.send({"type": "chat", "text": t})

        await asyncio.gather(talk(anna, said["a"]), talk(bruno, said["b"]))
        for c in (anna, bruno):
            await heard(c, *said["a"], *said["b"])
        assert len(chat_ids(anna)) == 6 and len(set(chat_ids(anna))) == 6  # once each
        assert chat_ids(anna) == chat_ids(bruno)  # one order at both workers
        # each worker's own speaker's messages in the order said
        texts = [f["message"]["text"] for f in anna.frames if f["type"] == "chat"]
        assert [t for t in texts if t[0] == "a"] == said["a"]
        assert [t for t in texts if t[0] == "b"] == said["b"]

        # spectators at both workers: distinct ids, their own channel
        await watchers[0].send({"type": "chat", "text": "w-one"})
        await watchers[1].send({"type": "chat", "text": "w-two"})
        for c in watchers:
            await heard(c, "w-one", "w-two")
        ids = {f["you"] for c in watchers for f in c.frames if f["type"] == "chat_history"}
        assert len(ids) == 2 and all(i.startswith("w") for i in ids)
        assert chat_authors(watchers[0]) == chat_authors(watchers[1]) == ids

        # a mute at one worker is that reader's: Bruno mutes Anna, then speaks himself;
        # his echo comes after anything of Anna's said before it (one order), so she is
        # not heard; Anna still hears him
        await bruno.send({"type": "mute", "author": "s0", "muted": True})
        await bruno.expect("muted")
        await anna.send({"type": "chat", "text": "muted-line"})
        await heard(anna, "muted-line")
        await bruno.send({"type": "chat", "text": "after-mute"})
        await heard(bruno, "after-mute")
        await heard(anna, "after-mute")
        assert "muted-line" not in [f["message"].get("text") for f in bruno.frames
                                    if f["type"] == "chat"]
        # and the spectators' last word reaches both spectators after everything the
        # players said: none of it reached them, nor theirs the players
        await watchers[1].send({"type": "chat", "text": "w-end"})
        await heard(watchers[0], "w-end")
        await heard(watchers[1], "w-end")
        for c in watchers:
            assert chat_authors(c) <= ids
        for c in (anna, bruno):
            assert chat_authors(c) <= {"s0", "s1"}
        players = chat_ids(anna)

        # the history is stored: a socket at the other worker reads the same messages, in
        # id order (the page shows them in that order too; two said at once at two
        # workers may be stored in the other order than the broker carried them)
        again = await chat_opened(Client(w2, tid, anna_token))
        history = [f for f in again.frames if f["type"] == "chat_history"][-1]
        assert [m["id"] for m in history["messages"]] == sorted(players)
        for c in (anna, bruno, again, *watchers):
            await c.close()

    asyncio.run(main())


def test_the_same_seat_moving_at_two_workers_at_once_is_applied_once(
        pair: list[ServerProcess]) -> None:
    w1, w2 = pair
    created = w1.create(seats=[{"kind": "human"}, {"kind": "human"}], target=1)
    tid, anna_token = created["table"]["id"], created["token"]
    bruno_token = w1.join(created["invite"])["token"]
    rounds = 6

    async def main() -> list[list[dict[str, Any]]]:
        here = await Client(w1, tid, anna_token).connect()
        there = await Client(w2, tid, anna_token).connect()  # Anna's second tab, elsewhere
        bruno = await Client(w1, tid, bruno_token).connect()
        rng = random.Random(5)
        outcomes = []
        for _ in range(rounds):
            # both of Anna's sockets see her turn at the same state
            turn = [await c.expect("state", lambda f: f["your_turn"] and f["view"]["to_move"] == 0)
                    for c in (here, there)]
            assert turn[0]["state_id"] == turn[1]["state_id"]
            sid, legal = turn[0]["state_id"], turn[0]["legal_moves"]
            picks = [legal[0], legal[-1]]
            known = len(here.frames), len(there.frames)
            await asyncio.gather(*(c.send({"type": "move", "state_id": sid, "move": m})
                                   for c, m in zip((here, there), picks, strict=True)))
            # a socket's frames are handled in order: its pong comes after its move's answer
            for c in (here, there):
                await c.send({"type": "ping", "t": sid})
            for c in (here, there):
                await c.expect("pong", lambda f, s=sid: f["t"] == s)
            # and both sockets were already told the one move applied
            assert here.latest_state()["state_id"] == there.latest_state()["state_id"] == sid + 1
            await bruno.expect("state", lambda f, s=sid: f["state_id"] == s + 1)
            errors = [f for c, k in zip((here, there), known, strict=True)
                      for f in c.frames[k:] if f["type"] == "error" and f.get("ref") == "move"]
            outcomes.append(errors)
            # Bruno answers (a turn of his), so Anna is to move again
            state = bruno.latest_state()
            if state["your_turn"]:
                await bruno.send({"type": "move", "state_id": state["state_id"],
                                  "move": rng.choice(state["legal_moves"])})
            else:
                await bruno.expect("state", lambda f: f["your_turn"])
                s2 = bruno.latest_state()
                await bruno.send({"type": "move", "state_id": s2["state_id"],
                                  "move": rng.choice(s2["legal_moves"])})
        match_id = here.latest_state()["match_id"]
        for c in (here, there, bruno):
            await c.close()
        outcomes.append([{"match_id": match_id}])
        return outcomes

    outcomes = asyncio.run(main())
    match_id = outcomes.pop()[0]["match_id"]
    for errors in outcomes:  # each time, exactly one of the two was refused
        assert len(errors) == 1, errors
        assert errors[0]["code"] in ("stale_state", "not_your_turn")
    log = logged(w1.database_url, match_id)
    seqs = [e["seq"] for e in log]
    assert seqs == list(range(len(log)))
    anna_moves = [e for e in log if e["kind"] == "move" and e["data"]["seat"] == 0]
    assert len(anna_moves) == rounds  # one applied per round, never two


def test_kill_the_lease_holder_mid_hand_and_the_survivor_finishes(tmp_path: Path) -> None:
    with fresh_database() as url:
        w1, w2 = workers(tmp_path, url, BROKER_URL, SCOPA_METRICS="open")
        prefix = w1.env["SCOPA_BROKER_PREFIX"]
        lease = redis.Redis.from_url(BROKER_URL, decode_responses=True)
        try:
            created = w1.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
                                target=11)
            tid, token = created["table"]["id"], created["token"]
            first_holder = lease.get(f"{prefix}lease:{tid}")
            assert first_holder is not None  # the worker that made the table drives it
            rng = random.Random(3)

            async def before() -> Client:
                c = await Client(w1, tid, token).connect()
                done = 0
                while done < 8:  # a few of Anna's moves, each answered by the bot
                    f = await c.expect("state", lambda f: f["your_turn"])
                    if not c.queue.empty():
                        continue
                    await c.send({"type": "move", "state_id": f["state_id"],
                                  "move": rng.choice(f["legal_moves"])})
                    await c.expect("state", lambda f, s=f["state_id"]: f["state_id"] > s)
                    done += 1
                # the bot's answer to the last move: the hand goes on
                await c.expect("state", lambda f: f["your_turn"])
                return c

            old = asyncio.run(before())
            w1.kill()  # kill -9: no lease released, no goodbye

            async def after() -> Client:
                c = await Client(w2, tid, token).connect()
                await play_human(c, rng, timeout=180)
                await c.close()
                return c

            new = asyncio.run(after())
            assert lease.get(f"{prefix}lease:{tid}") not in (None, first_holder)
            match_id = new.latest_state()["match_id"]
            log = logged(url, match_id)
            assert [e["seq"] for e in log] == list(range(len(log)))
            written = {1_000_000 + e["seq"] + 1: e["data"]["card"]
                       for e in log if e["kind"] == "move"}
            told = moves_seen(old) + moves_seen(new)
            # every move anyone was told about is in the log, once, at its place
            assert told and all(written.get(sid) == card for sid, card in told)
            killed_at = max(sid for sid, _ in moves_seen(old)) - 1_000_000
            bot_after = [e for e in log if e["kind"] == "move" and e["data"]["seat"] == 1
                         and e["seq"] >= killed_at]
            assert bot_after  # the survivor drove the bot
            end = [f for f in new.frames if f["type"] == "match_end"]
            assert end and end[0]["winner"] is not None
            # the hand-over and the survivor's moves are in its /metrics
            seen = {(x.name, x.labels.get("name")): x.value for fam in
                    text_string_to_metric_families(w2.get("/metrics").text) for x in fam.samples}
            assert seen[("scopa_events_total", "lease.gained")] >= 1
            assert seen[("scopa_events_total", "moves.applied")] >= 1
        finally:
            lease.close()
            w1.kill()
            w2.stop()


def free_redis_port() -> int:
    for port in REDIS_PORTS:
        with socket.socket() as s, contextlib.suppress(OSError):
            s.bind(("127.0.0.1", port))
            return port
    raise RuntimeError("no free port for a private Redis")


class PrivateRedis:
    """A redis-server of this test's own (no persistence: a restart forgets everything)."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_redis_port()
        self.dir = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        try:
            for _ in range(1000):  # it answers once it is up (each try waits for it)
                with contextlib.suppress(redis.ConnectionError):
                    if client.ping():
                        return self
                if self.proc.poll() is not None:
                    raise RuntimeError("redis-server did not start")
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(0.02)
        finally:
            client.close()
        raise RuntimeError("redis-server did not answer")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def play_until(client: Client, rng: random.Random, events: int) -> dict[str, Any]:
    """Play like a person until the match has ``events`` events; return that state."""
    acted: set[int] = set()
    while True:
        f = await asyncio.wait_for(client.queue.get(), 60)
        if f["type"] == "state" and f["state_id"] % 1_000_000 >= events:
            return f
        if f["type"] != "state" or not f["your_turn"] or f["state_id"] in acted:
            continue
        acted.add(f["state_id"])
        await client.send({"type": "move", "state_id": f["state_id"],
                           "move": rng.choice(f["legal_moves"])})


def put_back(client: Client, frame: dict[str, Any]) -> None:
    """Make ``frame`` the next one ``client`` reads again (before any newer ones)."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    queue.put_nowait(frame)
    while not client.queue.empty():
        queue.put_nowait(client.queue.get_nowait())
    client.queue = queue


def test_redis_restarted_mid_match_loses_nothing(tmp_path: Path) -> None:
    private = PrivateRedis(tmp_path).start()
    try:
        with fresh_database() as url:
            w1, w2 = workers(tmp_path, url, private.url)
            try:
                tid, anna_token, bruno_token = two_humans(w1, w2)

                async def main() -> tuple[Client, Client]:
                    anna = await Client(w1, tid, anna_token).connect()
                    bruno = await Client(w2, tid, bruno_token).connect()
                    rngs = random.Random(11), random.Random(12)
                    at = await asyncio.gather(play_until(anna, rngs[0], 9),
                                              play_until(bruno, rngs[1], 9))
                    # mid-hand, nobody moving: Redis goes away and comes back empty
                    private.stop()
                    private.start()
                    for c, f in zip((anna, bruno), at, strict=True):
                        put_back(c, f)  # play on from that state, as if never stopped
                    await asyncio.gather(play_human(anna, rngs[0], timeout=180),
                                         play_human(bruno, rngs[1], timeout=180))
                    await anna.close()
                    await bruno.close()
                    return anna, bruno

                anna, bruno = asyncio.run(main())
            finally:
                w1.stop()
                w2.stop()
            seen_a, seen_b = moves_seen(anna), moves_seen(bruno)
            match_id = anna.latest_state()["match_id"]
            log = logged(url, match_id)
            written = {1_000_000 + e["seq"] + 1: e["data"]["card"]
                       for e in log if e["kind"] == "move"}
            for seen in (seen_a, seen_b):
                ids = [sid for sid, _ in seen]
                assert ids == sorted(set(ids))
                assert all(written.get(sid) == card for sid, card in seen)
            # both reached the same end, the log's
            ends = [[f for f in c.frames if f["type"] == "match_end"][-1] for c in (anna, bruno)]
            assert ends[0] == ends[1] and ends[0]["state_id"] == 1_000_000 + len(log)
    finally:
        private.stop()
