"""What one move costs the server, counted (not timed): the move path driven in process
through the master, on the real SQLite store in a temporary folder, with bots that answer
at once (a stand-in for the pool: the bots' own thinking is not the server's work).

Per move it prints:

- ``calls``: Python function calls (``sys.setprofile``: calls into Python and C functions),
  the harness's own included (a few per move, the same in every version);
- ``gc_objects``: container objects the garbage collector tracks, allocated net of those
  freed (the count that triggers its collections: what "GC in the minute" grows with);
- ``round_trips``: the database's round trips (``store.database.count_round_trips``:
  statements, BEGINs, COMMITs, connection check-outs);
- ``bytes``: text sent to the sockets (every frame to every seat);
- ``frames``: frames sent.

Counts do not depend on the machine's load, so two versions compare on any machine, and
``tests/server/play/test_move_budget.py`` holds them under budgets. Run it on another checkout
with ``PYTHONPATH=../other/src``.

Usage: .venv/bin/python bench/move_counts.py [--moves 400] [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from scopa.rules import Rules
from scopa.view import PlayerView

try:  # the server in packages (2026-12-06 on)
    from scopa.server.common.settings import Settings
    from scopa.server.common.timing import PHASES
    from scopa.server.play.master import Master
    from scopa.server.store.database import Store
except ImportError:  # the flat server before it, to compare with (e.g. 663f32a)
    from scopa.server.master import Master  # type: ignore[no-redef]
    from scopa.server.settings import Settings  # type: ignore[no-redef]
    from scopa.server.timing import PHASES  # type: ignore[no-redef]

    from scopa.server.store import Store  # type: ignore[no-redef]
try:  # one TableSpec (issue 41) or the positional parameters before it
    from scopa.server.play.spec import TableSpec
except ImportError:
    TableSpec = None  # type: ignore[assignment, misc]

#: a person against a person, and a person against a bot
TABLES = ([{"kind": "human"}, {"kind": "human"}],
          [{"kind": "human"}, {"kind": "bot", "level": "random"}])


@dataclass
class Counts:
    moves: int
    calls: float
    gc_objects: float
    round_trips: float
    bytes: float
    frames: float

    def per_move(self) -> dict[str, float]:
        return {k: round(v, 1) for k, v in asdict(self).items() if k != "moves"}


class InstantPool:
    """The bot pool's part the master uses, answering at once in process: the first
    legal move of the seat's view (deterministic)."""

    bots_in_flight = 0
    analyses_in_flight = 0

    async def choose(self, level: str, view: PlayerView, seconds: float | None,
                     seed: int) -> dict[str, Any]:
        return view.legal_moves()[0].to_dict()

    async def analyse(self, view: PlayerView, seconds: float | None) -> None:
        return None

    def close(self) -> None:
        pass

    async def aclose(self, grace: float = 0) -> None:
        pass


class Socket:
    """A socket as the master sees it: counts what it is sent, and sets ``sent`` (the
    harness waits on it, never polls: polling would add calls of its own, more or fewer
    with the scheduling)."""

    def __init__(self, seat: int | None, tally: dict[str, int], sent: asyncio.Event) -> None:
        self.seat = seat
        self.tally = tally
        self.sent = sent

    def send(self, text: str) -> None:
        self.tally["bytes"] += len(text)
        self.tally["frames"] += 1
        self.sent.set()

    def close_after_queue(self, code: int, reason: str) -> None:
        pass


async def _settle(table: Any, before: int, sent: asyncio.Event) -> None:
    """Wait until the table moved on from ``before`` (a bot's move, a deal): its sockets
    are told."""
    while table.state_id == before:
        sent.clear()
        await asyncio.wait_for(sent.wait(), 30)


def _metrics() -> Any:
    """The app's metrics listening to ``PHASES`` (None before the server had them)."""
    try:
        from scopa.server.ops.metrics import Metrics
    except ImportError:  # 663f32a: no metrics
        return None
    metrics = Metrics()
    metrics.start(None)
    return metrics


async def drive(store: Store, moves: int, seed: int) -> Counts:
    """Play ``moves`` people's moves (bots answer in between) and count."""
    settings = Settings(hand_pause_seconds=0, bot_delay_seconds=0, grace_seconds=600,
                        standin_level="random")
    master = Master(settings, store, InstantPool(), "k" * 32)  # type: ignore[arg-type]
    # the server's own listeners on every phase and counter (the Prometheus metrics, as
    # create_app starts them): part of every move's work (issue 38: 90 calls a move)
    listeners = _metrics()
    rng = random.Random(seed)
    tally = {"bytes": 0, "frames": 0}
    sent = asyncio.Event()

    def trips() -> int:
        return sum(PHASES.counts[k] for k in ("db.statements", "db.begins", "db.commits",
                                              "db.checkouts"))

    async def new_table(seats: list[dict[str, Any]]) -> Any:
        if TableSpec is not None:
            made = master.create_table(TableSpec(Rules(), seats, 600.0, creator="Anna",
                                                 creator_seat=0))
        else:
            made = master.create_table(Rules(), seats, False, 600.0, "Anna", 0)
        table, _, _ = await made
        if seats[1]["kind"] == "human":
            await master.join(table.invite, "Bruno", 1)
        for s in table.seats:
            if s.kind == "human":
                await master.attach(table, Socket(s.seat, tally, sent))
        await _settle(table, -1, sent) if table.game is None else None
        return table

    tables = [await new_table(seats) for seats in TABLES]
    calls = 0

    def profile(frame: Any, what: str, arg: Any) -> None:
        nonlocal calls
        if what in ("call", "c_call"):
            calls += 1

    gc.collect()
    gc.disable()
    objects = 0
    played = 0
    try:
        base = {**tally, "trips": trips()}
        while played < moves:
            for i, table in enumerate(tables):
                if played >= moves:
                    break
                game = table.game
                if table.match_over:
                    tables[i] = await new_table(TABLES[i])
                    continue
                hand = None if game is None else game.hand
                if hand is None or hand.hand_over or table.seats[hand.to_move].kind != "human":
                    before = table.state_id
                    gc_before = gc.get_count()[0]
                    sys.setprofile(profile)
                    await _settle(table, before, sent)
                    sys.setprofile(None)
                    objects += gc.get_count()[0] - gc_before
                    continue
                seat = hand.to_move
                legal = [m.to_dict() for m in PlayerView.of(hand, seat).legal_moves()]
                move = rng.choice(legal)
                gc_before = gc.get_count()[0]
                sys.setprofile(profile)
                await master.submit(table, seat, table.state_id, move)
                sys.setprofile(None)
                objects += gc.get_count()[0] - gc_before
                played += 1
    finally:
        sys.setprofile(None)
        gc.enable()
        if listeners is not None:
            listeners.stop()
        await master.shutdown()
    n = max(1, played)
    return Counts(played, calls / n, objects / n, (trips() - base["trips"]) / n,
                  (tally["bytes"] - base["bytes"]) / n, (tally["frames"] - base["frames"]) / n)


async def measure(moves: int = 400, seed: int = 7) -> Counts:
    """The counts on a fresh SQLite store in a temporary folder."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'counts.sqlite'}")
        try:
            await store.migrate()
            return await drive(store, moves, seed)
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    counts = asyncio.run(measure(args.moves, args.seed))
    if args.json:
        print(json.dumps({"moves": counts.moves, **counts.per_move()}))
    else:
        print(f"{counts.moves} people's moves (bots answering between them), per move:")
        for key, value in counts.per_move().items():
            print(f"  {key:<11} {value:>10.1f}")


if __name__ == "__main__":
    main()
