"""Teach-me reasons on constructed positions: each situation gets the reason it deserves,
and the margins are put in words relative to the best move."""

from __future__ import annotations

import dataclasses

import pytest

from scopa import Move, Rules
from scopa.bots.analysis import judge, payload
from scopa.bots.explain import amount, describe, doing, reasons, still_to_come, verdict
from scopa.messages import Message, cards, ranks, render, sentence

from .helpers import view_2p


def keys(messages: list[Message]) -> list[str]:
    return [m["key"] for m in messages]


def find(messages: list[Message], key: str) -> Message:
    found = [m for m in messages if m["key"] == key]
    assert len(found) == 1, keys(messages)
    return found[0]


#: 30 cards left to play: plenty of hand to come
FULL_UNSEEN = ["9b", "1s", "5c", "6d", "8b", "1b", "10s", "2s"]


def test_a_lay_that_leaves_a_sweep_names_the_risk_and_how_many_can_take_it() -> None:
    view = view_2p(hand=["2c", "10b"], table=["3s", "4c"], unseen=FULL_UNSEEN, opp=2)
    said = reasons(view, Move.parse("2c"))
    assert keys(said) == ["why.lays", "why.risk"]
    risk = find(said, "why.risk")["args"]
    assert risk["total"] == 9 and risk["n"] == 1 and risk["ranks"] == ranks(9)
    assert sentence(find(said, "why.risk")) == (
        "It leaves 9 on the table: an opponent holding the last unseen knight could sweep it."
    )
    assert "cavallo" in render(find(said, "why.risk"), "it")


def test_a_lay_that_leaves_too_much_to_sweep_says_it_is_safe() -> None:
    view = view_2p(hand=["2c", "10b"], table=["3s", "4c"], unseen=FULL_UNSEEN, opp=2)
    said = reasons(view, Move.parse("10b"))
    assert keys(said) == ["why.lays", "why.safe"]
    assert find(said, "why.safe")["args"]["total"] == 17


def test_a_sweep_rank_all_seen_is_no_risk() -> None:
    # every 7 is seen (in hand or pile): leaving 7 risks nothing
    view = view_2p(hand=["3c", "10b"], table=["3s", "4c"], unseen=FULL_UNSEEN, opp=2)
    said = reasons(view, Move.parse("3c:3s"))
    assert "why.risk" not in keys(said)
    assert find(said, "why.riskGone")["args"] == {"total": 4, "rank": {"rank": 4}}


def test_a_sweep_with_the_settebello_gets_the_sweep_prizes_and_an_empty_table() -> None:
    view = view_2p(hand=["7d", "2c"], table=["3s", "4c"], unseen=FULL_UNSEEN, opp=2)
    said = reasons(view, Move.parse("7d:3s+4c"))
    assert keys(said) == ["why.sweep", "why.settebello", "why.coins", "why.pile", "why.empty"]
    assert find(said, "why.coins")["args"] == {"n": 1}
    assert sentence(find(said, "why.coins")) == "It wins a coin toward the most coins."
    assert find(said, "why.pile")["args"] == {"n": 3}


def test_two_sevens_count_for_the_primiera() -> None:
    view = view_2p(hand=["7c", "2c"], table=["7s", "4c"], unseen=FULL_UNSEEN, opp=2)
    said = reasons(view, Move.parse("7c:7s"))
    assert find(said, "why.sevens")["args"] == {"n": 2}
    assert "why.settebello" not in keys(said)


def test_laying_a_seven_offers_it_to_the_unseen_sevens() -> None:
    view = view_2p(hand=["7d", "10b"], table=["10s"],
                   unseen=["7c", "7s", "1b", "2b", "3b", "4b", "5b", "6b"], opp=2)
    said = reasons(view, Move.parse("7d"))
    assert find(said, "why.exposes")["args"] == {"cards": cards([6]), "n": 2}
    assert sentence(find(said, "why.exposes")) == (
        "It leaves the 7 of coins on the table for the 2 unseen sevens."
    )
    assert render(find(said, "why.exposes"), "it") == (
        "Lasci il sette di denari in tavola ai 2 sette non ancora usciti."
    )


def test_leaving_the_settebello_on_the_table_names_it_and_taking_it_does_not() -> None:
    view = view_2p(hand=["7c", "10b"], table=["7d", "2s"],
                   unseen=["7s", "1c", "1b", "2b", "3b", "4b", "5b", "6b"], opp=2)
    left = reasons(view, Move.parse("10b"))
    assert find(left, "why.exposes")["args"] == {"cards": cards([6]), "n": 1}
    assert sentence(find(left, "why.exposes")) == (
        "It leaves the 7 of coins on the table for the last unseen seven."
    )
    taken = reasons(view, Move.parse("7c:7d"))
    assert "why.exposes" not in keys(taken) and "why.settebello" in keys(taken)


def test_the_hands_last_play_clears_without_a_scopa_and_leaves_nothing_to_fear() -> None:
    view = view_2p(hand=["7d"], table=["3s", "4c"], unseen=[], opp=0)
    assert not view.rules.last_sweep_counts
    said = reasons(view, Move.parse("7d:3s+4c"))
    assert keys(said)[0] == "why.clear"
    assert not {"why.empty", "why.risk", "why.safe"} & set(keys(said))


def test_still_to_come_counts_the_unseen_prizes() -> None:
    view = view_2p(hand=["2c", "10b"], table=["3s"],
                   unseen=["7d", "7c", "1d", "2d", "1b", "2b", "3b", "4b"], opp=2)
    msg = still_to_come(view)
    assert msg is not None
    assert sentence(msg) == "Still unseen: the settebello, one other seven and 3 coins."
    assert sentence(msg, "it") == "Ancora da uscire: il settebello, un altro sette e 3 denari."
    bare = view_2p(hand=["2c", "10b"], table=["3s"],
                   unseen=["1b", "2b", "3b", "4b", "5b", "6b", "8b", "9b"], opp=2)
    assert still_to_come(bare) is None


LAY_KING = Move.parse("10b")
TAKE = Move.parse("3c:3s")


@pytest.mark.parametrize(("points", "key"), [
    (0.1, "amount.slight"), (0.3, "amount.quarter"), (0.5, "amount.half"),
    (0.8, "amount.threeQuarters"), (1.0, "amount.one"), (1.5, "amount.oneHalf"),
    (2.2, "amount.n"),
])  # fmt: skip
def test_margins_in_words(points: float, key: str) -> None:
    assert amount(points)["key"] == key


def test_the_best_move_is_compared_with_the_next_best() -> None:
    ranked = [(TAKE, 0.8), (LAY_KING, 0.3)]
    best = verdict(ranked, 0)
    assert best[0] == {"key": "compare.best",
                       "args": {"amount": amount(0.5), "move": doing(LAY_KING)}}
    assert sentence(best[0]) == (
        "The strongest move: about half a point better than laying the king of clubs."
    )
    assert best[1]["key"] == "expect.ahead"
    worse = verdict(ranked, 1)
    assert sentence(worse[0]) == "About half a point worse than the strongest move."
    assert render(worse[0], "it") == "Rende circa mezzo punto meno della mossa migliore."


def test_when_every_move_loses_the_best_says_so_plainly() -> None:
    ranked = [(TAKE, -0.4), (LAY_KING, -1.4)]
    best = verdict(ranked, 0)
    assert sentence(best[0]) == (
        "Every move loses some points here; this one loses least: about a point less than"
        " laying the king of clubs."
    )
    assert best[1]["key"] == "expect.behind"
    tied = verdict([(TAKE, -0.4), (LAY_KING, -0.42)], 0)
    assert tied[0]["key"] == "compare.bestLosesTie"


def test_near_equal_moves_are_about_as_good_and_a_lone_move_is_the_only_one() -> None:
    ranked = [(TAKE, 0.41), (LAY_KING, 0.4)]
    assert verdict(ranked, 0)[0]["key"] == "compare.bestTie"
    assert verdict(ranked, 1)[0] == {"key": "compare.tie", "args": {}}
    assert verdict([(TAKE, 0.0)], 0)[0]["key"] == "compare.only"
    assert verdict([(TAKE, 0.0)], 0)[1]["key"] == "expect.level"


def test_a_sweep_that_does_not_score_in_asso_pigliatutto_is_a_clear() -> None:
    rules = Rules.preset("asso-pigliatutto")
    assert not rules.ace_sweep_scopa
    view = view_2p(hand=["1c", "2c"], table=["3s", "4c"], unseen=FULL_UNSEEN, opp=2)
    view = dataclasses.replace(view, rules=rules)
    said = reasons(view, Move.parse("1c:3s+4c"))
    assert keys(said)[0] == "why.clear"
    assert render(describe(view, Move.parse("1c:3s+4c"))) == (
        "Take the 4 of cups and the 3 of swords with the ace of cups, clearing the table")


def test_reasons_every_move_shares_are_said_once_in_the_payload() -> None:
    # the settebello lies on the table and no card in hand can take it
    view = view_2p(hand=["2c", "10b"], table=["7d", "1s"],
                   unseen=["7s", "1c", "1b", "2b", "3b", "4b", "5b", "6b"], opp=2)
    values = judge(view, [(Move.parse("10b"), 0.1), (Move.parse("2c"), -0.3)])
    shared = {"key": "why.exposes", "args": {"cards": cards([6]), "n": 1}}
    assert all(shared in mv.reasons for mv in values)  # the analysis itself keeps them
    data = payload(view, values)
    assert data["common"] == [shared]
    assert all(shared not in m["reasons"] for m in data["moves"])
    assert all(m["reasons"] for m in data["moves"])
    assert sentence({"key": "common.intro", "args": {}}, "it") == "Qualunque carta giochi:"
    # one move alone: nothing to tell apart, everything stays with it
    alone = payload(view, values[:1])
    assert alone["common"] == [] and shared in alone["moves"][0]["reasons"]
