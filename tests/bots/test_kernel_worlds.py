"""The kernel's world sampler draws exactly the worlds ``worlds.python_layout`` draws
(same seed, same clues), and the drawn worlds are consistent with the view."""

from __future__ import annotations

import random
from array import array

import pytest

from scopa import VARIANTS, Rules
from scopa.bots.play_model import Clue
from scopa.bots.worlds import CLUE_KINDS, WorldSampler, clue_weight, python_layout
from scopa.kernel import KERNEL
from scopa.match import Match
from scopa.rules import VARIANT_SEATINGS
from scopa.view import PlayerView


def _views(count: int) -> list:
    rng = random.Random(11)
    out = []
    for i in range(count):
        variant = VARIANTS[i % len(VARIANTS)]
        players = rng.choice(sorted(VARIANT_SEATINGS[variant]))
        g = Match(Rules.preset(variant, players=players), seed=f"w-{i}").hand
        for _ in range(rng.randrange(0, 30)):
            if g.hand_over:
                break
            g.play(rng.choice(g.legal_moves()))
        if not g.hand_over:
            out.append(PlayerView.of(g, g.to_move))
    return out


@pytest.mark.kernel
@pytest.mark.parametrize("kind", list(CLUE_KINDS))
def test_kernel_layouts_are_the_python_layouts(kind: str) -> None:
    assert KERNEL is not None
    seen_clues = 0
    for n, view in enumerate(_views(60)):
        s = WorldSampler(view, random.Random(n), kind)
        seen_clues += bool(s.clues)
        args = (s.hidden, s.base, s.fill)
        for x in (n, 2**64 - 1 - n, 12345678901234567):
            for tries in (1, 3, 24):
                py = python_layout(*args, s.clues, tries, x)
                k = KERNEL.layout(*args, s.clue_seats, s.clue_floors, s.clue_weights, tries, x)
                assert tuple(k) == py
    if kind != "none":
        assert seen_clues  # the comparison covered weighted draws


def test_drawn_worlds_fit_the_view() -> None:
    for n, view in enumerate(_views(40)):
        s = WorldSampler(view, random.Random(n), True)
        for _ in range(3):
            world = s.draw()
            assert world.hands[view.seat] == view.hand
            assert [h.bit_count() for h in world.hands] == list(view.hand_sizes)
            assert len(world.stock) == view.stock_size
            assert world.table == view.table
            hidden = 0
            for seat, h in enumerate(world.hands):
                if seat != view.seat:
                    hidden |= h & ~(view.shown[seat] if view.shown else 0)
            for c in world.stock:
                hidden |= 1 << c
            assert hidden == view.unseen()
            assert 0.0 <= clue_weight(world.hands, s.clues) <= 1.0


@pytest.mark.kernel
def test_bad_layout_input_is_refused() -> None:
    assert KERNEL is not None
    with pytest.raises(ValueError):
        KERNEL.layout([1, 2], [0, 0], [3, 0], [], [], b"", 1, 5)  # more to fill than hidden
    with pytest.raises(ValueError):
        KERNEL.layout([1, 2], [0, 0], [1, 0], [0], [1.0], b"", 1, 5)  # weights missing


def test_weights_that_are_not_numbers_keep_the_layout_unshuffled() -> None:
    """A clue weight of NaN accepts nothing and beats nothing: both paths keep the hidden
    cards in their given order."""
    nan = float("nan")
    clues = [Clue(1, nan, (nan,) * 40)]
    py = python_layout([3, 5, 7, 9], [1, 0], [0, 2], clues, 4, 99)
    assert py[:2] == ([1, 1 << 3 | 1 << 5], [7, 9])
    if KERNEL is not None:
        k = KERNEL.layout([3, 5, 7, 9], [1, 0], [0, 2], [1], [nan],
                          array("d", [nan] * 40).tobytes(), 4, 99)
        assert tuple(k) == py

