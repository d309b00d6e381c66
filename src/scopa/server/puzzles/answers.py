"""What the puzzle routes answer, as types (the OpenAPI document and the contract test read
them; see ``play.answers``). A puzzle shown before its answer is only the solver's view."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic import with_config as _with
from typing_extensions import TypedDict

strict = _with(ConfigDict(extra="forbid"))


@strict
class ShownPuzzle(TypedDict):
    """What a solver sees: the id, the kind, the variant and the seat's fair view
    (``PlayerView.to_dict``): never the hidden cards, the answer or the values."""

    id: str
    kind: str
    variant: str
    view: dict[str, Any]


@strict
class PuzzleRating(TypedDict):
    rating: int
    settled: bool
    attempts: int
    solved: int


@strict
class PuzzleAsked(TypedDict):
    """A puzzle to solve, its rating, whether it is the day's, and the asker's puzzle
    rating (None for a guest, who solves unrated); ``answered``: an account answered it
    already (its answer counted once)."""

    puzzle: ShownPuzzle
    rating: int
    day: str | None
    player: PuzzleRating | None
    answered: bool


@strict
class PlayValue(TypedDict):
    move: dict[str, Any]
    value: float
    lead: float
    best: bool


@strict
class RatingMove(TypedDict):
    before: int
    after: int
    settled: bool


@strict
class PuzzleAnswer(TypedDict):
    """The answer checked: right or not, the best play, every play's value (hand points for
    the solver's side, with the best play's least lead over each in every deal), the reason
    (a catalogue message) and Teach me's explanation of each play; ``rating``: how the
    player's puzzle rating moved (None: a guest, or not the first answer)."""

    puzzle_id: str
    correct: bool
    best: dict[str, Any]
    plays: list[PlayValue]
    margin: float
    deals: int
    reason: dict[str, Any]
    explained: dict[str, Any]
    rating: RatingMove | None
    puzzle_rating: int


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    card: str = Field(min_length=2, max_length=3)
    capture: list[str] = Field(default_factory=list, max_length=10)


class AnswerBody(BaseModel):
    """A play: the card from the hand and the table cards it takes (none to lay it)."""

    model_config = ConfigDict(extra="forbid")
    move: MoveBody
