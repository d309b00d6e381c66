"""The table flow: every decision about a table's seats, hands, votes, stand-ins and match
end, as plain functions on a ``Table``.

Nothing here waits, stores, sends or reads a clock (times are given): the master, the async
shell around it, takes the lock, commits to storage, sets the timers and sends the frames
these functions decide on. So the flow is tested synchronously (``tests/server/play/test_flow``),
as boardgame.io tests its core flow without a server.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Any, cast

from ...hand import Hand
from ...match import Match, totals_after, winner_after
from ...moves import IllegalMoveError, Move
from ...replay import final_game
from ...rules import Rules
from ...view import history_entry
from ..common.refusal import Refusal
from ..players.names import bot_name, distinct_name
from ..store.base import aware
from ..store.models import played
from .answers import SeatKind, TableStatus
from .table import LIVE, SeatState, Table

if TYPE_CHECKING:
    from ..store.database import StoredTable

#: the pause between hands when no person is seated and connected (bots, spectators only)
BOTS_ONLY_PAUSE_SECONDS = 2.0


# -- tables and seats -------------------------------------------------------------------
def check_room(tables: Iterable[Table], address: str | None, max_live: int,
               max_waiting: int) -> None:
    """Refuse a new table when the server holds ``max_live`` live tables (``busy``) or
    ``address`` already has ``max_waiting`` tables waiting for players (``too_many``)."""
    live = waiting_here = 0
    for t in tables:
        if t.status in LIVE:
            live += 1
            waiting_here += t.status == "waiting" and t.creator_address == address
    if live >= max_live:
        raise Refusal("busy", "the server is full: try again later")
    if address is not None and waiting_here >= max_waiting:
        raise Refusal(
            "too_many", f"this address already has {waiting_here} tables waiting for "
            "players: fill or leave one first")


def new_seats(specs: list[dict[str, Any]], creator: str | None, creator_seat: int | None,
              rng: random.Random) -> list[SeatState]:
    """A new table's seats, every one with a distinct name: the creator's first (on
    ``creator_seat``, a human seat), then each bot's; other human seats stay free."""
    if creator_seat is not None and creator is None:
        raise Refusal("bad_message", "the creator needs a name")
    names: list[str | None] = [creator] if creator_seat is not None else []
    states = []
    for i, spec in enumerate(specs):
        kind = spec["kind"]
        level = spec.get("level") if kind == "bot" else spec.get("bot")
        name = None
        if kind == "online":  # a person's seat kept for an online bot (``server.bots``)
            name = spec.get("name")
            names.append(name)
            states.append(SeatState(i, "human", None, name, None, user_id=spec.get("user_id"),
                                    bot_account=True))
            continue
        if kind == "bot":
            name = bot_name(names, rng)
        elif kind == "external":
            name = distinct_name(f"{level} (external)", names)
        names.append(name)
        states.append(SeatState(i, kind, level, name, None))
    if creator_seat is not None:
        states[creator_seat].name = creator
    return states


def choose_seat(table: Table, name: str, seat: int | None,
                user_id: int | None, bot: bool = False) -> tuple[SeatState, str]:
    """The free human seat a joining player gets (``seat``, or the first free one) and
    the name shown there (distinct from the others'); refused with ``Refusal``. A bot
    account (``bot``) takes only a seat kept for online bots (for it, or for any), a
    person never one."""
    if table.rated and user_id is None:
        raise Refusal("account_needed", "a rated table is for signed-in players")
    if user_id is not None and any(s.user_id == user_id and s.token_hash is not None
                                   for s in table.seats):
        raise Refusal("conflict", "you already have a seat at this table")
    free = [s for s in table.seats if s.kind == "human" and s.token_hash is None
            and s.bot_account == bot and (not bot or s.user_id in (None, user_id))]
    if seat is not None:
        chosen = [s for s in free if s.seat == seat]
        if not chosen:
            raise Refusal("conflict", f"seat {seat} is not a free human seat")
        target = chosen[0]
    elif free:
        target = free[0]
    else:
        raise Refusal("conflict", "every seat at this table is taken")
    return target, distinct_name(name, [s.name for s in table.seats if s is not target])


def full(table: Table) -> bool:
    """Every seat is taken and no match has started: time to deal the first one."""
    return table.status == "waiting" and all(s.taken for s in table.seats)


def expired(table: Table, cutoff: datetime) -> bool:
    """The table was made before ``cutoff`` and still waits for players."""
    return table.status == "waiting" and table.created_at < cutoff


def closable(table: Table) -> bool:
    """An expired table may still be closed: it has neither started nor filled up (a
    join that filled it wins, and the match is about to start)."""
    return table.status == "waiting" and not all(s.taken for s in table.seats)


def forgettable(table: Table, now: float, keep: float) -> bool:
    """A finished table nobody has watched for ``keep`` seconds (monotonic ``now``)."""
    return (table.status == "finished" and table.finished_at is not None
            and now - table.finished_at > keep and not table.spectators
            and not any(s.conns for s in table.seats))


# -- matches and moves ------------------------------------------------------------------
def start_match(table: Table, match_id: str, number: int, game: Match) -> list[SeatState]:
    """A new match's first deal is committed: the table plays it, votes start afresh.
    Returns the human seats nobody is at (their grace period starts now)."""
    table.match_id, table.match_number, table.game, table.seq = match_id, number, game, 1
    table.status, table.winner, table.final_scores = "playing", None, None
    table.abandoned = set()
    for s in table.seats:
        s.resigned = False
    table.next_hand_at, table.next_votes, table.rematch_votes = None, set(), set()
    return [s for s in table.seats if s.kind == "human" and not s.present]


def check_move(table: Table, seat: int, state_id: object, move_data: object,
               by: str = "human") -> Move:
    """The move ``seat`` may play now (``by`` a person, a bot or a stand-in), or a
    ``Refusal`` saying why not; the table is left as it was."""
    game = table.game
    if game is None:
        raise Refusal("not_started", "the match has not started: waiting for players")
    if table.match_over:
        raise Refusal("match_over", "the match is over", table.state_id)
    if game.hand.hand_over:
        raise Refusal("hand_over", "the hand is over: wait for the next deal",
                          table.state_id)
    s = table.seats[seat]
    if by == "human" and s.kind != "human":
        raise Refusal("not_your_turn", "this seat is played by a bot")
    if by == "human" and s.resigned:
        raise Refusal("resigned", "you resigned this match: a stand-in plays your seat")
    if by != "human" and not s.bot_played:
        raise Refusal("not_your_turn", "the seat's player is back")
    if game.hand.to_move != seat:
        raise Refusal("not_your_turn", f"it is seat {game.hand.to_move}'s turn",
                          table.state_id)
    if state_id != table.state_id:
        raise Refusal(
            "stale_state", f"the state changed (now {table.state_id}): look again",
            table.state_id,
        )
    try:
        move = Move.from_dict(move_data)
    except IllegalMoveError as e:
        raise Refusal("bad_message", str(e), table.state_id) from None
    if move.code not in game.hand.legal_codes():
        # the engine's own explanation, on a copy (nothing here may change)
        try:
            game.hand.copy().play(move)
            why = "not a legal move"
        except IllegalMoveError as e:
            why = str(e)
        raise Refusal("illegal_move", why, table.state_id)
    return move


def given_seed(table: Table, number: int) -> str | None:
    """The seed a table was given for its hand ``number`` (1-based), if any (a match of
    fixed deals); else the master deals a fresh one."""
    return table.seeds[number - 1] if 1 <= number <= len(table.seeds) else None


def winner_now(table: Table, hand: Hand) -> int | None:
    """The side that has won the match, the (match's current or probed) hand being over:
    the rules' target decides, or at a table of fixed deals the totals once its deals are
    played (level: nobody yet, one more hand is dealt)."""
    if table.deals is None:
        return winner_after(hand)
    if hand.hand_number < table.deals:
        return None
    totals = totals_after(hand)
    best = max(totals)
    return totals.index(best) if totals.count(best) == 1 else None


def match_finish(table: Table, move: Move) -> tuple[int, list[int], int] | None:
    """If ``move`` ends the match: (winner, final scores, hands played), stored with the
    move in one transaction; else None. The table's game is not changed."""
    assert table.game is not None
    probe = table.game.hand.copy()
    probe.play_code(move.code)
    if probe.hand_over:
        winner = winner_now(table, probe)
        if winner is not None:
            return winner, totals_after(probe), probe.hand_number
    return None


@dataclass(frozen=True)
class Played:
    """What a committed move did: the event every socket is told, and whether it ended
    the hand and the match."""

    event: dict[str, Any]
    hand_over: bool
    match_over: bool


def play_move(table: Table, move: Move, by: str, now: float, pause: float,
              monotonic: float) -> Played:
    """Apply a committed move. At a hand's end the score sheet stays up until ``now`` plus
    the pause (``hand_pause``); at the match's end the table is finished (at
    ``monotonic``, for forgetting it later)."""
    game = table.game
    assert game is not None
    round_before = game.hand.round
    at = len(game.hand.history)
    game.hand.play(move)
    table.seq += 1
    entry = history_entry(game.hand.history[at])  # the move's own (a deal may add more)
    event = {"kind": "move", **entry, "by": by, "dealt": game.hand.round != round_before}
    if not game.hand.hand_over:
        return Played(event, False, False)
    winner = winner_now(table, game.hand)
    if winner is not None:
        table.winner, table.final_scores = winner, game.match_totals()
        table.status = "finished"
        table.finished_at = monotonic
    else:
        table.next_hand_at = now + hand_pause(table, pause)
        table.next_votes = set()
    return Played(event, True, winner is not None)


def deal_due(table: Table, state_id: int) -> bool:
    """The next hand is still to deal at ``state_id`` (no other deal or match came
    first)."""
    game = table.game
    return (game is not None and table.state_id == state_id and game.hand.hand_over
            and not table.match_over)


def deal(table: Table, seed: str) -> dict[str, Any]:
    """Deal a committed hand; the event every socket is told."""
    game = table.game
    assert game is not None
    game.next_hand(seed=seed)
    table.seq += 1
    table.next_hand_at, table.next_votes = None, set()
    return {"kind": "deal", "hand_number": game.hand_number, "dealer": game.hand.dealer}


def bot_to_move(table: Table) -> int | None:
    """The seat a bot (or a stand-in) is to play for now, if any."""
    game = table.game
    if game is None or game.hand.hand_over or table.match_over:
        return None
    seat = game.hand.to_move
    return seat if table.seats[seat].bot_played else None


# -- between hands ----------------------------------------------------------------------
def between_hands(table: Table) -> bool:
    game = table.game
    return game is not None and game.hand.hand_over and not table.match_over


def hand_pause(table: Table, pause: float) -> float:
    """How long the score sheet stays up at most: until every person seated presses
    Continue (or this pause ends, so one absent player cannot stall the table); a table
    with no person connected moves on after a short look."""
    people = [s for s in table.seats if s.kind == "human" and s.present and not s.bot_played]
    return pause if people else min(pause, BOTS_ONLY_PAUSE_SECONDS)


def waiting_for(table: Table) -> list[int]:
    """The seats whose person has not pressed Continue yet. Everyone seated counts,
    connected or briefly away (a reload); a seat a stand-in has taken over does not."""
    return sorted(
        s.seat for s in table.seats
        if s.kind == "human" and s.taken and not s.bot_played and s.seat not in table.next_votes
    )


class Next(Enum):
    """What to do between hands after a vote or a stand-in."""

    NOTHING = "nothing"  # not between hands
    WAIT = "wait"  # tell who is still reading the score sheet
    DEAL = "deal"  # everyone has: deal the next hand


def next_vote(table: Table, seat: int) -> bool:
    """``seat`` pressed Continue; False when there is nothing to wait for (harmless)."""
    if not between_hands(table):
        return False
    table.next_votes.add(seat)
    return True


def after_vote(table: Table) -> Next:
    """Deal when nobody is still reading the score sheet, else wait for them."""
    if not between_hands(table):
        return Next.NOTHING
    return Next.WAIT if waiting_for(table) else Next.DEAL


# -- the rematch ------------------------------------------------------------------------
def may_rematch(table: Table) -> bool:
    """Whether the players may vote a rematch once the match ends: not at an event's
    table, whose next game is the event's to pair (a rematch there would be a match the
    event never asked for, between people it may not pair again)."""
    return not table.event_table


def check_rematch(table: Table) -> None:
    if not may_rematch(table):
        raise Refusal("event_table", "this is an event's table: the event pairs the "
                          "next game, so there is no rematch", table.state_id)
    if not table.match_over:
        raise Refusal("match_not_over", "the match is not over yet", table.state_id)


@dataclass(frozen=True)
class Rematch:
    """The rematch votes after one more, the seats needed, and whether to start."""

    votes: list[int]
    needed: list[int]
    start: bool


def rematch_vote(table: Table, seat: int) -> Rematch:
    table.rematch_votes.add(seat)
    needed = sorted(s.seat for s in table.seats if s.kind == "human")
    return Rematch(sorted(table.rematch_votes), needed, set(needed) <= table.rematch_votes)


def start_pending(table: Table) -> bool:
    """A match should start but has not (the last join or rematch vote reached a worker
    that died before starting it). Never a rematch where none may be voted: an event's
    table of two bots has no votes to wait for, and must not play on."""
    humans = {s.seat for s in table.seats if s.kind == "human"}
    return full(table) or (table.match_over and may_rematch(table)
                           and table.rematch_votes >= humans)


# -- presence and stand-ins -------------------------------------------------------------
def grace_due(table: Table, s: SeatState) -> bool:
    """Nobody is at ``s`` any more while a match is on: its grace period starts."""
    return table.game is not None and not table.match_over and not s.present


def standin_due(s: SeatState) -> bool:
    """The grace period ended: a stand-in plays ``s`` if its person is still away (a
    resigned seat has its stand-in already, and its loss counted)."""
    return s.kind == "human" and not s.present and not s.resigned


def abandons(table: Table, seat: int) -> bool:
    """A stand-in took ``seat`` past the grace period: in a rated match going on, that
    marks the seat abandoned (a loss for its player at the end); whether it did."""
    if not table.rated or table.game is None or table.match_over:
        return False
    table.abandoned.add(seat)
    return True


def seat_back(s: SeatState) -> bool:
    """A socket arrived on ``s``: its person plays again; whether a stand-in had it."""
    was = s.standin
    s.standin = False
    return was


def remote_presence(s: SeatState, worker: str, count: int) -> bool:
    """Another worker has ``count`` sockets on ``s``; whether the seat's presence changed
    (back: no more stand-in)."""
    before = s.present
    if count > 0:
        s.remote[worker] = count
    else:
        s.remote.pop(worker, None)
    if s.present == before:
        return False
    if s.present:
        s.standin = False
    return True


def set_standin(table: Table, seat: int, on: bool) -> bool:
    """The driving worker let a stand-in play ``seat`` (or its player came back);
    whether that changed anything here."""
    if not 0 <= seat < len(table.seats) or table.seats[seat].standin == on:
        return False
    table.seats[seat].standin = on
    if on:  # the driving worker stored the mark; this worker may write the last move
        abandons(table, seat)
    return True


# -- resigning ------------------------------------------------------------------------
def check_resign(table: Table, seat: int) -> tuple[int, list[int], int] | None:
    """May ``seat`` resign now? ``Refusal`` (nothing changed) if not. Returns the
    match's end when this resignation ends it, as ``match_finish`` does for a move:
    (winner, scores, hands) when every person of the seat's side has now resigned and
    there are two sides (the other side wins, the points stay as they are); None when the
    seat only leaves (a stand-in plays it to the end: a partner still plays on, or more
    than two sides play)."""
    game = table.game
    if game is None:
        raise Refusal("not_started", "the match has not started: waiting for players")
    if table.match_over:
        raise Refusal("match_over", "the match is over", table.state_id)
    s = table.seats[seat]
    if s.kind != "human":
        raise Refusal("not_your_turn", "this seat is played by a bot")
    if s.resigned:
        raise Refusal("resigned", "you have already resigned this match", table.state_id)
    rules = table.rules
    side = rules.side_of(seat)
    partners = [o for o in table.seats if o.kind == "human" and o.seat != seat
                and rules.side_of(o.seat) == side and not o.resigned]
    if partners or rules.teams != 2:
        return None
    scores = game.match_totals() if game.hand.hand_over else list(game.scores)
    return 1 - side, scores, game.hand_number


def resign(table: Table, seat: int, finish: tuple[int, list[int], int] | None,
           monotonic: float) -> dict[str, Any]:
    """Apply a committed resignation (``finish`` as ``check_resign`` gave it): the match
    ends with the other side the winner, or the seat leaves to a stand-in and, in a rated
    match, counts as abandoned (a loss for its player, as a seat left past the grace
    period). The event every socket is told."""
    s = table.seats[seat]
    s.resigned = True
    s.standin = False
    table.seq += 1
    table.next_votes.discard(seat)
    if finish is not None:
        table.winner, table.final_scores = finish[0], list(finish[1])
        table.status = "finished"
        table.finished_at = monotonic
        table.next_hand_at = None
    else:
        abandons(table, seat)
    return {"kind": "resign", "seat": seat, "ends": finish is not None}


# -- the log ----------------------------------------------------------------------------


def rebuild(st: StoredTable) -> Table:
    """A table as its rows and its log say, the match replayed through the engine's one
    replay (``scopa.replay``); a finished match's final position and result too."""
    t = st.table
    table = Table(
        id=t.id, invite=t.invite, public=t.public, rules=Rules.from_dict(t.rules),
        grace=t.grace_seconds, created_at=aware(t.created_at),
        status=cast(TableStatus, t.status),
        seats=[SeatState(s.seat, cast(SeatKind, s.kind), s.level, s.name, s.token_hash,
                         user_id=s.user_id, bot_account=s.bot_account)
               for s in st.seats],
        rated=t.rated, teach=t.teach, seeds=list(t.seeds or []), deals=t.deals,
        event_id=st.event_id, shared_deals=st.shared_deals,
    )
    match = st.match
    if match is None:
        return table
    table.game = final_game(table.rules, played(st.events))
    table.match_id, table.match_number, table.seq = match.id, match.number, len(st.events)
    for ev in st.events:
        if ev.kind == "resign":
            table.seats[ev.data["seat"]].resigned = True
    if match.finished_at is not None:
        table.winner, table.final_scores = match.winner, match.scores
        table.status = "finished"
        return table
    table.status = "playing"
    table.abandoned = {s.seat for s in st.seats if s.abandoned_match == match.id}
    for s in table.seats:
        if s.resigned:
            abandons(table, s.seat)
    return table


def refresh(table: Table, fresh: Table, monotonic: float) -> bool:
    """Make ``table`` what ``fresh`` (``rebuild`` of the log) says: seats, status, match,
    game; the sockets, tasks and votes of a match going on stay. Whether what the sockets
    see changed."""
    before = (table.state_id, [(s.name, s.token_hash) for s in table.seats])
    new_match = fresh.match_number != table.match_number
    for s, row in zip(table.seats, fresh.seats, strict=True):
        s.kind, s.level, s.name, s.token_hash = row.kind, row.level, row.name, row.token_hash
        s.user_id, s.resigned, s.bot_account = row.user_id, row.resigned, row.bot_account
    table.abandoned = set(fresh.abandoned) if new_match else table.abandoned | fresh.abandoned
    table.status, table.game, table.match_id = fresh.status, fresh.game, fresh.match_id
    table.match_number, table.seq = fresh.match_number, fresh.seq
    table.winner, table.final_scores = fresh.winner, fresh.final_scores
    if table.match_over and table.finished_at is None:
        table.finished_at = monotonic
    if new_match:
        table.next_votes, table.rematch_votes = set(), set()
    if not between_hands(table):
        table.next_hand_at = None
    return before != (table.state_id, [(s.name, s.token_hash) for s in table.seats])
