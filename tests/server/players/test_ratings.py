"""The rating rules without a server: pools, finishing places, bots fixed, abandoning a
rated match counts as a loss; and the user-name and password policy."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from scopa.rules import Rules, table_rules
from scopa.server.players import passwords
from scopa.server.players.ratings import (
    BOT_RATINGS,
    START,
    Outcome,
    SeatOutcome,
    conservative,
    new_ratings,
    pool_of,
    ranks,
    settled,
    shown,
    side_stats,
)
from scopa.server.store import migrate
from scopa.server.store.database import Store


def outcome(rules: Rules, winner: int, scores: list[int], seats: list[SeatOutcome]) -> Outcome:
    return Outcome("m1", rules, True, winner, scores, seats,
                   [dict(hands=1, points=0, sweeps=0, settebello=0, primiera=0, coins=0)
                    for _ in range(rules.teams)])


def test_pools() -> None:
    assert pool_of(table_rules("scopa", {})) == "singles"
    assert pool_of(table_rules("scopa", {}, players=3)) == "singles"
    assert pool_of(table_rules("scopa", {}, players=4, teams=2)) == "teams"
    assert pool_of(table_rules("scopone", {})) == "scopone"
    assert pool_of(table_rules("scopone-scientifico", {})) == "scopone"


def test_places_put_the_winner_first_and_the_rest_by_points() -> None:
    rules = table_rules("scopa", {}, players=3)
    o = outcome(rules, 2, [5, 9, 11], [])
    assert ranks(o) == [2, 1, 0]


def test_a_win_against_a_bot_raises_a_loss_lowers_and_the_bot_stays() -> None:
    rules = table_rules("scopa", {})
    me = SeatOutcome(0, 0, 7, None, False)
    bot = SeatOutcome(1, 1, None, "intermediate", False)
    won = new_ratings(outcome(rules, 0, [11, 5], [me, bot]), {})
    lost = new_ratings(outcome(rules, 1, [5, 11], [me, bot]), {})
    assert set(won) == set(lost) == {7}  # only accounts get ratings
    assert conservative(*won[7]) > conservative(*START) > conservative(*lost[7])
    assert won[7][1] < START[1]  # less uncertain after a match
    assert BOT_RATINGS["intermediate"] == (24.0, 1.0)


def test_abandoning_counts_as_a_loss_whatever_the_score() -> None:
    rules = table_rules("scopa", {})
    bot = SeatOutcome(1, 1, None, "beginner", False)
    stayed = SeatOutcome(0, 0, 7, None, False)
    left = SeatOutcome(0, 0, 7, None, True)
    # the stand-in won the match for the seat: its player still loses
    after_leaving = new_ratings(outcome(rules, 0, [11, 3], [left, bot]), {})
    after_losing = new_ratings(outcome(rules, 1, [3, 11], [stayed, bot]), {})
    assert after_leaving == after_losing


def test_in_a_team_game_only_the_one_who_left_loses() -> None:
    rules = table_rules("scopa", {}, players=4, teams=2)
    seats = [SeatOutcome(0, 0, 1, None, True), SeatOutcome(1, 1, 2, None, False),
             SeatOutcome(2, 0, 3, None, False), SeatOutcome(3, 1, 4, None, False)]
    after = new_ratings(outcome(rules, 0, [11, 4], seats), {})
    assert conservative(*after[3]) > conservative(*START)  # the partner who stayed won
    assert conservative(*after[1]) < conservative(*START)  # the one who left lost
    assert conservative(*after[2]) < conservative(*START)


def test_a_newcomer_s_shown_rating_moves_with_the_first_result() -> None:
    # a first loss reads as one (it was "0.0 -> 0.0" on the floored mu - 3 sigma), a first
    # win as one, on the 1500 scale, provisional until sigma has come down
    rules = table_rules("scopa", {})
    me = SeatOutcome(0, 0, 7, None, False)
    bot = SeatOutcome(1, 1, None, "intermediate", False)
    lost = new_ratings(outcome(rules, 1, [5, 11], [me, bot]), {})
    won = new_ratings(outcome(rules, 0, [11, 5], [me, bot]), {})
    assert shown(*START) == 1500 and not settled(START[1])
    assert shown(*lost[7]) < 1500 < shown(*won[7])
    assert shown(*lost[7]) > 1300 and shown(*won[7]) < 1700  # a step people know
    assert shown(30.0, 2.0) == 1700 and settled(2.0)
    rating = START
    for _ in range(12):  # results against the bots settle it
        rating = new_ratings(outcome(rules, 0, [11, 5], [me, bot]), {7: rating})[7]
    assert settled(rating[1])


def test_accounts_to_keep_keep_their_rating() -> None:
    rules = table_rules("scopa", {})
    seats = [SeatOutcome(0, 0, 1, None, False), SeatOutcome(1, 1, 2, None, False)]
    after = new_ratings(outcome(rules, 0, [11, 2], seats), {2: (27.0, 3.0)}, keep={1})
    assert after[1] == START  # the winner's opponent was provisional: no gain
    assert after[2][0] < 27.0  # the provisional loser is rated as usual


def test_side_stats_sum_the_hands() -> None:
    sheet = {"sides": [
        {"total": 3, "scope": 2, "points": {"settebello": 1, "primiera": 1, "coins": 0}},
        {"total": 1, "scope": 0, "points": {"settebello": 0, "primiera": 0, "coins": 1}},
    ]}
    got = side_stats([sheet, sheet], 2)
    assert got[0] == dict(hands=2, points=6, sweeps=4, settebello=2, primiera=2, coins=0)
    assert got[1] == dict(hands=2, points=2, sweeps=0, settebello=0, primiera=0, coins=2)


@pytest.mark.parametrize("name", ["Anna", "luca_99", "Zoë.b", "a-b-c"])
def test_good_user_names(name: str) -> None:
    assert passwords.check_user_name(f"  {name} ") == name


@pytest.mark.parametrize("name", ["ab", "1abc", "_abc", "a b", "a\u202eb", "Giulia", "ROOT",
                                  "x" * 21, None, "ab\nc"])
def test_bad_user_names(name: object) -> None:
    with pytest.raises(ValueError):
        passwords.check_user_name(name)


def test_passwords_hash_and_verify() -> None:
    h = passwords.hash_password("a good long password")
    assert h.startswith("$argon2id$")
    assert passwords.verify_password(h, "a good long password")
    assert not passwords.verify_password(h, "a good long passworD")
    assert not passwords.verify_password("not a hash", "x")


def test_stored_ratings_move_to_the_1500_scale(url: str) -> None:
    # two rated matches stored on the old scale (a floored first loss, then a win): after
    # the migration the history and the seats' before/after read on the new one, chained
    async def run() -> None:
        store = Store(url)
        try:
            await migrate.upgrade(store.engine, "0010_tournaments")
            async with store.engine.begin() as conn:
                run_sql = conn.execute
                await run_sql(text(
                    "INSERT INTO users (id, name, name_key, password_hash, private, created_at)"
                    " VALUES (7, 'Anna', 'anna', 'x', false, CURRENT_TIMESTAMP)"))
                await run_sql(text("INSERT INTO ratings (user_id, pool, mu, sigma, games, wins,"
                                   " updated_at) VALUES (7, 'singles', 24.0, 7.0, 2, 1,"
                                   " CURRENT_TIMESTAMP)"))
                await run_sql(text("INSERT INTO tables (id, invite, public, rules, "
                                   "grace_seconds, created_at, status, rated, teach) VALUES "
                                   "('t', 'i', true, '{}', 1, CURRENT_TIMESTAMP, 'finished',"
                                   " true, false)"))
                for n, (old_before, old_after) in enumerate(((0.0, 0.0), (0.0, 3.5))):
                    await run_sql(text(
                        "INSERT INTO matches (id, table_id, number, rules, players, started_at,"
                        " hands) VALUES (:m, 't', :n, '{}', '[]', CURRENT_TIMESTAMP, 1)"),
                        {"m": f"m{n}", "n": n + 1})
                    await run_sql(text(
                        "INSERT INTO match_players (match_id, seat, user_id, side, won, "
                        "abandoned, points, hands, sweeps, settebello, primiera, coins, "
                        "rating_before, rating_after) VALUES (:m, 0, 7, 0, :w, false, 0, 1, 0,"
                        " 0, 0, 0, :b, :a)"),
                        {"m": f"m{n}", "w": n == 1, "b": old_before, "a": old_after})
                    await run_sql(text(
                        "INSERT INTO rating_history (user_id, pool, match_id, rating, at) "
                        "VALUES (7, 'singles', :m, :r, :at)"),
                        {"m": f"m{n}", "r": old_after,
                         "at": datetime(2026, 12, 1 + n, tzinfo=UTC)})
            await store.migrate()
            async with store.engine.begin() as conn:
                history = [r for (r,) in await conn.execute(text(
                    "SELECT rating FROM rating_history ORDER BY match_id"))]
                seats = [tuple(r) for r in await conn.execute(text(
                    "SELECT rating_before, rating_after FROM match_players ORDER BY match_id"))]
            # mu ~ old + 3 sigma (sigma now 7): 0 -> 1500 + 40 (21 - 25), 3.5 -> + 140
            assert history == [1340, 1480]
            assert seats == [(1500, 1340), (1340, 1480)]
        finally:
            await store.close()

    asyncio.run(run())
