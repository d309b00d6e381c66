"""The table flow on its own (``scopa.server.play.flow``): seats, moves, a hand's end, the votes
between hands, the rematch, stand-ins and abandons, decided synchronously on a ``Table``
with no server, no event loop and no storage."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from scopa.match import Match
from scopa.moves import Move
from scopa.rules import Rules
from scopa.server.common.refusal import Refusal
from scopa.server.play import flow, frames
from scopa.server.play.flow import Next
from scopa.server.play.table import SeatState, Table
from scopa.server.store.database import StoredTable
from scopa.server.store.models import EventRow, MatchRow, SeatRow, TableRow

NOW = datetime(2026, 1, 1, tzinfo=UTC)
PAUSE = 120.0


def seat(i: int, kind: str = "human", taken: bool = True, here: bool = True,
         user_id: int | None = None) -> SeatState:
    s = SeatState(i, kind, "random" if kind == "bot" else None, f"p{i}",
                  f"h{i}" if kind == "human" and taken else None, user_id=user_id)
    if kind == "human" and taken and here:
        s.conns.add(object())
    return s


def table(*seats: SeatState, rules: Rules | None = None, rated: bool = False,
          status: str = "waiting", address: str | None = None) -> Table:
    return Table(id="t", invite="i", public=True, rules=rules or Rules(), grace=30.0,
                 created_at=NOW, seats=list(seats), status=status, rated=rated,
                 creator_address=address)


def started(t: Table, seed: str = "flow") -> Table:
    """``t`` with its first match dealt (as the master does once it is stored)."""
    flow.start_match(t, "m1", t.match_number + 1, Match(t.rules, hand_seed=seed))
    return t


def play_out_hand(t: Table, now: float = 1000.0) -> list[flow.Played]:
    """Every seat plays its first legal move until the hand ends."""
    out = []
    assert t.game is not None
    while not t.game.hand.hand_over:
        move = t.game.hand.legal_moves()[0]
        out.append(flow.play_move(t, move, "human", now, PAUSE, monotonic=5.0))
    return out


def play_out_match(t: Table) -> None:
    while True:
        play_out_hand(t)
        if t.match_over:
            return
        flow.deal(t, f"hand-{t.match_number}-{t.seq}")


# -- seats --------------------------------------------------------------------------------
def test_new_seats_name_the_creator_and_each_bot_distinctly() -> None:
    specs = [{"kind": "human"}, {"kind": "bot", "level": "greedy"},
             {"kind": "external", "bot": "mybot"}, {"kind": "human"}]
    seats = flow.new_seats(specs, "Anna", 0, random.Random(1))
    assert [s.kind for s in seats] == ["human", "bot", "external", "human"]
    assert seats[0].name == "Anna" and seats[3].name is None
    assert seats[1].level == "greedy" and seats[2].level == "mybot"
    assert seats[2].name == "mybot (external)"
    names = [s.name for s in seats if s.name]
    assert len({n.casefold() for n in names}) == len(names) == 3
    assert not seats[0].taken and not seats[3].taken  # the token comes from the master
    assert seats[1].taken and seats[2].taken
    with pytest.raises(Refusal) as e:
        flow.new_seats(specs, None, 0, random.Random(1))
    assert e.value.code == "bad_message"


def test_a_joining_player_gets_the_seat_asked_for_or_the_first_free_one() -> None:
    t = table(seat(0), seat(1, taken=False), seat(2, "bot"), seat(3, taken=False))
    target, name = flow.choose_seat(t, "p0", None, None)
    assert target.seat == 1 and name == "p0 (2)"  # distinct from the creator's
    target, name = flow.choose_seat(t, "Bruno", 3, None)
    assert target.seat == 3 and name == "Bruno"
    for wanted in (0, 2):  # taken by a person; a bot's
        with pytest.raises(Refusal) as e:
            flow.choose_seat(t, "Bruno", wanted, None)
        assert e.value.code == "conflict"


def test_a_full_table_refuses_and_starts() -> None:
    t = table(seat(0), seat(1, taken=False))
    assert not flow.full(t)
    t.seats[1].token_hash = "h1"
    assert flow.full(t)
    with pytest.raises(Refusal) as e:
        flow.choose_seat(t, "Carla", None, None)
    assert e.value.code == "conflict"
    t.status = "playing"
    assert not flow.full(t)  # already started


def test_rated_tables_want_accounts_and_one_seat_per_account() -> None:
    t = table(seat(0, user_id=7), seat(1, taken=False), rated=True)
    with pytest.raises(Refusal) as e:
        flow.choose_seat(t, "guest", None, None)
    assert e.value.code == "account_needed"
    with pytest.raises(Refusal) as e:
        flow.choose_seat(t, "again", None, 7)
    assert e.value.code == "conflict"
    assert flow.choose_seat(t, "Bruno", None, 8)[0].seat == 1


def test_room_for_a_new_table_counts_live_tables_and_this_address_waiting_ones() -> None:
    tables = [table(address="a"), table(address="a", status="playing"),
              table(address="a", status="finished"), table(address="b")]
    flow.check_room(tables, "a", max_live=4, max_waiting=2)  # 3 live, 1 waiting of a's
    with pytest.raises(Refusal) as e:
        flow.check_room(tables, "a", max_live=3, max_waiting=2)
    assert e.value.code == "busy"
    with pytest.raises(Refusal) as e:
        flow.check_room(tables, "a", max_live=9, max_waiting=1)
    assert e.value.code == "too_many"
    flow.check_room(tables, "c", max_live=9, max_waiting=1)
    flow.check_room(tables, None, max_live=9, max_waiting=0)  # no address: no cap


def test_waiting_tables_expire_unless_full_and_finished_ones_are_forgotten() -> None:
    t = table(seat(0), seat(1, taken=False))
    assert flow.expired(t, NOW + timedelta(seconds=1))
    assert not flow.expired(t, NOW)
    assert flow.closable(t)
    t.seats[1].token_hash = "h1"
    assert not flow.closable(t)  # a join filled it: the match is about to start
    t.status = "finished"
    t.finished_at = 100.0
    assert not flow.expired(t, NOW + timedelta(days=1))
    assert not flow.forgettable(t, 161.0, keep=60)  # seats still connected
    for s in t.seats:
        s.conns.clear()
    assert not flow.forgettable(t, 150.0, keep=60)  # watched a moment ago
    assert flow.forgettable(t, 161.0, keep=60)
    t.spectators.add(object())
    assert not flow.forgettable(t, 161.0, keep=60)


# -- a match ------------------------------------------------------------------------------
def test_a_new_match_starts_afresh_and_names_the_absent_people() -> None:
    t = table(seat(0), seat(1, here=False), seat(2, "bot"), seat(3), rated=True)
    t.next_votes, t.rematch_votes, t.abandoned = {0}, {0, 1}, {1}
    t.winner, t.final_scores, t.next_hand_at = 0, [11, 3], 5.0
    absent = flow.start_match(t, "m1", 1, Match(Rules.preset("scopone"), hand_seed="s"))
    assert [s.seat for s in absent] == [1]
    assert t.status == "playing" and t.match_id == "m1" and t.seq == 1
    assert t.state_id == 1 * 1_000_000 + 1
    assert not t.match_over and t.final_scores is None and t.next_hand_at is None
    assert t.next_votes == t.rematch_votes == t.abandoned == set()


def test_moves_are_checked_for_the_match_the_seat_the_turn_and_the_state() -> None:
    t = table(seat(0), seat(1, "bot"))

    def refusal(seat_: int, state_id: object, move: object, by: str = "human") -> str:
        with pytest.raises(Refusal) as e:
            flow.check_move(t, seat_, state_id, move, by)
        return e.value.code

    assert refusal(0, 0, {}) == "not_started"
    started(t)
    game = t.game
    assert game is not None
    me, other = game.hand.to_move, 1 - game.hand.to_move
    good = game.hand.legal_moves()[0].to_dict()
    sid = t.state_id
    assert refusal(other, sid, good, "human" if other == 0 else "bot") == "not_your_turn"
    assert refusal(me, sid - 1, good, "human" if me == 0 else "bot") == "stale_state"
    by = "human" if me == 0 else "bot"
    assert refusal(me, sid, {"card": "nonsense"}, by) == "bad_message"
    not_held = next(c for c in range(40) if not game.hand.hands[me] >> c & 1)
    bad = Move(not_held, 0).to_dict()
    assert refusal(me, sid, bad, by) == "illegal_move"
    assert flow.check_move(t, me, sid, good, by).to_dict() == good
    assert t.state_id == sid and game.hand.legal_moves()[0].to_dict() == good  # unchanged
    # a person may not play the bot's seat; a bot may not play a person's (not stood in)
    bot_seat = 1
    assert refusal(bot_seat, sid, good, "human") == "not_your_turn"
    assert refusal(0, sid, good, "standin") == "not_your_turn"


def test_a_hand_ends_with_the_score_sheet_up_for_the_pause() -> None:
    t = started(table(seat(0), seat(1, "bot")))
    seq = t.seq
    played = play_out_hand(t, now=1000.0)
    assert t.seq == seq + len(played)
    assert all(not p.hand_over for p in played[:-1])
    last = played[-1]
    assert last.hand_over and not last.match_over
    assert last.event["kind"] == "move" and last.event["by"] == "human"
    assert t.next_hand_at == 1000.0 + PAUSE  # a person is here: the full pause
    assert flow.between_hands(t) and t.status == "playing"
    assert flow.bot_to_move(t) is None


def test_with_no_person_here_the_score_sheet_stays_up_briefly() -> None:
    t = started(table(seat(0, here=False), seat(1, "bot")))
    play_out_hand(t, now=1000.0)
    assert t.next_hand_at == 1000.0 + flow.BOTS_ONLY_PAUSE_SECONDS
    assert flow.hand_pause(t, 1.0) == 1.0  # never longer than the pause itself


def test_the_last_move_ends_the_match_as_foretold() -> None:
    t = started(table(seat(0), seat(1), rules=Rules(target=1)))
    foretold = None
    while not t.match_over:
        game = t.game
        assert game is not None
        if game.hand.hand_over:
            flow.deal(t, f"h{t.seq}")
            continue
        move = game.hand.legal_moves()[0]
        finish = flow.match_finish(t, move)
        played = flow.play_move(t, move, "human", 0.0, PAUSE, monotonic=42.0)
        assert (finish is not None) == played.match_over
        if finish is not None:
            foretold = finish
    assert foretold is not None
    assert t.status == "finished" and t.finished_at == 42.0
    assert (t.winner, t.final_scores) == foretold[:2]
    assert t.game is not None and foretold[2] == t.game.hand_number
    assert not flow.between_hands(t) and t.next_hand_at is None
    with pytest.raises(Refusal) as e:
        flow.check_move(t, 0, t.state_id, {}, "human")
    assert e.value.code == "match_over"


def test_a_table_of_fixed_deals_deals_its_seeds_and_ends_after_them() -> None:
    """A tournament's table: its given hand seeds first, in order, and the match ends once
    its deals are played and a side leads (the rules' target out of reach), level: one
    more hand at a time."""
    seeds = ["d:0", "d:1"]
    t = table(seat(0), seat(1), rules=Rules(target=1000))
    t.seeds, t.deals = seeds, 2
    assert [flow.given_seed(t, n) for n in (1, 2, 3)] == ["d:0", "d:1", None]
    started(t, seed="d:0")
    hands = 0
    while not t.match_over:
        game = t.game
        assert game is not None
        if game.hand.hand_over:
            flow.deal(t, flow.given_seed(t, game.hand_number + 1) or f"extra:{hands}")
            continue
        move = game.hand.legal_moves()[0]
        finish = flow.match_finish(t, move)
        played = flow.play_move(t, move, "human", 0.0, PAUSE, monotonic=1.0)
        assert (finish is not None) == played.match_over
        hands += played.hand_over
    game = t.game
    assert game is not None and game.hand_number >= 2
    log = game.hand_log()
    assert [h["seed"] for h in log[:2]] == seeds
    totals = [sum(h["result"]["sides"][s]["total"] for h in log) for s in (0, 1)]
    assert t.final_scores == totals and totals[t.winner] > totals[1 - t.winner]
    # the first two deals' totals alone decide unless they were level
    first = [sum(h["result"]["sides"][s]["total"] for h in log[:2]) for s in (0, 1)]
    assert (game.hand_number == 2) == (first[0] != first[1])


def test_a_table_of_fixed_deals_is_rebuilt_with_its_seeds() -> None:
    """The given seeds are stored with the table: after a restart it deals the same."""
    row = TableRow(id="t", invite="i", public=False, rules=Rules(target=1000).to_dict(),
                   grace_seconds=30.0, created_at=NOW, status="waiting", rated=False,
                   teach=False, seeds=["d:0", "d:1"], deals=2)
    seats = [SeatRow(table_id="t", seat=i, kind="human", name=f"p{i}") for i in (0, 1)]
    t = flow.rebuild(StoredTable(row, seats, None))
    assert (t.seeds, t.deals) == (["d:0", "d:1"], 2)
    plain = flow.rebuild(StoredTable(TableRow(
        id="u", invite="j", public=False, rules=Rules().to_dict(), grace_seconds=30.0,
        created_at=NOW, status="waiting", rated=False, teach=True), seats, None))
    assert (plain.seeds, plain.deals) == ([], None)


# -- between hands ------------------------------------------------------------------------
def test_the_next_hand_waits_for_every_person_seated_not_bots_nor_stand_ins() -> None:
    t = started(table(seat(0), seat(1, "bot"), seat(2, here=False), seat(3),
                      rules=Rules.preset("scopone")))
    assert not flow.next_vote(t, 0)  # mid-hand: nothing to vote on
    assert flow.after_vote(t) is Next.NOTHING
    play_out_hand(t)
    assert flow.waiting_for(t) == [0, 2, 3]  # away briefly still counts
    assert flow.next_vote(t, 0)
    assert flow.after_vote(t) is Next.WAIT and flow.waiting_for(t) == [2, 3]
    t.seats[2].standin = True  # gone for good: a stand-in does not read score sheets
    assert flow.waiting_for(t) == [3]
    assert flow.next_vote(t, 3)
    assert flow.after_vote(t) is Next.DEAL
    sid = t.state_id
    assert flow.deal_due(t, sid) and not flow.deal_due(t, sid - 1)
    event = flow.deal(t, "next")
    assert t.game is not None and event == {"kind": "deal", "hand_number": 2,
                                            "dealer": t.game.hand.dealer}
    assert t.state_id == sid + 1 and t.next_votes == set() and t.next_hand_at is None
    assert not flow.deal_due(t, sid)  # dealt once only
    assert flow.after_vote(t) is Next.NOTHING


def test_a_bot_or_a_stand_in_is_asked_to_move_a_person_is_not() -> None:
    t = started(table(seat(0), seat(1, "bot")))
    game = t.game
    assert game is not None
    if game.hand.to_move == 0:
        assert flow.bot_to_move(t) is None
        t.seats[0].standin = True
        assert flow.bot_to_move(t) == 0
    else:
        assert flow.bot_to_move(t) == 1


# -- the rematch --------------------------------------------------------------------------
def test_a_rematch_starts_when_every_person_voted() -> None:
    t = started(table(seat(0), seat(1, "bot"), seat(2), seat(3, "bot"),
                      rules=Rules.preset("scopone", target=1)))
    with pytest.raises(Refusal) as e:
        flow.check_rematch(t)
    assert e.value.code == "match_not_over"
    play_out_match(t)
    flow.check_rematch(t)
    vote = flow.rematch_vote(t, 2)
    assert vote == flow.Rematch([2], [0, 2], False)
    assert not flow.start_pending(t)
    vote = flow.rematch_vote(t, 2)  # twice counts once
    assert vote.votes == [2] and not vote.start
    vote = flow.rematch_vote(t, 0)
    assert vote == flow.Rematch([0, 2], [0, 2], True)
    assert flow.start_pending(t)  # a worker taking the table over starts it
    flow.start_match(t, "m2", t.match_number + 1, Match(t.rules, hand_seed="again"))
    assert t.match_number == 2 and t.rematch_votes == set() and not flow.start_pending(t)


def test_an_event_table_refuses_every_rematch_vote_and_keeps_none() -> None:
    """An event pairs its tables' next games: a vote is refused before and after the
    match ends (no vote kept to start a match later), and the frames say so."""
    t = started(table(seat(0), seat(1), rules=Rules(target=1)))
    t.event_id = "e1"
    assert not flow.may_rematch(t) and frames.table_info(t)["rematch"] is False
    for _ in range(2):
        with pytest.raises(Refusal) as e:
            flow.check_rematch(t)
        assert e.value.code == "event_table"
        play_out_match(t)
    assert t.rematch_votes == set() and not flow.start_pending(t)
    bots = started(table(seat(0, "bot"), seat(1, "bot"), rules=Rules(target=1)))
    bots.event_id = "e1"  # no person to vote: a worker taking it over starts nothing
    play_out_match(bots)
    assert not flow.start_pending(bots)
    plain = started(table(seat(0), seat(1)))
    assert flow.may_rematch(plain) and frames.table_info(plain)["rematch"] is True


# -- stand-ins and abandons ---------------------------------------------------------------
def test_a_seat_left_past_the_grace_period_is_abandoned_only_in_a_rated_match_on() -> None:
    t = table(seat(0, user_id=1), seat(1, user_id=2, here=False), rated=True)
    assert not flow.grace_due(t, t.seats[1])  # no match yet
    assert not flow.abandons(t, 1)
    started(t)
    assert flow.grace_due(t, t.seats[1]) and not flow.grace_due(t, t.seats[0])
    assert flow.standin_due(t.seats[1]) and not flow.standin_due(t.seats[0])
    assert flow.abandons(t, 1) and t.abandoned == {1}
    unrated = started(table(seat(0), seat(1, here=False)))
    assert not flow.abandons(unrated, 1) and unrated.abandoned == set()
    play_out_match(t)
    assert not flow.abandons(t, 0) and t.abandoned == {1}  # over: no more abandons


def test_a_player_coming_back_takes_the_seat_from_the_stand_in() -> None:
    t = started(table(seat(0), seat(1, here=False)))
    s = t.seats[1]
    s.standin = True
    assert flow.seat_back(s) and not s.standin
    assert not flow.seat_back(s)  # a second tab: nothing to take back


def test_presence_at_other_workers_counts() -> None:
    t = started(table(seat(0), seat(1, here=False)))
    s = t.seats[1]
    s.standin = True
    assert flow.remote_presence(s, "w2", 1) and s.present and not s.standin
    assert not flow.remote_presence(s, "w3", 2)  # already present
    assert not flow.remote_presence(s, "w2", 0)  # still at w3
    assert flow.remote_presence(s, "w3", 0) and not s.present
    assert flow.standin_due(s)


def test_a_stand_in_told_by_the_driving_worker_marks_a_rated_abandon() -> None:
    t = started(table(seat(0, user_id=1), seat(1, user_id=2), rated=True))
    assert flow.set_standin(t, 1, True) and t.seats[1].standin and t.abandoned == {1}
    assert not flow.set_standin(t, 1, True)  # no change
    assert not flow.set_standin(t, 5, True)  # no such seat
    assert flow.set_standin(t, 1, False) and not t.seats[1].standin
    assert t.abandoned == {1}  # coming back does not undo an abandon


# -- the log ------------------------------------------------------------------------------
def stored(t: Table, events: list[EventRow], finished: bool) -> StoredTable:
    rules = t.rules
    game = t.game
    assert game is not None
    return StoredTable(
        table=TableRow(id=t.id, invite=t.invite, public=True, rules=rules.to_dict(),
                       grace_seconds=t.grace, created_at=NOW.replace(tzinfo=None),
                       status="finished" if finished else "playing", rated=True, teach=False),
        seats=[SeatRow(table_id=t.id, seat=s.seat, kind=s.kind, level=s.level, name=s.name,
                       token_hash=s.token_hash, user_id=s.user_id,
                       abandoned_match="m1" if s.seat == 1 else None) for s in t.seats],
        match=MatchRow(id="m1", table_id=t.id, number=1, rules=rules.to_dict(), players=[],
                       finished_at=NOW if finished else None,
                       winner=t.winner, scores=t.final_scores),
        events=events,
    )


def logged(seed: str, target: int, stop: int | None) -> tuple[Table, list[EventRow]]:
    """A match played through the flow, and its log as the master writes it."""
    t = table(seat(0), seat(1), rules=Rules(target=target), rated=True)
    flow.start_match(t, "m1", 1, Match(t.rules, hand_seed=seed))
    events = [EventRow(match_id="m1", seq=0, kind="hand", data={"number": 1, "seed": seed})]
    while not t.match_over and len(events) != stop:
        game = t.game
        assert game is not None
        if game.hand.hand_over:
            hand_seed = f"{seed}{t.seq}"
            flow.deal(t, hand_seed)
            events.append(EventRow(match_id="m1", seq=len(events), kind="hand",
                                   data={"number": game.hand_number, "seed": hand_seed}))
            continue
        s = game.hand.to_move
        move = game.hand.legal_moves()[-1]
        flow.play_move(t, move, "human", 0.0, PAUSE, 0.0)
        events.append(EventRow(match_id="m1", seq=len(events), kind="move",
                               data={"seat": s, **move.to_dict(), "by": "human"}))
    return t, events


def test_rebuild_replays_the_log_to_the_same_table() -> None:
    t, events = logged("going", target=11, stop=30)
    back = flow.rebuild(stored(t, events, finished=False))
    assert back.status == "playing" and back.state_id == t.state_id
    assert back.game is not None and t.game is not None
    mine, theirs = back.game.hand, t.game.hand
    assert mine.history == theirs.history and mine.hands == theirs.hands
    assert back.abandoned == {1} and back.created_at.tzinfo is not None
    assert [s.name for s in back.seats] == ["p0", "p1"] and not back.teach


def test_rebuild_of_a_finished_match_keeps_its_result() -> None:
    t, events = logged("ends", target=1, stop=None)
    assert t.match_over
    back = flow.rebuild(stored(t, events, finished=True))
    assert back.status == "finished" and back.match_over
    assert (back.winner, back.final_scores) == (t.winner, t.final_scores)
    assert back.abandoned == set()  # a finished match's abandons are already counted


def test_refresh_takes_the_log_and_says_whether_anything_changed() -> None:
    t, events = logged("fresh", target=11, stop=20)
    behind = flow.rebuild(stored(t, events[:10], finished=False))
    behind.next_votes = {0}
    assert not flow.refresh(behind, flow.rebuild(stored(t, events[:10], finished=False)), 1.0)
    assert flow.refresh(behind, flow.rebuild(stored(t, events, finished=False)), 1.0)
    assert behind.state_id == t.state_id and behind.next_votes == {0}  # same match
    newer = flow.rebuild(stored(t, events, finished=False))
    newer.match_number = 2
    assert flow.refresh(behind, newer, 1.0)
    assert behind.next_votes == set() and behind.rematch_votes == set()
