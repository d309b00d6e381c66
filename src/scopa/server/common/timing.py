"""Where a move's time goes inside this process: named phases (a move frame received to
its state queued, the commit, a frame waiting in a socket's queue, ...) and counters (the
database round trips, the events per commit), kept for the last minute or so and shown by
``/api/health`` beside the event loop's lag, so a slow delivery can be put on the queue
that held it rather than guessed at.

One registry per process (``PHASES``): every module that times a phase records into it;
recording costs a clock read and a list append. Listeners (the Prometheus metrics,
metrics.py) see every sample and count as it is recorded, so nothing is timed twice."""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypedDict

#: samples kept per phase (the newest)
KEEP = 20_000


def spread_ms(seconds: Iterable[float]) -> dict[str, float]:
    """Median, 99th percentile (nearest rank) and maximum of some durations, in ms: the
    shape every timing in ``/api/health`` is reported in."""
    s = sorted(seconds)
    return {
        "p50": round(s[len(s) // 2] * 1000, 2),
        "p99": round(s[min(len(s) - 1, int(0.99 * len(s)))] * 1000, 2),
        "max": round(s[-1] * 1000, 2),
    }


class Phases:
    """Durations (seconds) per phase name and counts per counter name."""

    def __init__(self) -> None:
        self.samples: dict[str, collections.deque[float]] = {}
        self.counts: collections.Counter[str] = collections.Counter()
        #: called with (phase, seconds) for each sample and (name, n) for each count
        self.on_record: list[Callable[[str, float], None]] = []
        self.on_count: list[Callable[[str, int], None]] = []

    def record(self, phase: str, seconds: float) -> None:
        kept = self.samples.get(phase)
        if kept is None:
            kept = self.samples[phase] = collections.deque(maxlen=KEEP)
        kept.append(seconds)
        for listener in self.on_record:
            listener(phase, seconds)

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] += n
        for listener in self.on_count:
            listener(name, n)

    @contextmanager
    def timed(self, phase: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.record(phase, time.perf_counter() - start)

    def summary(self) -> PhaseSummary:
        """Per phase: how many, median, p99 and max in ms; and the counters."""
        out: dict[str, dict[str, float]] = {}
        for phase, kept in sorted(self.samples.items()):
            if kept:
                out[phase] = {"n": len(kept), **spread_ms(kept)}
        return {"phases_ms": out, "counts": dict(self.counts)}

    def reset(self) -> None:
        self.samples.clear()
        self.counts.clear()


class PhaseSummary(TypedDict):
    phases_ms: dict[str, dict[str, float]]
    counts: dict[str, int]


PHASES = Phases()
