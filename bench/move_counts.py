"""The move path counted (not timed): what one move costs the server, in numbers that do not
depend on the machine or its load, so a regression shows as a count that grew.

In one process it starts the real app's start-up (``create_app``'s lifespan: the SQLite
store in a temporary folder, migrations, the match-end hooks, the collector), then plays a
fixed number of moves through the master (``Master.submit``, the path a socket's ``move``
takes after the hub has parsed it) at two tables: two people, and a person against a bot.
Every seat has a socket and each table two spectators; a socket here only keeps what it is
sent (the hub's own send queue and the WebSocket are not counted). Every seed is fixed
(the deals, the bot's and the people's choices), and the bot answers at once in this
process (a seeded random legal move: a real bot thinks in the pool's processes, never in
this one), so two runs of one commit give the same counts.

Per move it prints:

- ``calls``: Python function calls on the event loop's thread (cProfile's total);
- ``young_objects``: GC-tracked objects allocated and still alive when the young
  generation was next looked at (gen-0 allocations net of frees: what the collector has to
  walk, so what its pauses grow with);
- ``statements``: database statements (a SQLAlchemy ``before_cursor_execute`` listener on
  every engine);
- ``broker_messages``: messages published to a broker (the embedded server has none: 0);
- ``bytes_sent``: bytes of frames handed to the sockets, and ``frames_sent``;
- ``json_encodes``: frame texts encoded (``json.dumps`` calls, whatever encoder is used).

It runs on any checkout: ``--src ../other/src`` (as bench/load.py's) imports the package from
there (that checkout's kernel built in place, or the pure-Python path). ``--profile N``
also prints the N top functions by call count and by cumulative time.

Usage: .venv/bin/python bench/move_counts.py [--moves 300] [--src DIR] [--profile 25] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import os
import pstats
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class Sink:
    """A socket as the master sees it: keeps what it is sent, wakes the driver."""

    def __init__(self, seat: int | None, wake: asyncio.Event) -> None:
        self.seat = seat
        self.sent: list[str] = []
        self._wake = wake

    def send(self, text: str) -> None:
        self.sent.append(text)
        self._wake.set()

    def close_after_queue(self, code: int, reason: str) -> None:
        pass


class InstantPool:
    """The bot pool answering at once with a seeded random legal move."""

    async def choose(self, level: str, view: Any, seconds: float | None, seed: int) -> Any:
        return random.Random(seed).choice(view.legal_moves()).to_dict()

    async def warm(self) -> None:
        pass

    async def aclose(self, grace: float = 0.0) -> None:
        pass

    def close(self) -> None:
        pass


def _import(*names: str) -> Any:
    """The first module of ``names`` that imports (the package's layout changed)."""
    import importlib
    for name in names:
        with contextlib.suppress(ImportError):
            return importlib.import_module(name)
    raise ImportError(names)


def _fixed_seeds() -> None:
    """Every deal's seed from one seeded generator (each module that imported
    ``new_seed`` by name gets it)."""
    rng = random.Random(38)

    def new_seed() -> str:
        return f"{rng.getrandbits(128):032x}"

    for name, module in list(sys.modules.items()):
        if name.startswith("scopa.server") and hasattr(module, "new_seed"):
            module.new_seed = new_seed  # type: ignore[attr-defined]


class Counts:
    def __init__(self) -> None:
        self.statements = 0
        self.young = 0
        self._start = 0

    def on_statement(self, *_: Any) -> None:
        self.statements += 1

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and info["generation"] == 0:
            self.young += gc.get_threshold()[0]


async def play(table: Any, master: Any, rng: random.Random, moves: int,
               wake: asyncio.Event, masterror: type[Exception]) -> None:
    """Play ``moves`` moves at ``table``: people choose a seeded random legal move, press
    Continue after a hand and ask for a rematch after a match; bots move by themselves."""
    humans = [s.seat for s in table.seats if s.kind == "human"]
    played = 0
    while played < moves:
        wake.clear()
        game = table.game
        if table.match_over:
            for seat in humans:
                with contextlib.suppress(masterror):
                    await master.rematch(table, seat)
        elif game is not None and game.hand_over:
            for seat in humans:
                await master.next_vote(table, seat)
        elif game is not None and game.to_move in humans:
            move = rng.choice(game.legal_moves()).to_dict()
            await master.submit(table, game.to_move, table.state_id, move)
            played += 1
            continue
        if not wake.is_set():
            await wake.wait()


async def run(moves: int, profile: cProfile.Profile | None, counts: Counts,
              database_url: str | None = None) -> dict[str, Any]:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from scopa.rules import Rules
    app_mod = _import("scopa.server.ops.app", "scopa.server.app")
    settings_mod = _import("scopa.server.common.settings", "scopa.server.settings")
    table_mod = _import("scopa.server.play.table", "scopa.server.table")
    _fixed_seeds()
    with tempfile.TemporaryDirectory() as tmp:
        settings = settings_mod.Settings(
            database_url=database_url or f"sqlite:///{tmp}/counts.sqlite", bot_workers=1,
            bot_delay_seconds=0, grace_seconds=600, secret="c" * 32)
        app = app_mod.create_app(settings)
        async with app.router.lifespan_context(app):
            master = app.state.master
            master.pool = InstantPool()
            if hasattr(master, "bots"):
                master.bots.pool = master.pool
            master.rng.seed(38)
            wakes = []
            tables = []
            for other in ({"kind": "human"}, {"kind": "bot", "level": "random"}):
                wake = asyncio.Event()
                table, _, _ = await master.create_table(
                    Rules(), [{"kind": "human"}, other], False, 600.0, "Anna", 0)
                if other["kind"] == "human":
                    await master.join(table.invite, "Bruno", None)
                sinks = [Sink(s.seat, wake) for s in table.seats if s.kind == "human"]
                sinks += [Sink(None, wake), Sink(None, wake)]
                for sink in sinks:
                    await master.attach(table, sink)
                wakes.append(wake)
                tables.append((table, sinks))
            before = {id(s): len(s.sent) for _, sinks in tables for s in sinks}
            event.listen(Engine, "before_cursor_execute", counts.on_statement)
            encodes = [0]
            real_dumps = json.dumps

            def dumps(*a: Any, **k: Any) -> str:
                encodes[0] += 1
                return real_dumps(*a, **k)

            json.dumps = dumps
            gc.collect()
            gc.callbacks.append(counts.on_gc)
            young_before = gc.get_count()[0]
            if profile is not None:
                profile.enable()
            try:
                for i, ((table, _), wake) in enumerate(zip(tables, wakes, strict=True)):
                    await play(table, master, random.Random(i), moves // 2, wake,
                               table_mod.MasterError)
                # what the last moves set going (a bot's reply, a deal) has run
                for _ in range(20):
                    await asyncio.sleep(0)
            finally:
                if profile is not None:
                    profile.disable()
                counts.young += gc.get_count()[0] - young_before
                gc.callbacks.remove(counts.on_gc)
                json.dumps = real_dumps
                event.remove(Engine, "before_cursor_execute", counts.on_statement)
            texts = [t for _, sinks in tables for s in sinks for t in s.sent[before[id(s)]:]]
            applied = 0
            for _table, sinks in tables:
                seat0 = next(s for s in sinks if s.seat == 0)
                for text in seat0.sent[before[id(seat0)]:]:
                    frame = json.loads(text)
                    if frame["type"] == "state" and (frame.get("event") or {}).get("kind") \
                            == "move":
                        applied += 1
            return {"moves": applied, "frames": len(texts),
                    "bytes": sum(len(t.encode()) for t in texts), "encodes": encodes[0]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=300, help="moves by people (both tables)")
    p.add_argument("--src", default=None, help="import scopa from this src folder")
    p.add_argument("--profile", type=int, default=0,
                   help="print this many top functions by calls and by cumulative time")
    p.add_argument("--json", action="store_true", help="print the counts as JSON")
    p.add_argument("--database-url", default=None,
                   help="an empty database to play on (default: SQLite in a temporary folder)")
    args = p.parse_args()
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    os.environ.setdefault("SCOPA_LOG_LEVEL", "WARNING")
    result = measure(args.moves, args.profile, args.json, args.database_url)
    if args.json:
        print(json.dumps(result))


def measure(moves: int = 300, top: int = 0, quiet: bool = False,
            database_url: str | None = None) -> dict[str, float]:
    """Play ``moves`` people's moves (and the bot's replies) and return the counts a move
    (on a fresh SQLite database in a temporary folder, or on ``database_url``, empty)."""
    counts = Counts()
    profile = cProfile.Profile()
    sent = asyncio.run(run(moves, profile, counts, database_url))
    stats = pstats.Stats(profile)
    calls = sum(nc for (_cc, nc, _tt, _ct, _callers) in stats.stats.values())  # type: ignore[attr-defined]
    n = sent["moves"]
    result = {
        "moves": n,
        "calls": round(calls / n, 1),
        "young_objects": round(counts.young / n, 1),
        "statements": round(counts.statements / n, 2),
        "broker_messages": 0.0,
        "frames_sent": round(sent["frames"] / n, 2),
        "bytes_sent": round(sent["bytes"] / n, 1),
        "json_encodes": round(sent["encodes"] / n, 2),
    }
    if not quiet:
        import scopa
        print(f"scopa from {Path(scopa.__file__).parent}")
        for key, value in result.items():
            print(f"{key:16} {value}")
    if top:
        stats.sort_stats("ncalls").print_stats(top)
        stats.sort_stats("cumulative").print_stats(top)
    return result


if __name__ == "__main__":
    main()
