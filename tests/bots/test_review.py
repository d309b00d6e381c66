"""The game review (scopa.bots.review): fair views only, forced plays cost nothing, marks."""

from __future__ import annotations

import random

import pytest

from scopa import Rules
from scopa.bots import review as rv
from scopa.bots.exact import solve
from scopa.bots.search import oracle_exact
from scopa.cards import CARD_BY_TEXT
from scopa.match import Match
from scopa.moves import Move
from scopa.record import game_record
from scopa.view import PlayerView

SIMS = 120


def _deck(seed: str) -> list[int]:
    deck = game_record(Match(Rules.preset(), seed=seed))["hands"][0]["deck"]
    return [CARD_BY_TEXT[c] if isinstance(c, str) else c for c in deck]


def _played_hand(seed: str, rng_seed: int) -> Match:
    rng = random.Random(rng_seed)
    game = Match(Rules.preset(), seed=seed)
    while not game.hand.hand_over:
        game.hand.play(rng.choice(game.hand.legal_moves()))
    return game


def test_a_review_reads_only_what_the_seat_could_see() -> None:
    """Two deals that differ only in cards the first mover cannot see (the other hand and
    the stock, shuffled among themselves) give the same view, so a fair review values the
    first play identically; a review that read the hands or the stock would not."""
    deck = _deck("fair-review")
    a = Match(Rules.preset(), deck=list(deck))
    seat = a.hand.to_move
    seen = a.hand.hands[seat] | a.hand.table
    hidden_at = [i for i, c in enumerate(deck) if not seen >> c & 1]
    hidden = [deck[i] for i in hidden_at]
    random.Random(7).shuffle(hidden)
    other = list(deck)
    for i, c in zip(hidden_at, hidden, strict=True):
        other[i] = c
    b = Match(Rules.preset(), deck=other)
    assert a.hand.to_move == b.hand.to_move == seat
    assert PlayerView.of(a.hand, seat) == PlayerView.of(b.hand, seat)
    opponent = 1 - seat
    assert a.hand.hands[opponent] != b.hand.hands[opponent]  # the hidden cards do differ
    move = a.hand.legal_moves()[-1]
    assert len(a.hand.legal_moves()) > 1
    reviews = []
    for game in (a, b):
        game.hand.play(move)
        rec = game_record(game)
        reviews.append(rv.review_record(rec, simulations=SIMS, seed=3))
    first_a, first_b = reviews[0].plays[0], reviews[1].plays[0]
    assert (first_a.hand, first_a.index, first_a.seat) == (1, 1, seat)
    assert first_a.played_value is not None and first_a.choices > 1
    # the fair part (everything but the hindsight, which sees every card by design)
    assert first_a.fair() == first_b.fair()
    assert first_a.hindsight_best is not None and first_b.hindsight_best is not None


def test_forced_plays_lose_nothing_and_marks_follow_the_loss() -> None:
    game = _played_hand("forced-review", 5)
    review = rv.review_record(game_record(game), simulations=SIMS, seed=1)
    assert len(review.plays) == len(game.hand.history)
    forced = [p for p in review.plays if p.choices == 1]
    assert forced, "a hand ends with forced plays"
    for p in forced:
        assert p.loss == 0.0 and p.mark is None and p.played == p.best
    for p in review.plays:
        assert p.loss >= 0.0
        assert p.mark == rv.mark_of(p.loss)
        if p.played == p.best:
            assert p.loss == 0.0
        elif p.played_value is not None and p.best_value is not None:
            assert p.loss == pytest.approx(p.best_value - p.played_value, abs=0.002)
    for s in review.seats:
        mine = [p for p in review.plays if p.seat == s.seat]
        assert s.plays == len(mine)
        assert s.average_loss == pytest.approx(sum(p.loss for p in mine) / len(mine), abs=0.001)
        assert [p.loss for p in s.costliest] == sorted(
            (p.loss for p in mine if p.loss > 0), reverse=True)[:3]


def test_the_same_seed_gives_the_same_review() -> None:
    rec = game_record(_played_hand("again-review", 2))
    assert rv.review_record(rec, SIMS, seed=4) == rv.review_record(rec, SIMS, seed=4)


def test_marks_by_thresholds() -> None:
    assert rv.INACCURACY < rv.MISTAKE < rv.BLUNDER
    assert rv.mark_of(0.0) is None
    assert rv.mark_of(rv.INACCURACY) == "inaccuracy"
    assert rv.mark_of(rv.MISTAKE) == "mistake"
    assert rv.mark_of(rv.BLUNDER + 3) == "blunder"


def test_a_budget_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="simulations"):
        rv.review_record(game_record(_played_hand("x", 1)), simulations=0)


def test_the_fair_judgement_is_the_same_whatever_the_hidden_cards() -> None:
    """The fair part of a play's review is a function of the view alone: judged with the
    same view and two true positions that differ in hidden cards, only the hindsight may
    differ (the review's own seam, ``judge``)."""
    deck = _deck("fair-review")
    a = Match(Rules.preset(), deck=list(deck))
    seat = a.hand.to_move
    seen = a.hand.hands[seat] | a.hand.table
    hidden_at = [i for i, c in enumerate(deck) if not seen >> c & 1]
    other = list(deck)
    hidden = [deck[i] for i in hidden_at][::-1]
    for i, c in zip(hidden_at, hidden, strict=True):
        other[i] = c
    b = Match(Rules.preset(), deck=other)
    view = PlayerView.of(a.hand, seat)
    move = a.hand.legal_moves()[0]
    ja = rv.judge(rv.Decision(view, move, 1, 1, a.hand.copy()), SIMS, 2)
    jb = rv.judge(rv.Decision(view, move, 1, 1, b.hand.copy()), SIMS, 2)
    assert ja is not None and jb is not None
    assert ja.fair() == jb.fair()
    assert ja.mark == rv.mark_of(ja.loss)  # the mark is the fair loss's, never hindsight's


def test_hindsight_is_judged_with_every_card_seen() -> None:
    """In a hand's last round the hindsight is exact: its loss is the exact solver's, on
    the true position (every hand seen), between its best play and the play made."""
    game = _played_hand("hindsight-review", 3)
    review = rv.review_record(game_record(game), simulations=SIMS, seed=5)
    replay = Match(Rules.preset(), seed="hindsight-review")
    checked = 0
    for p in review.plays:
        h = replay.hand
        assert p.seat == h.to_move
        move = next(m for m in h.legal_moves() if str(m) == p.played)
        if oracle_exact(h) and len(h.legal_codes()) > 1:
            side = h.to_move % h.rules.teams
            exact = {}
            for m in h.legal_moves():
                g = h.copy()
                g.play(m)
                exact[str(m)] = solve(g, side)
            assert p.hindsight_exact is True
            assert p.hindsight_best is not None and p.hindsight_loss is not None
            assert p.hindsight_loss == pytest.approx(
                max(exact.values()) - exact[p.played], abs=0.001)
            assert exact[p.hindsight_best] == pytest.approx(max(exact.values()))
            checked += 1
        else:
            assert p.hindsight_loss is not None and p.hindsight_loss >= 0.0
        h.play(Move.from_code(move.code))
    assert checked >= 2, "the last round has choices to check"
