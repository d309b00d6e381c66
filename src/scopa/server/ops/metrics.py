"""``GET /metrics`` in the Prometheus text format, fed from the measurements the server
already takes (timing.py's phases and counters, the lag monitor's loop lag and GC
pauses, the master's tables and sockets, the bot pool's queue), so nothing is timed
twice. A registry per app (two apps in one process never collide); every label set is
bounded (phase and counter names are fixed in the code, table states are a handful):
no table, player or address ever appears, so the page reveals nothing private."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)

from ..common.security import require_operator
from ..common.settings import Settings
from ..common.timing import PHASES, Phases
from ..play.table import Table

router = APIRouter(tags=["health"])

#: seconds: from a tenth of a millisecond (a socket send) to ten seconds (a stuck commit)
BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
           0.5, 1.0, 2.5, 5.0, 10.0)
#: every status a table can have (a label value outside it is reported as "other")
STATES = ("waiting", "playing", "finished", "expired")


def open_sockets(tables: list[Table]) -> int:
    """Sockets of players and spectators on this worker (``/api/health`` shows it too)."""
    return (sum(len(s.conns) for t in tables for s in t.seats)
            + sum(len(t.spectators) for t in tables))


class Metrics:
    """One app's registry: histograms and counters fed by ``PHASES``' listeners while the
    app runs, and figures read from the app's state at each scrape.

    The listeners run on every move (several times), so they only add to plain lists and
    dicts; the Prometheus families are built from them at scrape time. (prometheus_client's
    own ``Histogram.labels(...).observe`` took a lock per bucket and a label look-up per
    sample: some 90 Python calls a move, issue 38.) Every listener runs on the event
    loop's thread."""

    def __init__(self, phases: Phases = PHASES) -> None:
        self.phases = phases
        self.registry = CollectorRegistry(auto_describe=True)
        #: per phase: samples per bucket (not cumulative; the last is above every bound)
        self._buckets: dict[str, list[int]] = {}
        self._sums: dict[str, float] = {}
        #: per counter name: the total counted
        self._counted: dict[str, int] = {}
        self.app: Any = None
        self.registry.register(self)

    def _record(self, phase: str, seconds: float) -> None:
        buckets = self._buckets.get(phase)
        if buckets is None:
            buckets = self._buckets[phase] = [0] * (len(BUCKETS) + 1)
            self._sums[phase] = 0.0
        buckets[bisect_left(BUCKETS, seconds)] += 1
        self._sums[phase] += seconds

    def _count(self, name: str, n: int) -> None:
        self._counted[name] = self._counted.get(name, 0) + n

    def _phase_families(self) -> Iterator[Metric]:
        h = HistogramMetricFamily(
            "scopa_phase_seconds", "Time a move spends in each phase (timing.py): "
            "move.handled is a move frame received to its state queued to every socket",
            labels=["phase"])
        for phase, buckets in list(self._buckets.items()):
            total, cumulative = 0, []
            for bound, n in zip((*map(str, BUCKETS), "+Inf"), buckets, strict=True):
                total += n
                cumulative.append((bound, float(total)))
            h.add_metric([phase], cumulative, self._sums[phase])
        yield h
        c = CounterMetricFamily(
            "scopa_events", "Things counted by the server (timing.py): moves.applied, "
            "db.statements (database round trips), lease.gained, ...", labels=["name"])
        for name, n in list(self._counted.items()):
            c.add_metric([name], n)
        yield c

    def start(self, app: Any) -> None:
        """Listen to the phases from now on and read figures from ``app.state``."""
        self.app = app
        self.phases.on_record.append(self._record)
        self.phases.on_count.append(self._count)

    def stop(self) -> None:
        for hooks, fn in ((self.phases.on_record, self._record),
                          (self.phases.on_count, self._count)):
            if fn in hooks:
                hooks.remove(fn)  # type: ignore[arg-type]

    def describe(self) -> list[Metric]:
        return []  # figures read at scrape time: nothing to check at registration

    def collect(self) -> Iterator[Metric]:
        """The figures read at scrape time from the running app."""
        yield from self._phase_families()
        state: Any = getattr(self.app, "state", None)
        master = getattr(state, "master", None)
        if master is None:  # not started (or stopped): nothing to read
            return
        tables = list(master.tables.values())
        g = GaugeMetricFamily("scopa_tables", "Tables this worker knows, by state",
                              labels=["state"])
        for st in STATES:
            g.add_metric([st], sum(1 for t in tables if t.status == st))
        yield g
        yield GaugeMetricFamily("scopa_open_sockets", "WebSockets open on this worker "
                                "(players and spectators)", value=open_sockets(tables))
        pool = state.pool
        yield GaugeMetricFamily("scopa_bot_moves_in_flight", "Bot moves asked of the bot "
                                "workers and not answered yet", value=pool.bots_in_flight)
        yield GaugeMetricFamily("scopa_bot_queue_depth", "Bot moves waiting for a free bot "
                                "worker", value=max(0, pool.bots_in_flight - pool.bots.workers))
        yield GaugeMetricFamily("scopa_bot_workers", "Bot worker processes",
                                value=pool.bots.workers)
        lag = state.lag
        lq = GaugeMetricFamily("scopa_loop_lag_seconds", "Event loop lag over the last "
                               "minute (how late a 10 ms timer fires)", labels=["quantile"])
        summary = lag.summary()
        for q, key in (("0.5", "p50"), ("0.99", "p99"), ("1", "max")):
            if summary[key] is not None:
                lq.add_metric([q], summary[key] / 1000)
        yield lq
        gc_count = CounterMetricFamily("scopa_gc_collections", "Garbage collections, by "
                                       "generation", labels=["generation"])
        gc_max = GaugeMetricFamily("scopa_gc_pause_max_seconds", "Longest garbage-"
                                   "collection pause, by generation", labels=["generation"])
        for gen, (longest, n) in enumerate(lag.gc_by_gen):
            gc_count.add_metric([str(gen)], n)
            gc_max.add_metric([str(gen)], longest)
        yield gc_count
        yield gc_max
        yield CounterMetricFamily("scopa_gc_pause_seconds", "Time spent in garbage "
                                  "collection", value=lag.gc_total)


def allowed(request: Request, settings: Settings) -> None:
    """The ``metrics`` setting: ``off`` (404, as if absent), ``operator`` (the default:
    ``Authorization: Bearer <operator secret>``, like every operator action) or ``open``."""
    if settings.metrics == "off":
        raise HTTPException(404, "Not Found")
    if settings.metrics == "operator":
        require_operator(request, settings)


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """The Prometheus exposition of this worker (each worker is scraped on its own)."""
    allowed(request, request.app.state.settings)
    return Response(generate_latest(request.app.state.metrics.registry),
                    media_type=CONTENT_TYPE_LATEST)
