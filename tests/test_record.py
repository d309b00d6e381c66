"""Game records: build, write, read, replay, verify; corrupt records are refused."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Rules
from scopa.hand import Hand
from scopa.match import Match
from scopa.notation import dump_position
from scopa.record import (
    RecordError,
    game_record,
    load_record,
    parse_text,
    record_to_text,
    replay,
    verify_record,
)
from scopa.shuffle import commitment, deck_from_seed


def play_match(rules: Rules, seed: str, rng_seed: int = 1) -> Hand:
    rng = random.Random(rng_seed)
    game = Match(rules, seed=seed)
    while True:
        while not game.hand.hand_over:
            game.hand.play(rng.choice(game.hand.legal_moves()))
        if game.match_over:
            return game
        game.next_hand()


CASES = [
    Rules.preset("scopa"),
    Rules.preset("scopa", players=6, teams=3),
    Rules.preset("scopone-scientifico"),
    Rules.preset("escoba"),
    Rules.preset("napola", napola_outright=True),
    Rules.preset("asso-pigliatutto", players=3),
]


@pytest.mark.parametrize("rules", CASES, ids=lambda r: f"{r.variant}-{r.players}")
def test_record_replays_exactly_in_json_and_text(rules: Rules) -> None:
    game = play_match(rules, "rec")
    rec = game_record(game, players=[f"p{i}" for i in range(rules.players)])
    assert rec["winner"] == game.winner is not None
    from_json = replay(json.loads(json.dumps(rec)))
    assert dump_position(from_json.hand) == dump_position(game.hand)
    assert from_json.winner == game.winner
    text_rec = load_record(record_to_text(rec))
    assert dump_position(replay(text_rec).hand) == dump_position(game.hand)
    assert text_rec["players"] == rec["players"]
    assert verify_record(rec) == []


def test_record_of_hand_in_progress_replays() -> None:
    game = Match(Rules.preset(), seed="partial")
    for _ in range(5):
        game.hand.play(game.hand.legal_moves()[0])
    rec = game_record(game)
    assert rec["hands"][0]["result"] is None
    assert len(rec["hands"][0]["moves"]) == 5
    assert dump_position(replay(rec).hand) == dump_position(game.hand)


def test_illegal_move_in_record_is_refused_with_its_place() -> None:
    rec = game_record(play_match(Rules.preset(), "bad"))
    moves = rec["hands"][0]["moves"]
    moves[2] = dict(moves[2], card=moves[3]["card"] if moves[3]["card"] != moves[2]["card"]
                    else moves[4]["card"])
    with pytest.raises(RecordError, match="hand 1, move 3"):
        replay(rec)


def test_edited_result_is_refused() -> None:
    rec = game_record(play_match(Rules.preset(), "edit"))
    rec["hands"][0]["result"]["sides"][0]["total"] += 1
    with pytest.raises(RecordError, match="recorded totals"):
        replay(rec)


def test_edited_final_score_is_refused() -> None:
    rec = game_record(play_match(Rules.preset(), "final"))
    rec["scores"][1] += 3
    with pytest.raises(RecordError, match="final scores"):
        replay(rec)


def test_deck_not_from_its_seed_is_refused() -> None:
    rec = game_record(play_match(Rules.preset(), "seeded"))
    deck = rec["hands"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    with pytest.raises(RecordError, match="does not come from its seed"):
        replay(rec)


def test_verify_detects_a_wrong_commitment() -> None:
    rec = game_record(play_match(Rules.preset(), "commit"))
    rec["hands"][0]["commitment"] = commitment("something else")
    problems = verify_record(rec)
    assert problems == ["hand 1: the seed does not match its commitment"]


def test_verify_checks_void_redeals() -> None:
    rules = Rules.preset()
    seed = next(f"v{i}" for i in range(5000) if _void(rules, f"v{i}"))
    game = Match(rules, hand_seed=seed)
    assert game.hand_attempt >= 1
    rec = game_record(game)
    assert verify_record(rec) == []
    rec["hands"][0]["redeals"] = 0
    rec["hands"][0]["deck"] = None
    assert any("void deal" in p for p in verify_record(rec))


def _void(rules: Rules, seed: str) -> bool:
    deck = deck_from_seed(seed, 0)
    table = deck[2 * 3 : 2 * 3 + 4]
    return sum(1 for c in table if c % 10 == 9) >= 3


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "first line"),
        ("scopa-record 1\nrules {bad json", "line 2"),
        ("scopa-record 1\nmoves 7d", "before any 'hand' line"),
        ("scopa-record 1\nwhatever 1", "unknown keyword"),
        ("scopa-record 1\nhand x dealer 1", "line 2"),
    ],
)
def test_malformed_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_text(text)


def test_malformed_json_is_refused() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record('{"format": ')
    with pytest.raises(RecordError, match="format"):
        load_record({"format": "pgn"})
    with pytest.raises(RecordError, match="at least one hand"):
        load_record({"format": "scopa-record", "version": 1, "rules": {"variant": "scopa"},
                     "hands": []})



def test_cirulla_declarations_travel_in_both_record_forms() -> None:
    """Declare and pass are moves: the JSON form writes them as {"declare": ...}, the text
    form as the words ``declare`` / ``pass``; both replay to the same match."""
    rng = random.Random(13)
    decided = 0
    for k in range(4):
        g = Match(Rules.preset("cirulla"), seed=f"rec-cirulla-{k}")
        while not g.hand.hand_over:
            moves = g.hand.legal_moves()
            if g.hand.deciding:  # declare and pass in turn
                decided += 1
                g.hand.play({"declare": decided % 2 == 1})
            else:
                g.hand.play(rng.choice(moves))
        rec = game_record(g, ["Ann", "Bob"])
        text = record_to_text(rec)
        written = [("declare" if m["declare"] else "pass") if "declare" in m
                   else f"{m['card']}" + (":" + "+".join(m["capture"]) if m["capture"] else "")
                   for m in rec["hands"][0]["moves"]]  # fmt: skip
        assert load_record(text)["hands"][0]["moves"] == written
        assert dump_position(replay(rec).hand) == dump_position(g.hand)
        assert dump_position(replay(load_record(text)).hand) == dump_position(g.hand)
    assert decided >= 2


# -- text round trip and every score-sheet item checked ---------------------------------
seeds = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@settings(max_examples=30, deadline=None)
@given(
    rules=st.sampled_from(CASES),
    seed=seeds,
    names=st.lists(st.text(max_size=8), min_size=6, max_size=6),
    rng_seed=st.integers(0, 10**6),
)
def test_text_record_loads_and_writes_back_unchanged(
    rules: Rules, seed: str, names: list[str], rng_seed: int
) -> None:
    game = play_match(rules, seed, rng_seed)
    text = record_to_text(game_record(game, players=names[: rules.players]))
    loaded = load_record(text)
    assert record_to_text(loaded) == text
    assert dump_position(replay(loaded).hand) == dump_position(game.hand)


def test_text_record_of_a_hand_in_progress_writes_back_unchanged() -> None:
    game = Match(Rules.preset("escoba"), seed="mid")
    for _ in range(7):
        game.hand.play(game.hand.legal_moves()[-1])
    text = record_to_text(game_record(game))
    assert record_to_text(load_record(text)) == text


def _swap_two_items(text: str) -> tuple[str, int, str]:
    """Swap the values of the first two items of a result line whose values differ, so
    that the totals still add up; returns the text, the hand and the first item."""
    lines = text.splitlines()
    hand = 0
    for k, line in enumerate(lines):
        if line.startswith("hand "):
            hand = int(line.split()[1])
        if not line.startswith("result "):
            continue
        words = line.split()
        items = list(zip(words[2::2], words[3::2], strict=True))
        for a in range(len(items)):
            for b in range(a + 1, len(items)):
                if items[a][1] != items[b][1]:
                    items[a], items[b] = (items[a][0], items[b][1]), (items[b][0], items[a][1])
                    lines[k] = " ".join(words[:2] + [w for pair in items for w in pair])
                    return "\n".join(lines) + "\n", hand, items[a][0]
    raise AssertionError("no result line with two different items")


def test_text_record_with_two_items_swapped_is_refused_naming_hand_and_item() -> None:
    text = record_to_text(game_record(play_match(Rules.preset(), "swap")))
    edited, hand, item = _swap_two_items(text)
    with pytest.raises(RecordError, match=rf"hand {hand}, {item}: recorded"):
        load_record(edited)


def test_json_record_with_a_wrong_count_is_refused_naming_hand_and_item() -> None:
    rec = game_record(play_match(Rules.preset(), "count"))
    rec["hands"][1]["result"]["sides"][0]["cards"] = 99
    with pytest.raises(RecordError, match=r"hand 2, side 0, cards: recorded 99 but the moves"):
        replay(rec)


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda s: s[0].update(settebello=not s[0]["settebello"]), "settebello"),
        (lambda s: s[1].update(primiera_cards=["1d"]), "primiera_cards"),
        (lambda s: s[0]["points"].update(wrong=1), "unknown score item"),
        (lambda s: s[0].update(colour="red"), "unknown score-sheet item"),
        (lambda s: s[0].update(scope=True if s[0]["scope"] == 1 else 1), "scope"),
    ],
)
def test_every_item_of_a_json_sheet_is_checked(edit, words) -> None:
    rec = game_record(play_match(Rules.preset(), "items"))
    sides = rec["hands"][0]["result"]["sides"]
    before = json.dumps(rec)
    edit(sides)
    if json.dumps(rec) == before:  # the edit changed nothing on this deal: nothing to refuse
        replay(rec)
        return
    with pytest.raises(RecordError, match=words):
        replay(rec)


def test_swapped_points_in_json_are_refused() -> None:
    rec = game_record(play_match(Rules.preset(), "points"))
    for number, hand in enumerate(rec["hands"], start=1):
        pts = hand["result"]["sides"][0]["points"]
        pairs = [(a, b) for a in pts for b in pts if a < b and pts[a] != pts[b]]
        if pairs:
            a, b = pairs[0]
            pts[a], pts[b] = pts[b], pts[a]
            with pytest.raises(RecordError, match=rf"hand {number}, ({a}|{b}): recorded"):
                replay(rec)
            return
    raise AssertionError("no hand with two items of different points")


def test_a_hand_seed_with_spaces_and_quotes_survives_the_text_form() -> None:
    game = Match(Rules.preset(), hand_seed='my "lucky" seed')
    while not game.hand.hand_over:
        game.hand.play(game.hand.legal_moves()[0])
    rec = game_record(game)
    back = parse_text(record_to_text(rec))
    assert back["hands"][0]["seed"] == 'my "lucky" seed'
    assert verify_record(load_record(record_to_text(rec))) == []


def test_a_record_that_kept_only_totals_goes_through_the_text_form() -> None:
    rec = game_record(play_match(Rules.preset(), "totals"))
    for hand in rec["hands"]:
        hand["result"] = {"sides": [{"total": s["total"]} for s in hand["result"]["sides"]]}
    text = record_to_text(rec)
    assert record_to_text(load_record(text)) == text
    first = text.index("result ")
    edited = text[:first] + text[first:].replace("result ", "result 9", 1)
    with pytest.raises(RecordError, match="hand 1: recorded totals"):
        load_record(edited)
