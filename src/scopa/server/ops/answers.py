"""What the operator's routes answer, as types (see ``common.answers``)."""

from __future__ import annotations

from typing_extensions import TypedDict

from ..common.answers import strict


@strict
class LoopLag(TypedDict):
    """The event loop's lag over the last minute (ms; None before any tick) and garbage
    collection: the longest pause, the total, and per generation [longest ms, count]."""
    p50: float | None
    p99: float | None
    max: float | None
    gc_max: float
    gc_total: float
    gc_by_gen: list[list[float]]


@strict
class Health(TypedDict):
    ok: bool
    tables: int
    playing: int
    sockets: int
    loop_lag_ms: LoopLag
    #: per phase (``common.timing``): how many, and p50, p99, max in ms
    phases_ms: dict[str, dict[str, float]]
    counts: dict[str, int]
