"""The arena: duplicate deals and matches between bots, in parallel, with ratings.

``run_arena(["greedy", "random"], rules, deals=400, jobs=2, seed=1)`` plays every deal once
from each seating of the bots (see ``seating``), so the luck of the deal cancels.
"""

from .play import (
    ArenaError,
    DuplicateOutcome,
    TableOutcome,
    play_duplicate,
    play_duplicate_deal,
    play_table,
)
from .progress import ArenaPlan, ArenaProgress, ProgressLines
from .runner import ArenaResult, BotStats, run_arena
from .seating import arrangements, seat_bots

__all__ = [
    "ArenaError",
    "ArenaPlan",
    "ArenaProgress",
    "ArenaResult",
    "BotStats",
    "DuplicateOutcome",
    "ProgressLines",
    "TableOutcome",
    "arrangements",
    "play_duplicate",
    "play_duplicate_deal",
    "play_table",
    "run_arena",
    "seat_bots",
]
