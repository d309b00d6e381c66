"""The compiled kernel (scopa._kernel) gives exactly what the pure-Python path gives: the
same random deals of every preset, the same playout from any reachable state (same seed,
same end state), the same captures in the same order and the same points. bench/kernel.py
checks 100,000 deals a preset; here a few hundred keep the suite fast.

Where the kernel is not in use (not built, or SCOPA_PURE_PYTHON=1: scripts/test.sh runs
these files both ways) the comparisons are skipped and the pure path still runs."""

from __future__ import annotations

import dataclasses
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import VARIANTS, Rules
from scopa.bots.rollout import CAPTURE_PROB, python_capture_playout
from scopa.cards import RANK
from scopa.hand import Hand
from scopa.items import ScoreItem
from scopa.kernel import KERNEL, PURE_ENV, item_flags, pack_spec, spec_for
from scopa.match import Match
from scopa.meaning import meaning_of
from scopa.notation import dump_position
from scopa.playout import (
    CAPTURE_POLICY,
    MASK64,
    kernel_playout,
    kernel_policy_playout,
    pick,
    python_playout,
    random_deals,
    random_playout,
)
from scopa.rules import VARIANT_SEATINGS
from scopa.scoring import hand_totals

from .test_properties import SETTINGS, check_conserved, rules_st

needs_kernel = pytest.mark.kernel  # fails where the kernel is not built (tests/conftest.py)

PRESETS = [(v, p) for v in VARIANTS for p in sorted(VARIANT_SEATINGS[v])]


def _state(g: Hand) -> tuple:
    return (
        g.hands, g.table, g.tkey, g.stock, g.captured, g.scope, g.last_capturer, g.to_move,
        g.round, g.in_hands, g.hand_over, g.declared, g.shown, g.undecided,
    )


def test_every_preset_is_expressed_by_the_kernel() -> None:
    for variant, players in PRESETS:
        rules = Rules.preset(variant, players=players)
        assert pack_spec(meaning_of(rules)) is not None, (variant, players)


def test_an_unknown_score_item_keeps_the_python_path() -> None:
    class Extra(ScoreItem):
        key = "extra"

    meaning = meaning_of(Rules.preset("scopa"))
    assert item_flags(meaning.items) is not None
    assert item_flags((*meaning.items, Extra())) is None


def test_every_option_says_how_the_kernel_takes_it() -> None:
    """A new option of ``Rules`` must be named in kernel.py: packed, through the items,
    about the match only, or played by Python alone (until then ``unexpressed`` keeps it on
    the Python path)."""
    from scopa import kernel

    named = (kernel.PACKED_OPTIONS | kernel.ITEM_OPTIONS | kernel.MATCH_OPTIONS
             | kernel.PYTHON_OPTIONS)
    assert {f.name for f in dataclasses.fields(Rules)} == named
    for name in kernel.PYTHON_OPTIONS:  # refused: set, the deal stays in Python
        rules = dataclasses.replace(Rules(), **{name: not getattr(Rules(), name)})
        assert kernel.unexpressed(rules) == [name]
        assert pack_spec(meaning_of(rules)) is None


def test_an_option_the_kernel_does_not_take_keeps_the_python_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An option the spec does not take (here: fewest_cards, as if it were new) is refused
    when set, never silently ignored in C; at its default the spec is still made, and a
    game under the refused rules plays on, on the Python path."""
    from scopa import kernel

    monkeypatch.setattr(kernel, "PACKED_OPTIONS", kernel.PACKED_OPTIONS - {"fewest_cards"})
    monkeypatch.setattr(kernel, "_SPECS", {})  # the refusals below are not kept past this test
    plain = Rules.preset("scopa")
    fewest = dataclasses.replace(plain, fewest_cards=True)
    assert kernel.unexpressed(plain) == [] and kernel.unexpressed(fewest) == ["fewest_cards"]
    assert pack_spec(meaning_of(plain)) is not None
    assert pack_spec(meaning_of(fewest)) is None
    game = Match(fewest, seed="refused").hand
    random_playout(game, random.Random(1))
    assert game.hand_over


def test_pick_is_the_specified_lcg() -> None:
    assert pick(123, 1) == (0, 123)  # a choice of one draws nothing
    i, x = pick(123, 10)
    assert x == (123 * 6364136223846793005 + 1442695040888963407) & MASK64
    assert i == (x >> 32) * 10 >> 32
    counts = [0] * 7
    x = 99
    for _ in range(7000):
        i, x = pick(x, 7)
        counts[i] += 1
    assert min(counts) > 850 and max(counts) < 1150


@needs_kernel
@pytest.mark.parametrize("variant, players", PRESETS)
def test_random_deals_agree_on_every_preset(variant: str, players: int) -> None:
    rules = Rules.preset(variant, players=players)
    seed = 1000 + players
    python = random_deals(rules, seed, 150, pure=True)
    kernel = random_deals(rules, seed, 150)
    assert kernel == python
    assert len(set(python)) > 10  # the deals do differ
    assert all(len(t) == rules.teams for t in python)


def _played(rules: Rules, seed: int, plays: int) -> Hand:
    rng = random.Random(seed)
    g = Match(rules, seed=seed).hand
    for _ in range(plays):
        if g.hand_over:
            break
        g.play(rng.choice(g.legal_moves()))
    return g


@needs_kernel
@settings(SETTINGS, max_examples=200)
@given(rules=rules_st(), seed=st.integers(0, 2**32 - 1), plays=st.integers(0, 40),
       x=st.integers(0, MASK64), imagined=st.booleans())
def test_playouts_agree_from_any_state(rules, seed, plays, x, imagined):
    g = _played(rules, seed, plays)
    if imagined:
        g.assume_declarations()  # what the search's worlds do
    a, b = g.copy(), g.copy()
    xa = python_playout(a, x)
    xb = kernel_playout(b, x)
    assert xa == xb
    # history aside (the fast paths do not record plays), the end states are the same
    assert _state(a) == _state(b)
    assert b.hand_over and b.stock == [] and not any(b.hands)
    assert a.hand_result() == b.hand_result()
    check_conserved(dump_position(b))


@needs_kernel
@settings(SETTINGS, max_examples=300)
@given(rules=rules_st(), seed=st.integers(0, 2**32 - 1), plays=st.integers(0, 40))
def test_captures_in_the_engines_order(rules, seed, plays):
    g = _played(rules, seed, plays)
    if g.hand_over or g.deciding:
        return
    spec = spec_for(g.meaning)
    assert KERNEL is not None and spec is not None
    codes = g.legal_codes()
    for c in {code & 63 for code in codes}:
        mine = [code >> 6 for code in codes if code & 63 == c]
        got = list(KERNEL.captures(spec, g.table, RANK[c]))
        assert got == ([] if mine == [0] else mine)


@needs_kernel
@settings(SETTINGS, max_examples=300)
@given(rules=rules_st(), owners=st.lists(st.integers(0, 6), min_size=40, max_size=40),
       scope=st.lists(st.integers(0, 9), min_size=6, max_size=6),
       declared=st.lists(st.integers(0, 13), min_size=6, max_size=6))
def test_points_agree(rules, owners, scope, declared):
    n = rules.players
    captured = [0] * n
    for c, seat in enumerate(owners):
        if seat < n:
            captured[seat] |= 1 << c
    spec = spec_for(meaning_of(rules))
    assert KERNEL is not None and spec is not None
    expected = hand_totals(rules, captured, scope[:n], declared[:n])
    assert list(KERNEL.totals(spec, captured, scope[:n], declared[:n])) == expected


def test_random_playout_is_one_seed_from_the_rng() -> None:
    """Whichever path runs, ``random_playout`` is the Python reference seeded by one
    64-bit draw."""
    for variant, players in PRESETS:
        g = _played(Rules.preset(variant, players=players), 7, 5)
        a, b = g.copy(), g.copy()
        random_playout(a, random.Random(3))
        python_playout(b, random.Random(3).getrandbits(64))
        assert _state(a)[:11] == _state(b)[:11]
        assert a.hand_result() == b.hand_result()


@needs_kernel
def test_bad_input_is_refused_and_changes_nothing() -> None:
    assert KERNEL is not None
    g = _played(Rules.preset("scopa"), 1, 3)
    spec = spec_for(g.meaning)
    before = g.copy()
    args = [spec, g.hands, g.captured, g.scope, g.declared, g.shown, g.stock, g.table,
            g.to_move, g.in_hands, g.last_capturer, g.round, g.dealer, g.undecided, 5]
    for i, bad, err in [
        (0, b"short", TypeError),
        (1, g.hands[:1], TypeError),
        (6, [99], ValueError),
        (8, 7, ValueError),
    ]:
        with pytest.raises(err):
            KERNEL.playout(*args[:i], bad, *args[i + 1:])
        assert _state(g) == _state(before)
    empty = Hand.from_parts(
        g.rules, dealer=1, to_move=0, hands=[0, 0], table=0, stock=[], captured=[0, 0],
        scope=[0, 0], last_capturer=-1, scores=[0, 0], round=5,
    )
    with pytest.raises(ValueError, match="no card"):
        KERNEL.playout(spec, [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [], 0, 0, 0, -1, 5, 1,
                       0, 5)
    assert empty.hand_over  # nothing to play: random_playout itself returns at once


def test_the_environment_variable_forces_python() -> None:
    code = "from scopa.kernel import KERNEL; print(KERNEL is None)"
    env = {**os.environ, PURE_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "True"


@needs_kernel
@settings(SETTINGS, max_examples=60)
@given(rules=rules_st(), seed=st.integers(0, MASK64))
def test_random_deals_agree_with_any_options(rules, seed):
    assert random_deals(rules, seed, 5) == random_deals(rules, seed, 5, pure=True)


@needs_kernel
@settings(SETTINGS, max_examples=150)
@given(rules=rules_st(), seed=st.integers(0, 2**32 - 1), plays=st.integers(0, 40),
       x=st.integers(0, MASK64), imagined=st.booleans())
def test_capture_rollouts_agree(rules, seed, plays, x, imagined):
    """The kernel's capture policy plays exactly as ``python_capture_playout``."""
    rng = random.Random(seed)
    g = Match(rules, seed=seed).hand
    for _ in range(plays):
        if g.hand_over:
            break
        g.play(rng.choice(g.legal_moves()))
    if imagined:
        g.assume_declarations()
    a, b = g.copy(), g.copy()
    xa = python_capture_playout(a, x)
    xb = kernel_policy_playout(b, x, CAPTURE_POLICY, CAPTURE_PROB)
    if g.hand_over:
        assert xb is None
        return
    assert xa == xb
    fields = ("hands", "table", "tkey", "stock", "captured", "scope", "last_capturer",
              "round", "in_hands", "hand_over", "declared", "shown", "undecided")
    assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
    assert a.hand_result() == b.hand_result()


def test_only_the_kernel_module_asks_whether_the_kernel_runs() -> None:
    """"Kernel or Python" is decided behind ``scopa.kernel`` (``spec_for``, ``totals``,
    ``layout``): no other module of the package reads the compiled module itself."""
    src = Path(__file__).parents[2] / "src" / "scopa"
    readers = sorted(str(p.relative_to(src)) for p in src.rglob("*.py")
                     if p.name != "kernel.py" and re.search(r"\bKERNEL\b", p.read_text("utf-8")))
    assert readers == []
