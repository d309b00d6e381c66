"""Puzzles from bot games (``bots.puzzles``): made deterministically from a seed, each one's
best play leading every other by the margin in every deal of the hidden cards, verified
again from its view alone; a puzzle tampered with is refused with a reason."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest

from scopa.bots import puzzles as P
from scopa.cards import ALL_CARDS
from scopa.rules import Rules
from scopa.view import PlayerView

SEED = 7


@cache
def made() -> tuple[dict[str, Any], ...]:
    return tuple(P.make(4, SEED))


def fresh(i: int = 0) -> dict[str, Any]:
    """A made puzzle as a loaded file gives it (through JSON), to change at will."""
    out: dict[str, Any] = json.loads(json.dumps(made()[i]))
    return out


def test_the_same_seed_makes_the_same_puzzles() -> None:
    again = P.make(4, SEED)
    assert [p["id"] for p in again] == [p["id"] for p in made()]
    assert len(made()) == 4 and len({p["id"] for p in made()}) == 4
    assert P.make(2, SEED + 1)[0]["id"] != made()[0]["id"]


def test_every_made_puzzle_verifies_and_its_best_play_leads_by_the_margin() -> None:
    for puzzle in made():
        assert P.verify(fresh(made().index(puzzle)))["id"] == puzzle["id"]
        view = P.view_of(puzzle["view"])
        solved = P.solved_view(view)
        best = solved.codes.index(P.move_code(view, puzzle["best"]))
        for deal in solved.values:  # the margin rule, read off the solved values directly
            assert all(deal[best] - v >= P.MARGIN for i, v in enumerate(deal) if i != best)
        assert puzzle["plays"][0]["best"] and puzzle["plays"][0]["move"] == puzzle["best"]
        assert min(p["lead"] for p in puzzle["plays"]) >= P.MARGIN
        assert P.RATING_RANGE[0] <= puzzle["rating"] <= P.RATING_RANGE[1]
        assert puzzle["reason"]["args"]["n"] >= P.MARGIN


def test_the_margin_rule_keeps_only_a_lead_in_every_deal() -> None:
    codes = [1, 2, 3]
    clear = P.Solved(codes, [[3.0, 1.0, 2.0], [2.0, 0.0, 1.0]])
    assert P.margin_holds(clear, 0)
    close = P.Solved(codes, [[3.0, 1.0, 2.0], [2.0, 0.0, 1.5]])  # half a point in one deal
    assert not P.margin_holds(close, 0)
    assert P.margin_holds(close, 0, margin=0.5)
    flipped = P.Solved(codes, [[3.0, 1.0, 2.0], [0.0, 0.0, 4.0]])  # best on average only
    assert P.best_index(flipped) == 2 and not P.margin_holds(flipped, P.best_index(flipped))
    assert not P.margin_holds(P.Solved([1], [[5.0]]), 0)  # one play is no puzzle
    # each play's least lead of the best over it; the best's own: over the runner-up
    assert clear.leads(0) == [1.0, 2.0, 1.0]


def test_a_position_whose_margin_fails_is_never_made_and_is_refused() -> None:
    """Take a last-round position of a bot game whose best play does not lead by the
    margin, dress it as a puzzle, and see verification refuse it."""
    rules = Rules.preset()
    for n in range(30):
        for view in P.positions(rules, f"m:{n}", ("heuristic", "greedy")):
            if P.kind_of(view) != "last_round":
                continue
            solved = P.solved_view(view)
            if P.margin_holds(solved, P.best_index(solved)):
                continue
            assert P.solve_view(view, screen=P.MARGIN) is None
            fake = P.puzzle_of(view, solved, "test")
            with pytest.raises(P.PuzzleError, match="does not lead every other"):
                P.verify(json.loads(json.dumps(fake)))
            return
    raise AssertionError("no position without a clear best play in 30 hands")


def test_a_puzzle_tampered_to_a_worse_play_is_refused() -> None:
    p = fresh()
    worse = next(x for x in p["plays"] if not x["best"])
    p["best"] = worse["move"]
    with pytest.raises(P.PuzzleError, match="is not the best"):
        P.verify(p)


@pytest.mark.parametrize("change, words", [
    (lambda p: p["plays"][0].update(value=p["plays"][0]["value"] + 1), "stored plays"),
    (lambda p: p["view"]["hand"].append(p["view"]["table"][0]) if p["view"]["table"]
     else p["view"]["hand"].append(p["view"]["captured"][0][0]), "twice"),
    (lambda p: p["view"]["table"].pop() if p["view"]["table"] else p["view"]["captured"][0].pop(),
     "id|add up"),
    (lambda p: p.update(kind="every_deal"), "not a every_deal"),
    (lambda p: p.update(deals=9), "deals"),
    (lambda p: p.update(variant="cirulla"), "variant"),
    (lambda p: p.update(format=2), "format"),
    (lambda p: p["view"].update(seat=1 - p["view"]["seat"]), "seat to move"),
    (lambda p: p["view"]["rules"].update(players=3), "two players|malformed|seat"),
    (lambda p: p.update(best={"card": "zz"}), "card|move|legal"),
    (lambda p: p.update(rating=2300), "stored rating"),
    (lambda p: p["reason"]["args"].update(n=9), "stored reason"),
    (lambda p: p["explained"]["moves"][0].update(value=9), "stored explained"),
    (lambda p: p["plays"][0].update(value=float("inf")), "stored plays"),
    (lambda p: p["view"].update(scores=[1e309, 0]), "malformed"),
    (lambda p: p.update(source="a\x1b[31m"), "printable"),
    (lambda p: p.update(extra=1), "fields"),
])
def test_each_kind_of_damage_is_refused_with_its_reason(change: Any, words: str) -> None:
    p = fresh(1)
    change(p)
    with pytest.raises(P.PuzzleError, match=words):
        P.verify(p)


def test_damage_of_any_kind_anywhere_is_a_puzzle_error() -> None:
    """Every field of a puzzle replaced by odd values, one at a time: each is refused as a
    ``PuzzleError`` (never another exception, which would be a traceback on load) or, for
    a change that changes nothing, still verifies."""
    odd: list[Any] = [None, 5, -1, 1e309, "x", "\x00", [], {}, [1, 2], True, "7d", ["7d"],
                      10 ** 30]
    base = fresh(0)

    def paths(o: Any, pre: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) \
            else []
        return [p for k, v in items for p in [(*pre, k), *paths(v, (*pre, k))]]

    for i, path in enumerate(paths(base)):
        if path[0] == "explained" and len(path) > 3:
            continue  # its words: the same check as their parents', many times
        p = copy.deepcopy(base)
        here = p
        for key in path[:-1]:
            here = here[key]
        here[path[-1]] = odd[i % len(odd)]
        try:
            P.verify(p)
        except P.PuzzleError:
            continue
        assert p == base or path[0] == "source", path


def test_a_changed_view_is_caught_even_with_its_id_recomputed() -> None:
    p = fresh(2)
    p["view"]["scores"] = [3, 0]  # harmless to the values, but another puzzle: a new id
    with pytest.raises(P.PuzzleError, match="id"):
        P.verify(copy.deepcopy(p))
    p["id"] = P.puzzle_id(p)
    P.verify(p)  # the scores do not change a hand's values: still a sound puzzle


def test_what_the_solver_is_shown_holds_no_answer_and_no_hidden_card() -> None:
    for puzzle in made():
        shown = P.fair_view(puzzle)
        assert set(shown) == {"id", "kind", "variant", "view"}
        text = json.dumps(shown)
        for word in ("best", "plays", "value", "lead", "reason", "explained", "margin"):
            assert f'"{word}"' not in text
        view = P.view_of(shown["view"])
        # the other hand is not listed: only its size
        listed = view.hand | view.table
        for pile in view.captured:
            listed |= pile
        assert listed | view.unseen() == ALL_CARDS
        assert view.unseen().bit_count() == view.hand_sizes[1 - view.seat] + view.stock_size


def test_every_deal_worlds_are_each_split_once_and_agree_with_the_view() -> None:
    rules = Rules.preset()
    for n in range(10):
        for view in P.positions(rules, f"w:{n}", ("heuristic", "heuristic")):
            if P.kind_of(view) != "every_deal":
                continue
            count = P.deal_count(view)
            assert count is not None and count <= P.MAX_DEALS
            worlds = list(P.worlds(view))
            assert len(worlds) == count
            seen = set()
            for w in worlds:
                again = PlayerView.of(w, view.seat)
                assert (again.hand, again.table, again.captured, again.hand_sizes,
                        again.stock_size) == (view.hand, view.table, view.captured,
                                              view.hand_sizes, view.stock_size)
                other = w.hands[1 - view.seat]
                g = w.copy()
                while g.stock:  # deal the last round as the game would
                    g.hands = [0, 0]
                    g.in_hands = 0
                    g._deal_round()
                seen.add((other, tuple(g.hands)))
            assert len(seen) == count
            return
    raise AssertionError("no every-deal position in 10 hands")


def test_rules_without_a_puzzle_form_are_refused() -> None:
    with pytest.raises(P.PuzzleError, match="two players"):
        P.make(1, 0, "scopone")
    with pytest.raises(P.PuzzleError, match="declarations"):
        P.make(1, 0, "cirulla")
