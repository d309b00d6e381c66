"""The move path's counts a move stay under their budgets (``bench/move_counts.py``: the
master on the real SQLite store, two tables, 300 people's moves with bots answering at
once). Counts, not times: they do not depend on the machine's load, so a change that makes
every move dearer (more calls, more objects for the collector, more round trips to the
database, more bytes to the sockets) fails here with the numbers, whatever machine runs
it. When a change makes a move cheaper, lower the budget with it (the note in
docs/notes/2026-12-06-move-counts-against-663f32a.md says where each figure came from)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("move_counts", ROOT / "bench" / "move_counts.py")
assert _spec is not None and _spec.loader is not None
move_counts = importlib.util.module_from_spec(_spec)
sys.modules["move_counts"] = move_counts
_spec.loader.exec_module(move_counts)

#: measured on 2026-12-06 (three runs of ``bench/move_counts.py --moves 300``, the note),
#: the highest plus a tenth: per person's move, the bots' answers and the deals between
#: included
BUDGET = {
    "calls": 2680.0,        # measured 2405-2426 (663f32a: 2395-2399)
    "gc_objects": 80.0,     # measured 65-72: it varies with when frames are freed
    "round_trips": 2.4,     # measured 2.2: the grouped INSERT, its check-out, new matches
    "bytes": 6000.0,        # measured 5431-5447 (663f32a: 5309-5322)
    "frames": 2.35,         # measured 2.1
}


def test_a_move_costs_no_more_than_its_budget() -> None:
    counts = asyncio.run(move_counts.measure(moves=300, seed=7))
    assert counts.moves == 300
    got = counts.per_move()
    over = {k: (got[k], limit) for k, limit in BUDGET.items() if got[k] > limit}
    assert not over, f"a move costs more than its budget (measured, budget): {over}; all: {got}"


def test_the_budget_would_catch_a_dearer_move(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the test can fail: every state frame twice as long (as if a field were repeated)
    # breaks the bytes budget
    from scopa.server.play import frames

    real = frames.states

    def doubled(table, event):  # type: ignore[no-untyped-def]
        for conns, text in real(table, event):
            yield conns, text + " " * len(text)

    monkeypatch.setattr(frames, "states", doubled)
    got = asyncio.run(move_counts.measure(moves=60, seed=7)).per_move()
    assert got["bytes"] > BUDGET["bytes"]
