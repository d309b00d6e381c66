"""Teach me lists exactly the legal moves, marks the strongest, can pick one, and coaches:
the reasons of each move and its margin in words, in English and Italian from the same
structured messages the server sends (rendered by the browser as Python renders them)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from scripted import analysis, state, view
from web_helpers import (
    last_state,
    play_turn,
    record_frames,
    shot,
    start_table,
    switch_language,
    wait_my_turn,
)

from scopa.messages import message, render, sentence

pytestmark = pytest.mark.browser


def listed_moves(page):  # type: ignore[no-untyped-def]
    items = page.locator(".teach-list > li")
    return {
        (items.nth(i).get_attribute("data-card"), items.nth(i).get_attribute("data-capture"))
        for i in range(items.count())
    }


def legal_moves(frames):  # type: ignore[no-untyped-def]
    return {(m["card"], "+".join(m["capture"])) for m in last_state(frames)["legal_moves"]}


def last_analysis(frames):  # type: ignore[no-untyped-def]
    """The newest analysis the page was sent."""
    return next(f for f in reversed(frames) if f.get("type") == "analysis")


BEST_EN = re.compile(r"^(The strongest move|Every move loses some points here|It is your only)")
BEST_IT = re.compile(r"^(La mossa migliore|Qui ogni mossa fa perdere|È la tua unica)")
MOVE_IT = re.compile(r"^(Cala|Prendi|Fai scopa)")


def test_teach_me_lists_exactly_the_legal_moves(server, page, artifacts):
    frames = record_frames(page)
    start_table(page, server, seat2="bot:beginner")
    wait_my_turn(page)
    page.check("#teach")
    for turn in range(3):
        wait_my_turn(page)
        expect(page.locator(".teach-list > li").first).to_be_visible(timeout=30_000)
        expected = legal_moves(frames)
        expect(page.locator(".teach-list > li")).to_have_count(len(expected))
        assert listed_moves(page) == expected
        expect(page.locator(".teach-list > li.best")).to_have_count(1)
        expect(page.locator(".teach-list > li.best .badge")).to_be_visible()
        # every move shows exactly its own reasons, and the reasons all moves share are said
        # once above them (a deal where every move shares them all leaves the lists empty)
        answer = last_analysis(frames)
        own = {(m["move"]["card"], "+".join(m["move"].get("capture", []))): len(m["reasons"])
               for m in answer["moves"]}
        assert sum(own.values()) + len(answer["common"]) > 0, "no reason at all"
        for i in range(len(expected)):
            item = page.locator(".teach-list > li").nth(i)
            key = (item.get_attribute("data-card"), item.get_attribute("data-capture"))
            expect(item.locator(".why li")).to_have_count(own[key])
        expect(page.locator(".teach-common .why li")).to_have_count(len(answer["common"]))
        expect(page.locator(".teach-list > li.best .margin")).to_have_text(BEST_EN)
        if turn == 0:
            shot(page, artifacts, "teach-01-list")
            switch_language(page)  # Italian at once, from the same answer
            expect(page.locator(".teach-list > li.best .margin")).to_have_text(BEST_IT)
            expect(page.locator(".teach-move").first).to_have_text(MOVE_IT)
            shot(page, artifacts, "teach-03-live-italian")
            switch_language(page)
            expect(page.locator(".teach-list > li.best .margin")).to_have_text(BEST_EN)
            # picking the strongest move from the list selects it for Play
            page.click(".teach-list > li.best .teach-move")
            best = page.locator(".teach-list > li.best")
            card = best.get_attribute("data-card")
            expect(page.locator(f'.hand [data-card="{card}"]')).to_have_attribute(
                "aria-pressed", "true"
            )
            page.click(".chooser .play")
        else:
            play_turn(page)
    # switched off: the list goes away
    wait_my_turn(page)
    page.uncheck("#teach")
    expect(page.locator(".teach")).to_have_count(0)


def expect_coaching(page, lang: str) -> None:  # type: ignore[no-untyped-def]
    """The page shows exactly Python's rendering of the scripted analysis in ``lang``."""
    frame = analysis()
    items = page.locator(".teach-list > li")
    expect(items).to_have_count(len(frame["moves"]))
    expect(page.locator(".teach-context")).to_have_text(
        [sentence(m, lang) for m in frame["context"]]
    )
    expect(page.locator(".teach-common li")).to_have_text(
        [sentence(m, lang) for m in frame["common"]]
    )
    for i, entry in enumerate(frame["moves"]):
        item = items.nth(i)
        expect(item.locator(".teach-move")).to_have_text(sentence(entry["label"], lang))
        expect(item.locator(".why li")).to_have_text([sentence(m, lang) for m in entry["reasons"]])
        expect(item.locator(".margin")).to_have_text(
            " ".join(sentence(m, lang) for m in entry["margin"])
        )


def test_teach_me_coaches_in_english_and_italian(scripted, artifacts):
    page, sent, _ = scripted
    page.check("#teach")
    expect_coaching(page, "en")
    items = page.locator(".teach-list > li")
    expect(items.nth(0)).to_have_class("best")
    # the words themselves, not only the same as Python's
    expect(items.nth(0).locator(".teach-move")).to_have_text(
        "Take the 2 of cups, the 3 of swords and the 5 of clubs with the king of clubs"
    )
    expect(items.nth(0).locator(".margin")).to_contain_text(
        "The strongest move: about a quarter of a point better than taking the 4 of coins"
        " and the 3 of swords with the 7 of coins."
    )
    expect(items.nth(1).locator(".why li").first).to_have_text(
        "It wins the settebello, a point by itself."
    )
    expect(items.nth(3).locator(".margin")).to_have_text(
        "About a point worse than the strongest move."
    )
    expect(page.locator(".teach-context")).to_contain_text("Still unseen:")
    shot(page, artifacts, "teach-02-english")
    # Italian at once, from the same answer: nothing is asked again
    switch_language(page)
    expect_coaching(page, "it")
    expect(items.nth(0).locator(".teach-move")).to_have_text(
        "Prendi il due di coppe, il tre di spade e il cinque di bastoni con il re di bastoni"
    )
    expect(items.nth(1).locator(".why li").first).to_have_text(
        "Prendi il settebello, che vale un punto da solo."
    )
    expect(items.nth(0).locator(".badge")).to_have_text("la migliore")
    shot(page, artifacts, "teach-02-italian")
    assert [f for f in sent if f["type"] == "teach"] == [{"type": "teach", "state_id": 5}]


@pytest.mark.busy_teach("busy")
def test_teach_me_asks_again_when_the_analyses_are_all_taken(scripted):
    page, sent, _ = scripted
    page.check("#teach")
    expect(page.locator(".teach-list > li")).to_have_count(4)
    assert [f for f in sent if f["type"] == "teach"] == [{"type": "teach", "state_id": 5}] * 2


@pytest.mark.busy_teach
def test_teach_me_asks_again_when_the_server_is_busy(scripted):
    page, sent, _ = scripted
    page.check("#teach")
    expect(page.locator(".teach-list > li")).to_have_count(4)
    assert [f for f in sent if f["type"] == "teach"] == [{"type": "teach", "state_id": 5}] * 2


def test_the_last_play_line_says_the_catalogues_words_in_both_languages(scripted):
    """The last-play line uses the keys the terminal uses (table.lastTake, table.last)."""
    page, _, sockets = scripted
    event = {"kind": "move", "seat": 0, "card": "3c", "capture": ["3s"], "scopa": False,
             "by": "human"}  # fmt: skip
    after = view(
        to_move=1, hand=["7d", "10b"], hand_sizes=[2, 3], table=["4d", "2c", "5b"],
        captured=[["1d", "2d", "3s", "3c"], ["6c"]],
        history=[{"seat": 0, "card": "3c", "capture": ["3s"], "scopa": False}],
    )  # fmt: skip
    sockets[-1].send(state(6, after, [], event))
    took = message("table.lastTake", name="Anna", cards={"cards": ["3s"]}, card={"card": "3c"})
    for lang in ("en", "it"):
        line = render(message("table.last", text=render(took, lang)), lang)
        expect(page.locator(".last-play")).to_have_text(line)
        switch_language(page)
    assert line == "Ultima giocata: Anna ha preso il tre di spade con il tre di coppe"


def test_what_every_move_shares_is_said_once_above_the_list(scripted):
    page, _, sockets = scripted
    page.check("#teach")
    expect(page.locator(".teach-list > li")).to_have_count(4)
    shared = {"key": "why.exposes", "args": {"cards": {"cards": ["7c"]}, "n": 2}}
    sockets[-1].send(json.dumps({**analysis(), "common": [shared]}))
    expect(page.locator(".teach-common")).to_contain_text("Whatever you play:")
    expect(page.locator(".teach-common li")).to_have_text(
        "It leaves the 7 of cups on the table for the 2 unseen sevens."
    )
    switch_language(page)
    expect(page.locator(".teach-common")).to_contain_text("Qualunque carta giochi:")
    expect(page.locator(".teach-common li")).to_have_text(sentence(shared, "it"))
