"""Loading puzzles into the database (``scopa puzzles load``): every line of the file is
parsed and verified (``bots.puzzles.verify``: re-solved from its view alone) before anything
is written; one bad line refuses the whole file, which then changes nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...bots.puzzles import PuzzleError, verify
from ..store.database import Store
from .store import PuzzleStore


@dataclass
class Checked:
    """The file's puzzles that passed, and a line for each one refused."""

    puzzles: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def check_lines(text: str) -> Checked:
    """Each non-blank line of ``text`` parsed and verified."""
    out = Checked()
    ids: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            puzzle = json.loads(line)
            verify(puzzle)
        except json.JSONDecodeError as e:
            out.refused.append(f"line {n}: not JSON ({e.msg})")
            continue
        except RecursionError:
            out.refused.append(f"line {n}: nested too deeply")
            continue
        except PuzzleError as e:
            pid = puzzle.get("id") if isinstance(puzzle, dict) else None
            out.refused.append(f"line {n}{f' (puzzle {pid})' if isinstance(pid, str) else ''}"
                               f": {e}")
            continue
        if puzzle["id"] in ids:
            continue  # the same puzzle twice in one file: kept once
        ids.add(puzzle["id"])
        out.puzzles.append(puzzle)
    return out


async def load(store: Store, puzzles: list[dict[str, Any]]) -> int:
    """Keep verified ``puzzles``; returns how many were new."""
    return await PuzzleStore(store).add(puzzles)
