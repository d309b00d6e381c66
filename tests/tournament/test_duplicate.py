"""Duplicate mode: every table of a round is dealt the same cards (and other rounds, or a
plain event's tables, other cards); field scores sum to zero over each group that held
the same cards."""

from __future__ import annotations

from functools import partial

from hypothesis import given
from hypothesis import strategies as st

from scopa.arena.play import as_factory, play_table
from scopa.arena.seating import seat_bots
from scopa.rules import Rules
from scopa.shuffle import child_seed
from scopa.tournament import Event, Result, duplicate, play_job, table_jobs
from scopa.tournament.duplicate import field_scores
from seed_guess import leaks


def _decks(event: Event, round_number: int) -> dict[int, list[list[int]]]:
    """Per table, the deck of each deal as the arena deals it (the round's results are
    entered on the way)."""
    rules = event.rules()
    factories = [as_factory("random"), as_factory("greedy")]
    out: dict[int, list[list[int]]] = {}

    def deal(table: int, seed: str, side: int) -> tuple[int, int]:
        arrangement = [0, 1] if side == 0 else [1, 0]
        played = play_table(factories, rules, seat_bots(arrangement, rules.players), seed,
                            False)
        out.setdefault(table, []).append(played.decks[0])
        return played.points[side], played.points[1 - side]

    for job in table_jobs(event, event.round(round_number)):
        result = play_job(job, partial(deal, job.table), lambda seed: (0, 0))
        event.enter_result(round_number, job.table, result)
    return out


def test_every_table_of_a_round_holds_the_same_cards() -> None:
    event = Event([f"e{i}" for i in range(6)], deals_per_round=3, duplicate=True, seed="d",
                  variant="scopone-scientifico")
    event.next_round()
    first = _decks(event, 1)
    assert len(first) == 3
    assert first[1] == first[2] == first[3]
    assert len({tuple(d) for d in first[1]}) == 3  # three different deals
    event.next_round()
    second = _decks(event, 2)
    assert second[1] == second[2] == second[3] and second[1] != first[1]


def test_without_duplicate_each_table_has_its_own_cards() -> None:
    event = Event([f"e{i}" for i in range(4)], deals_per_round=2, seed="d")
    event.next_round()
    decks = _decks(event, 1)
    assert decks[1] != decks[2]


def test_the_deals_come_from_the_committed_round_seed() -> None:
    event = Event(["A", "B", "C", "D"], deals_per_round=2, duplicate=True)
    rnd = event.next_round()
    for table in rnd.tables:
        assert [seed for seed, _ in event.deal_seeds(1, table.number)] == [
            child_seed(rnd.seed, f"deal:{d}") for d in range(2)]
    assert event.deal_seeds(1, 1) == event.deal_seeds(1, 2)
    event.enter_result(1, 1, Result(deals=((1, 0), (0, 0))))


@given(st.sampled_from([("swiss", True), ("swiss", False), ("knockout", False)]),
       st.text(min_size=1, max_size=12))
def test_a_revealed_hand_seed_gives_away_no_other(kind: tuple[str, bool],
                                                  event_seed: str) -> None:
    # the hand seeds a table's score sheets show, one after the other: from each, nothing
    # the naming allows finds the round's seed, another deal's seed or the next round's
    fmt, dup = kind
    event = Event([f"e{i}" for i in range(4)], format=fmt, deals_per_round=3,
                  duplicate=dup, seed=event_seed)
    event.next_round()
    secret = {event.seed, event.round(1).seed, duplicate.round_seed(event_seed, 2)}
    hands = [s for t in (1, 2) for s, _ in event.deal_seeds(1, t) + event.decider_seeds(1, t)]
    for shown in hands:
        assert not leaks([shown], (secret | set(hands)) - {shown}), shown


def test_an_event_stored_before_the_hmac_seeds_deals_as_it_did() -> None:
    event = Event(["A", "B", "C", "D"], deals_per_round=2, duplicate=True, seed="s")
    event.next_round()
    data = event.to_dict()
    assert data["seeding"] == "hmac"
    del data["seeding"]
    old = Event.from_dict(data)
    assert old.seeding == "legacy"
    assert [s for s, _ in old.deal_seeds(1, 1)] == [
        f"{old.round(1).seed}:deal:0", f"{old.round(1).seed}:deal:1"]
    again = Event.from_dict(event.to_dict())
    assert again.deal_seeds(1, 1) == event.deal_seeds(1, 1)


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=4, max_size=4),
       st.integers(1, 4))
def test_field_scores_sum_to_zero(points: list[tuple[int, int]], tables: int) -> None:
    # one deal, ``tables`` tables: the field scores of each group cancel out
    played = [(f"h{t}", f"a{t}", [points[t - 1]]) for t in range(1, tables + 1)]
    scores = field_scores(played)
    assert abs(sum(scores[f"h{t}"] for t in range(1, tables + 1))) < 1e-9
    assert abs(sum(scores[f"a{t}"] for t in range(1, tables + 1))) < 1e-9
    if tables == 1:
        assert set(scores.values()) == {0.0}


def test_rules_reach_the_tables() -> None:
    event = Event(["A", "B"], variant="scopone", options={"napola": True}, seed="x")
    rnd = event.next_round()
    (job,) = table_jobs(event, rnd)
    assert Rules.from_dict(job.rules) == event.rules() and event.rules().napola
