"""One replay of an event log: the server's restart and catch-up (``flow.rebuild``), the
history (``history.rebuild``) and the records (``record.replay``) rebuild the same match
from the same events, and refuse a broken log with the same words, because all three go through
``scopa.replay.replay_log``."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scopa import Rules
from scopa.hand import Hand
from scopa.match import Match
from scopa.notation import dump_position
from scopa.record import RecordError, game_record, replay
from scopa.replay import Deal, ReplayError, final_game, replay_log
from scopa.server.play import flow
from scopa.server.play.history import export_record, rebuild
from scopa.server.store.database import StoredTable
from scopa.server.store.models import EventRow, MatchRow, SeatRow, TableRow

PRESETS = [
    Rules.preset("scopa"),
    Rules.preset("scopone-scientifico"),
    Rules.preset("escoba", players=3),
    Rules.preset("napola", napola_outright=True),
    Rules.preset("asso-pigliatutto", players=6, teams=3),
]


def server_log(rules: Rules, seed: str, rng: random.Random, stop: int | None) -> tuple[
        Hand, list[EventRow]]:
    """A match as the master stores it: a hand event per deal, a move event per play;
    ``stop`` cuts it after that many moves (a match still being played)."""
    events: list[EventRow] = []

    def add(kind: str, data: dict[str, Any]) -> None:
        events.append(EventRow(match_id="m", seq=len(events), kind=kind, data=data))

    game = Match(rules, hand_seed=f"{seed}:1")
    add("hand", {"number": 1, "seed": f"{seed}:1"})
    played = 0
    while True:
        while not game.hand.hand_over:
            if played == stop:
                return game, events
            seat = game.hand.to_move
            move = rng.choice(game.hand.legal_moves())
            game.hand.play(move)
            add("move", {"seat": seat, **move.to_dict(), "by": "human"})
            played += 1
        if game.match_over:
            return game, events
        hand_seed = f"{seed}:{game.hand_number + 1}"
        game.next_hand(seed=hand_seed)
        add("hand", {"number": game.hand_number, "seed": hand_seed})


def master_rebuild(rules: Rules, events: list[EventRow]) -> Hand | None:
    now = datetime.now(UTC)
    st_ = StoredTable(
        table=TableRow(id="t", invite="i", public=False, rules=rules.to_dict(),
                       grace_seconds=1.0, created_at=now, status="playing"),
        seats=[SeatRow(table_id="t", seat=s, kind="bot", level="random", name=None,
                       token_hash=None) for s in range(rules.players)],
        match=MatchRow(id="m", table_id="t", number=1, rules=rules.to_dict(), players=[],
                       finished_at=None),
        events=events,
    )
    return flow.rebuild(st_).game


def match_row(rules: Rules, game: Match) -> MatchRow:
    return MatchRow(id="m", table_id="t", number=1, rules=rules.to_dict(),
                    players=[f"p{s}" for s in range(rules.players)],
                    scores=game.match_totals() if game.hand.hand_over else None,
                    winner=game.winner)


@settings(max_examples=12, deadline=None)
@given(rules=st.sampled_from(PRESETS), rng_seed=st.integers(0, 10**6),
       stop=st.none() | st.integers(0, 120))
@example(rules=PRESETS[2], rng_seed=14549, stop=36)  # hand 2 dealt with a capture, no move yet
def test_server_history_and_records_rebuild_the_same_match(
    rules: Rules, rng_seed: int, stop: int | None
) -> None:
    original, events = server_log(rules, f"one-{rng_seed}", random.Random(rng_seed), stop)
    want = dump_position(original.hand)
    from_master = master_rebuild(rules, events)
    from_history, hands = rebuild(rules.to_dict(), events)
    record = export_record(match_row(rules, original), events)
    from_record = replay(record)
    for game in (from_master, from_history, from_record):
        assert game is not None
        assert dump_position(game.hand) == want
        assert game.hand_log() == original.hand_log()
        assert (game.hand_seed, game.hand_attempt) == (original.hand_seed, original.hand_attempt)
    assert record == game_record(original, [f"p{s}" for s in range(rules.players)])
    assert [h["result"] for h in hands] == [e["result"] for e in original.hand_log()]
    # a position before each move of the last hand, and one after the last (a deal that
    # itself captures, as in Escoba, adds to the history but is not a move)
    last_deal = max(i for i, e in enumerate(events) if e.kind == "hand")
    assert len(hands[-1]["positions"]) == len(events) - last_deal


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda ev: ev[3].data.update(card="7d", capture=["1b"]), "hand 1, move 3"),
        (lambda ev: ev.insert(5, EventRow(kind="hand", data={"seed": "x"})),
         "hand 2: the previous hand did not finish"),
    ],
)
def test_a_broken_log_is_refused_with_the_same_words_by_all_three(edit, words) -> None:
    rules = Rules.preset()
    original, events = server_log(rules, "broken", random.Random(3), None)
    edit(events)
    with pytest.raises(ReplayError, match=words):
        rebuild(rules.to_dict(), events)
    with pytest.raises(ReplayError, match=words):
        master_rebuild(rules, events)
    record = game_record(original)  # the same edit in the record's own form
    first = record["hands"][0]
    if words.startswith("hand 1, move 3"):
        first["moves"][2] = {"card": "7d", "capture": ["1b"]}
    else:
        first["moves"], first["result"] = first["moves"][:4], None
    with pytest.raises(RecordError, match=words):
        replay(record)


def test_replay_log_reads_decks_seeds_and_every_move_form() -> None:
    rules = Rules.preset()
    game = Match(rules, hand_seed="forms")
    moves = []
    while not game.hand.hand_over:
        move = game.hand.legal_moves()[0]
        moves.append([move, move.to_dict(), str(move)][len(moves) % 3])
        game.hand.play(move)
    assert game.deck is not None
    by_seed = final_game(rules, [Deal(seed="forms"), *moves])
    by_deck = final_game(rules, [Deal(seed="forms", deck=game.deck, dealer=1), *moves])
    assert dump_position(by_seed.hand) == dump_position(by_deck.hand) == dump_position(game.hand)
    steps = list(replay_log(rules, [Deal(seed="forms"), *moves]))
    assert [s.index for s in steps] == list(range(len(moves) + 1))
    assert steps[0].move is None and steps[1].seat == 0


@pytest.mark.parametrize(
    "events, words",
    [
        ([], "holds no deal"),
        (["7d"], "must start with a deal"),
        ([Deal()], "needs a deck or a seed"),
        ([Deal(seed="s", dealer=5)], "hand 1: dealer"),
        ([Deal(seed="s", redeals=3)], "3 redeals recorded"),
    ],
)
def test_replay_log_refuses_what_does_not_fit(events: list[Any], words: str) -> None:
    with pytest.raises(ReplayError, match=words):
        final_game(Rules.preset(), events)
