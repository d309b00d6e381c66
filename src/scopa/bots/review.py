"""A game review: every play of a finished match valued from its seat's fair view.

Each play is valued by the search bot's analysis (``analysis.analyse``: determinized search
of worlds sampled from a ``PlayerView``) from ``PlayerView.of(hand, seat)`` taken just
before the play, so a review never uses a card the seat could not see at that moment (in a
team game each partner is judged from that partner's own view). Values are the expected
hand-point margin of the mover's side for the rest of the hand; the loss of a play is the
best play's value minus the value of the play made (0 for the best play and for a forced
play, which is not searched). Marks and thresholds are below; the command is
``scopa review`` (docs/review.md).

Each play also gets a second opinion in hindsight, with every card seen (``hindsight``: the
oracle on the true position): its ``hindsight_*`` fields. It is computed apart from the
fair judgement, from the true position, and never sets the mark.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..hand import Hand
from ..match import Match
from ..moves import Move
from ..record import replay_steps
from ..view import PlayerView
from .analysis import analyse
from .base import Limit
from .hindsight import hindsight

#: simulations per play when the caller gives none: a two-player match of four hands
#: reviews in about 7 CPU seconds on one core (docs/review.md has the measurement)
DEFAULT_SIMULATIONS = 1000

# Thresholds of the marks, in expected points lost, set from the losses measured over each
# level's own play (docs/notes/2026-12-06-review-thresholds.md, bench/review_losses.py): the
# champion gets a mark on under 2% of its choices (mostly the review's own search noise at
# 1000 simulations), each mark grows five to ten times rarer from beginner to champion, and
# a blunder is about a whole point (a scopa let through, the settebello given away).
#: a loss from this much is an inaccuracy
INACCURACY = 0.2
#: a loss from this much is a mistake
MISTAKE = 0.5
#: a loss from this much is a blunder
BLUNDER = 1.0


def mark_of(loss: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None, by the loss in points."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True)
class PlayReview:
    """One play: where (hand, 1-based move index), who, what was played and what was best,
    their values (None for a forced play, which is not searched), the loss and its mark,
    all from the mover's fair view; then hindsight, with every card seen (None until it is
    judged): the best play then, the loss against it and whether it was solved exactly."""

    hand: int
    index: int
    seat: int
    played: str
    best: str
    played_value: float | None
    best_value: float | None
    loss: float
    mark: str | None
    choices: int
    why_best: str = ""
    hindsight_best: str | None = None
    hindsight_loss: float | None = None
    hindsight_exact: bool | None = None

    def fair(self) -> PlayReview:
        """The play's review without the hindsight: what the mover could know alone."""
        return replace(self, hindsight_best=None, hindsight_loss=None, hindsight_exact=None)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SeatSummary:
    """A seat's plays in short: how many, their average loss, the marks, the costliest."""

    seat: int
    plays: int
    average_loss: float
    marks: dict[str, int] = field(default_factory=dict)
    costliest: tuple[PlayReview, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["costliest"] = [p.to_dict() for p in self.costliest]
        return out


@dataclass(frozen=True)
class Review:
    """The whole review: every play in order and a summary per seat."""

    simulations: int
    plays: tuple[PlayReview, ...]
    seats: tuple[SeatSummary, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "simulations": self.simulations,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "plays": [p.to_dict() for p in self.plays],
            "seats": [s.to_dict() for s in self.seats],
        }


def _seed(seed: int | str, hand: int, index: int) -> str:
    """A per-play seed: a play's value does not depend on which other plays are reviewed."""
    return hashlib.sha256(f"{seed}/{hand}/{index}".encode()).hexdigest()[:16]


def review_play(
    view: PlayerView, move: Move, hand: int, index: int, simulations: int, seed: int | str
) -> PlayReview | None:
    """The review of ``move`` played from ``view`` (the mover's own view); None when the
    move is not one of the view's legal choices (an engine mark, not a decision)."""
    codes = view.legal_codes()
    if move.code not in codes:
        return None
    if len(codes) == 1:
        return PlayReview(hand, index, view.seat, str(move), str(move), None, None, 0.0, None, 1)
    values = analyse(view, Limit(simulations=simulations), _seed(seed, hand, index))
    top = values[0]
    made = next(v for v in values if v.move.code == move.code)
    # the loss as shown (3 decimals) is the one the mark is read from
    loss = 0.0 if made is top else round(max(0.0, top.value - made.value), 3)
    return PlayReview(
        hand, index, view.seat, str(move), str(top.move), round(made.value, 3),
        round(top.value, 3), loss, mark_of(loss), len(codes), top.explanation,
    )


@dataclass(frozen=True)
class Decision:
    """A play to judge: the mover's view just before it (its fair view: what that seat
    could know then), the play made, where (hand, 1-based move index), and the true
    position before it (every card: for the hindsight only)."""

    view: PlayerView
    move: Move
    hand: int
    index: int
    state: Hand


def judge(d: Decision, simulations: int, seed: int | str) -> PlayReview | None:
    """One play's review: judged from the mover's view (``review_play``, the mark's basis),
    then in hindsight on the true position; None when it was no decision (an engine mark).
    The hindsight's budget is the same ``simulations`` (one world: exact or rollouts)."""
    judged = review_play(d.view, d.move, d.hand, d.index, simulations, seed)
    if judged is None:
        return None
    seen = hindsight(d.state, d.move, simulations, _seed(seed, d.hand, d.index) + "/hindsight")
    return replace(
        judged, hindsight_best=seen.best, hindsight_loss=seen.loss, hindsight_exact=seen.exact
    )


def decisions(record: dict[str, Any]) -> list[Decision]:
    """Every play of a game record with its mover's view before it, in order
    (``RecordError`` if the record does not replay)."""
    out: list[Decision] = []
    before: list[PlayerView | None] = [None]  # the mover's view before the next event
    truth: list[Hand | None] = [None]  # the true position before the next event
    count = [0]  # the move's 1-based number within its hand

    def on_move(game: Match, number: int, move: Move | None, seat: int | None) -> None:
        view, state = before[0], truth[0]
        count[0] = 0 if move is None else count[0] + 1
        if move is not None and view is not None and state is not None and view.seat == seat:
            out.append(Decision(view, move, number, count[0], state))
        h = game.hand
        before[0] = None if h.hand_over else PlayerView.of(h, h.to_move)
        truth[0] = None if h.hand_over else h.copy()

    replay_steps(record, on_move=on_move)
    return out


def review_record(
    record: dict[str, Any],
    simulations: int = DEFAULT_SIMULATIONS,
    seed: int | str = 0,
    progress: Callable[[int], None] | None = None,
) -> Review:
    """Review every play of a game record (``RecordError`` if it does not replay).
    ``simulations``: the search budget per play; ``progress(n)`` after each play judged."""
    if simulations < 1:
        raise ValueError("simulations must be at least 1")
    plays: list[PlayReview] = []
    for d in decisions(record):
        judged = judge(d, simulations, seed)
        if judged is not None:
            plays.append(judged)
            if progress:
                progress(len(plays))
    return Review(simulations, tuple(plays), summarize(plays))


def play_review(fields: dict[str, Any]) -> PlayReview:
    """A ``PlayReview`` from its ``to_dict`` (a play judged in another process)."""
    return PlayReview(**fields)


def summarize(plays: list[PlayReview]) -> tuple[SeatSummary, ...]:
    """Per seat: plays, average loss, counts of marks, the three costliest plays."""
    out = []
    for seat in sorted({p.seat for p in plays}):
        mine = [p for p in plays if p.seat == seat]
        marks: dict[str, int] = {}
        for p in mine:
            if p.mark:
                marks[p.mark] = marks.get(p.mark, 0) + 1
        worst = sorted((p for p in mine if p.loss > 0), key=lambda p: -p.loss)[:3]
        average = round(sum(p.loss for p in mine) / len(mine), 3)
        out.append(SeatSummary(seat, len(mine), average, marks, tuple(worst)))
    return tuple(out)
