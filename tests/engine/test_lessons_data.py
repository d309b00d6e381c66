"""The Learn page's lessons (src/scopa/web/content/lessons.json) hold to the rules engine.

Every play step is a position that can happen in its variant (forty distinct cards: the
learner's hand, the table, the unseen rest a possible stock and other hands), every play
it calls right is legal there, every wrong play it explains is legal or refused as it says,
every legal play that is not right gets its own word of feedback, a step that teaches a rule
("forced") lists exactly what the engine allows for that card, and a play said to sweep
(or not) does so on the engine's table. Every counting step's answer and shown numbers are
what ``scoring.score_hand`` gives for its piles. Every language says every text.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from scopa.cards import NUM_CARDS, card, card_text, mask_of
from scopa.hand import Hand
from scopa.meaning import meaning_of
from scopa.messages import LANGUAGES
from scopa.moves import Move
from scopa.rules import VARIANTS, Rules
from scopa.scoring import score_hand

LANGS = LANGUAGES


def load_lessons() -> list[dict[str, Any]]:
    raw = resources.files("scopa").joinpath("web", "content", "lessons.json").read_text("utf-8")
    lessons: list[dict[str, Any]] = json.loads(raw)["lessons"]
    return lessons


LESSONS = load_lessons()
STEPS = [(lesson, i, step) for lesson in LESSONS for i, step in enumerate(lesson["steps"])]


def step_id(item: tuple[dict[str, Any], int, dict[str, Any]]) -> str:
    return f"{item[0]['id']}-{item[1] + 1}"


def rules_of(lesson: dict[str, Any], step: dict[str, Any]) -> Rules:
    return Rules.preset(step.get("variant", lesson["variant"]))


def cards(texts: list[str]) -> list[int]:
    out = [card(t) for t in texts]
    assert len(set(out)) == len(out), f"a card twice in {texts}"
    return out


def deal_suffixes(rules: Rules) -> set[int]:
    """The stock sizes a hand can have between rounds: the cards of the rounds still to deal."""
    sizes = [r * rules.players for r in rules.rounds]
    return {sum(sizes[i:]) for i in range(1, len(sizes) + 1)}


def position_of(rules: Rules, step: dict[str, Any]) -> Hand:
    """The step's position as the engine's ``Hand``: the learner at ``seat`` (the seats
    before it in this round of play have played one card more), the others holding unseen
    cards, the stock the largest the deal allows, the rest already taken by the learner."""
    hand = cards(step["hand"])
    table = cards(step["table"])
    assert not set(hand) & set(table), "a card both in the hand and on the table"
    n = rules.players
    seat = step.get("seat", 0)
    assert 0 <= seat < n
    h = len(hand)
    assert 1 <= h <= max(rules.rounds), f"{h} cards in hand: more than the deal gives"
    others = {s: (h - 1 if s < seat else h) for s in range(n) if s != seat}
    unseen = [c for c in range(NUM_CARDS) if c not in set(hand) | set(table)]
    held = sum(others.values())
    assert held <= len(unseen)
    if step.get("last"):
        assert held == 0, "the last play: nobody else holds a card"
        stock_size = 0
    else:
        stock_size = max((s for s in deal_suffixes(rules) if s <= len(unseen) - held), default=0)
    taken = len(unseen) - held - stock_size
    assert taken == 0 or taken >= 2, "a pile of one card cannot be taken"
    if not taken:  # nothing taken yet: the table is the first deal's, plus the plays since
        plays = sum(h - k for k in others.values())
        assert len(table) == rules.table_cards + plays, "this table cannot have been dealt"
    hands = [0] * n
    pos = 0
    for s, k in others.items():
        hands[s] = mask_of(unseen[pos:pos + k])
        pos += k
    hands[seat] = mask_of(hand)
    stock = unseen[pos:pos + stock_size]
    captured = [0] * n
    captured[seat] = mask_of(unseen[pos + stock_size:])
    return Hand.from_parts(
        rules, dealer=n - 1, to_move=seat, hands=hands, table=mask_of(table), stock=stock,
        captured=captured, scope=[0] * n, last_capturer=seat if taken else -1,
        scores=[0] * rules.teams, round=0,
    )


def move_of(play: dict[str, Any]) -> Move:
    return Move.from_cards(card(play["card"]), cards(play["capture"]))


def said(play: Move) -> str:
    return str(play)


def test_the_lessons_are_there_in_order() -> None:
    ids = [lesson["id"] for lesson in LESSONS]
    assert len(ids) == len(set(ids))
    assert ids[:7] == ["equal", "sum", "priority", "scopa", "last", "counting", "first-deal"]
    # one lesson for each variant's own rule (Scopone's teaches both of its deals)
    taught = {step.get("variant", lesson["variant"])
              for lesson in LESSONS for step in lesson["steps"]}
    assert taught == set(VARIANTS)
    assert LESSONS[6]["steps"][-1]["kind"] == "deal"


def texts_of(node: Any) -> list[dict[str, str]]:
    """Every text of a lesson (a dict keyed by the site's languages)."""
    if isinstance(node, dict):
        if set(node) == set(LANGS):
            return [node]
        return [t for v in node.values() for t in texts_of(v)]
    if isinstance(node, list):
        return [t for v in node for t in texts_of(v)]
    return []


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["id"] for lesson in LESSONS])
def test_every_text_is_in_every_language(lesson: dict[str, Any]) -> None:
    assert lesson["title"] and lesson["intro"]
    for step in lesson["steps"]:
        assert step["task"], step
        for key in ("well", "otherwise"):
            assert step["kind"] == "deal" or key in step, (key, step["task"]["en"])
        for wrong in step.get("wrong", []):
            assert "why" in wrong
    for text in texts_of(lesson):
        for lang in LANGS:
            assert isinstance(text[lang], str) and text[lang].strip(), text
        for lang in LANGS[1:]:
            assert text["en"] != text[lang] or len(text["en"]) < 20, (lang, text)


PLAYS = [s for s in STEPS if s[2]["kind"] == "play"]


@pytest.mark.parametrize("item", PLAYS, ids=[step_id(s) for s in PLAYS])
def test_each_play_step_holds_to_the_rules(
    item: tuple[dict[str, Any], int, dict[str, Any]],
) -> None:
    lesson, _, step = item
    rules = rules_of(lesson, step)
    game = position_of(rules, step)
    legal = game.legal_moves()
    right = [move_of(p) for p in step["right"]]
    if step.get("any"):  # every play is right: only lays, on an empty table
        assert not right and all(not m.capture for m in legal)
        right = legal
    assert right, "a step needs a right play"
    for m in right:
        assert m in legal, f"{said(m)} is called right but the rules refuse it"
    forced = step.get("forced")
    if forced:
        allowed = {m for m in legal if m.card == card(forced)}
        assert allowed == set(right), (
            f"the rule taught for {forced}: the engine allows {sorted(map(str, allowed))}")
    explained = {}
    for wrong in step.get("wrong", []):
        m = move_of(wrong)
        assert m not in right, f"{said(m)} is both right and wrong"
        assert (m in legal) == wrong["legal"], (
            f"{said(m)} is said to be {'legal' if wrong['legal'] else 'refused'}")
        explained[m] = wrong
    if len(step["hand"]) <= 3:  # (a Scopone hand's other plays: the step's own word)
        for m in legal:
            assert m in right or m in explained, (
                f"the legal play {said(m)} has no feedback of its own")
    after = step.get("after")
    if after:
        seat = game.to_move
        before = sum(game.scope)
        game.play(right[0])
        swept = sum(game.scope) - before == 1
        assert swept == after["sweep"], "the sweep said is not the engine's"
        for text in after.get("gets", []):
            assert game.captured[seat] >> card(text) & 1, f"{text} does not end in the pile"


COUNTS = [s for s in STEPS if s[2]["kind"] == "count"]


@pytest.mark.parametrize("item", COUNTS, ids=[step_id(s) for s in COUNTS])
def test_each_counting_step_says_what_the_score_sheet_says(
    item: tuple[dict[str, Any], int, dict[str, Any]],
) -> None:
    lesson, _, step = item
    rules = rules_of(lesson, step)
    piles = [cards(p) for p in step["piles"]]
    assert len(piles) == rules.players == len(step["scope"])
    every = [c for p in piles for c in p]
    assert sorted(every) == list(range(NUM_CARDS)), "the piles are not the forty cards"
    sheet = score_hand(rules, [mask_of(p) for p in piles], step["scope"])
    items = {i["key"]: i for i in sheet["items"]}
    if step["item"] == "total":
        assert step["answer"] == sheet["sides"][0]["total"]
        assert step["totals"] == [s["total"] for s in sheet["sides"]]
        assert step["sheet"] == [{"key": i["key"], "points": i["points"]} for i in sheet["items"]]
    else:
        shown = items[step["item"]]
        assert step["values"] == shown["values"]
        if step["ask"] == "who":
            winners = [side for side, pts in enumerate(shown["points"]) if pts]
            assert step["answer"] == (winners[0] if winners else -1)
        else:
            assert step["answer"] == shown["points"][0]
    if step["ask"] == "points":
        assert step["answer"] in step["choices"]


DECLARES = [s for s in STEPS if s[2]["kind"] == "declare"]


@pytest.mark.parametrize("item", DECLARES, ids=[step_id(s) for s in DECLARES])
def test_each_declaration_step_says_what_the_rules_score(
    item: tuple[dict[str, Any], int, dict[str, Any]],
) -> None:
    lesson, _, step = item
    rules = rules_of(lesson, step)
    hand = cards(step["hand"])
    assert len(hand) == rules.rounds[0] == 3
    assert rules.declarations != "off"
    assert step["answer"] == meaning_of(rules).declaration(mask_of(hand))
    assert step["answer"] in step["choices"]


def test_a_wrong_lesson_fails_these_checks() -> None:
    """The checks bite: the priority lesson with the sum called right, a right play the
    rules refuse, a missing feedback, a counting step with the wrong winner."""
    priority = next(s for s in PLAYS if s[0]["id"] == "priority")
    lesson, i, step = priority
    bad = json.loads(json.dumps(step))
    bad["right"] = [{"card": "7d", "capture": ["3c", "4s"]}]
    bad["wrong"] = []
    with pytest.raises(AssertionError, match="rules refuse"):
        test_each_play_step_holds_to_the_rules((lesson, i, bad))
    bad = json.loads(json.dumps(step))
    bad["wrong"] = [w for w in bad["wrong"] if not w["legal"]]  # the 9's lay unexplained
    with pytest.raises(AssertionError, match="no feedback"):
        test_each_play_step_holds_to_the_rules((lesson, i, bad))
    bad = json.loads(json.dumps(step))
    bad["hand"] = ["7b", "9s"]  # the 7 of clubs both in hand and on the table
    with pytest.raises(AssertionError):
        test_each_play_step_holds_to_the_rules((lesson, i, bad))
    counting = next(s for s in COUNTS if s[2]["item"] == "coins")
    bad = json.loads(json.dumps(counting[2]))
    bad["answer"] = 0
    with pytest.raises(AssertionError):
        test_each_counting_step_says_what_the_score_sheet_says((counting[0], counting[1], bad))
    assert card_text(card("7d")) == "7d"
