"""What an arena run will play and how far it has got, in words a log file can hold.

``run_arena`` calls its progress callback with an ``ArenaProgress`` once before the first
deal (``done == 0``: print the plan) and after every deal or match. ``ProgressLines``
turns those calls into a plain line every few percent, for output that is not a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO


@dataclass(frozen=True)
class ArenaPlan:
    """What a run plays: every deal and match once from each seating of the bots."""

    names: list[str]
    variant: str
    players: int
    deals: int
    matches: int
    seatings: int
    seed: int | str
    jobs: int
    #: the Ray cluster's address when the work runs there (None: local processes)
    ray: str | None = None

    def describe(self) -> str:
        """One paragraph saying what will be played, before it starts."""
        games = self.deals * self.seatings
        if self.matches:
            matches = (f"{self.matches} duplicate matches to the target "
                       f"({self.matches * self.seatings} matches)")
        else:
            matches = "no matches (--matches N adds duplicate matches to the target)"
        return (
            f"arena: {', '.join(self.names)}; {self.variant}, {self.players} players, "
            f"seed {self.seed}, {self.jobs} job{'s' if self.jobs > 1 else ''}"
            f"{f' on the Ray cluster at {self.ray}' if self.ray else ''}\n"
            f"plays {self.deals} duplicate deals x {self.seatings} seatings ({games} hands) "
            f"and {matches}"
        )


@dataclass
class ArenaProgress:
    """How far a run has got: deals and matches finished, seconds since the first, and
    per bot its mean margin (and standard error) over the deals finished so far."""

    plan: ArenaPlan
    deals_done: int
    matches_done: int
    seconds: float
    margins: list[tuple[float, float]]

    @property
    def done(self) -> int:
        return self.deals_done + self.matches_done

    @property
    def total(self) -> int:
        return self.plan.deals + self.plan.matches

    def margin_text(self) -> str:
        """Each bot's margin so far, ± its standard error (the first bot's alone when
        there are two: the other's is its negative)."""
        names = self.plan.names
        shown = names[:1] if len(names) == 2 else names
        parts = [f"{name} {mean:+.3f} ± {se:.3f}"
                 for name, (mean, se) in zip(shown, self.margins, strict=False)]
        return "margin " + ", ".join(parts)

    def line(self) -> str:
        """``deals 40/200 (20%), 0:02:13 elapsed, margin greedy +0.420 ± 0.170``"""
        percent = 100 * self.done // self.total
        minutes, seconds = divmod(int(self.seconds), 60)
        hours, minutes = divmod(minutes, 60)
        text = f"deals {self.deals_done}/{self.plan.deals}"
        if self.plan.matches:
            text += f", matches {self.matches_done}/{self.plan.matches}"
        text += f" ({percent}%), {hours}:{minutes:02d}:{seconds:02d} elapsed"
        if self.deals_done:
            text += ", " + self.margin_text()
        return text


class ProgressLines:
    """A progress callback writing the plan, then a line each time another ``step``
    percent of the work is done (and at the end), to a stream that is not a terminal."""

    def __init__(self, stream: IO[str], step: int = 5) -> None:
        self.stream = stream
        self.step = step
        self._shown = -1

    def __call__(self, progress: ArenaProgress) -> None:
        if progress.done == 0:
            self._write(progress.plan.describe())
            self._shown = 0
            return
        stage = 100 * progress.done // progress.total // self.step
        if stage > self._shown:
            self._shown = stage
            self._write("arena: " + progress.line())

    def _write(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()
