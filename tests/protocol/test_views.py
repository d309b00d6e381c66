"""view_from_dict: the exact inverse of PlayerView.to_dict, and strict about bad input."""

from __future__ import annotations

import copy
import random

import pytest

from scopa.hand import Hand
from scopa.match import Match
from scopa.protocol import view_from_dict
from scopa.rules import VARIANTS
from scopa.view import PlayerView


def _games() -> list[Hand]:
    out = []
    for variant in VARIANTS:
        for players in (2, 3, 4, 5, 6):
            try:
                out.append(Match.new(variant, seed=f"{variant}{players}", players=players).hand)
            except ValueError:
                continue
    return out


def test_round_trip_through_whole_hands_of_every_variant() -> None:
    rng = random.Random(0)
    checked = 0
    for game in _games():
        while not game.hand_over:
            for seat in range(game.n):
                view = PlayerView.of(game, seat)
                assert view_from_dict(view.to_dict()) == view
                checked += 1
            game.play(rng.choice(game.legal_moves()))
    assert checked > 1000


def test_finished_hand_round_trips_except_to_move() -> None:
    game = Match.new("scopa", seed=4).hand
    rng = random.Random(4)
    while not game.hand_over:
        game.play(rng.choice(game.legal_moves()))
    view = PlayerView.of(game, 1)
    back = view_from_dict(view.to_dict())
    assert back.hand_over and back.captured == view.captured and back.history == view.history


def _view() -> dict:
    return PlayerView.of(Match.new("scopa", seed=9).hand, 0).to_dict()


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda v: v.pop("table"), "lacks table"),
        (lambda v: v.update(extra=1), "unknown view key"),
        (lambda v: v.update(hand=["7d", "7d", "1c"]), "twice"),
        (lambda v: v.update(hand=["11d", "1c", "2c"]), "not a card"),
        (lambda v: v.update(hand=[v["hand"][0].upper(), *v["hand"][1:]]), "not a card"),
        (lambda v: v.update(table=["\u0663d" if t == "3d" else t for t in v["table"]]
                            + ([] if "3d" in v["table"] else ["\u0663d"])), "not a card"),
        (lambda v: v.update(table=v["table"][:-1] + [v["hand"][0]]), "two places"),
        (lambda v: v.update(seat=5), "seat"),
        (lambda v: v.update(stock_size=29), "add up"),
        (lambda v: v.update(hand_sizes=[2, 3]), "hand_sizes"),
        (lambda v: v.update(rules={"variant": "poker"}), "unknown variant"),
        (lambda v: v.update(history=[{"seat": 0}]), "history"),
        (lambda v: v.update(hand_over="no"), "hand_over"),
    ],
)
def test_bad_views_are_refused(change: object, message: str) -> None:
    data = copy.deepcopy(_view())
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match=message):
        view_from_dict(data)


def test_not_an_object() -> None:
    with pytest.raises(ValueError, match="object"):
        view_from_dict([1, 2])
