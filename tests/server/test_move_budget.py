"""The move path counted (bench/move_counts.py): what a move costs the server in calls,
young objects, statements, broker messages, frames and bytes, held under budgets written
here, so a change that makes every move dearer fails with the numbers instead of showing,
weeks later, as a slower load benchmark. Counts, not times: they do not depend on the
machine or its load.

The budgets are the counts measured when each was last lowered, plus a tenth (the note
docs/notes/2026-12-06-the-move-path-counted.md gives the runs). When a count falls, lower
its budget; when a change has to make moves dearer, raise it in that change and say why."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("move_counts", ROOT / "bench" / "move_counts.py")
assert _spec is not None and _spec.loader is not None
move_counts = importlib.util.module_from_spec(_spec)
sys.modules["move_counts"] = move_counts
_spec.loader.exec_module(move_counts)

#: measured (per move, 300 people's moves and the bot's replies) plus a tenth, per store:
#: the drivers differ in the calls they make on the event loop (asyncpg works on it,
#: aiosqlite in a thread of its own)
BUDGETS = {
    "sqlite": {"calls": 2693, "young_objects": 58, "statements": 1.2, "broker_messages": 0,
               "frames_sent": 3.93, "bytes_sent": 10103, "json_encodes": 3.82},
    "postgresql": {"calls": 2420, "young_objects": 17.5, "statements": 1.2, "broker_messages": 0,
                   "frames_sent": 3.93, "bytes_sent": 10103, "json_encodes": 3.82},
}


def test_a_move_costs_no_more_than_its_budget(url: str) -> None:
    store = "sqlite" if url.startswith("sqlite") else "postgresql"
    counts = move_counts.measure(300, quiet=True, database_url=url)
    assert counts["moves"] >= 300
    over = {k: (v, BUDGETS[store][k]) for k, v in counts.items()
            if k in BUDGETS[store] and v > BUDGETS[store][k]}
    assert not over, f"a move costs more than its budget on {store} (count, budget): {over}; " \
        f"all counts: {counts}"
