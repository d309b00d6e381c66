"""The rating rules without a server: pools, finishing places, bots fixed, abandoning a
rated match counts as a loss; and the user-name and password policy."""

from __future__ import annotations

import pytest

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
    shown,
    side_stats,
)


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


def test_a_newcomer_s_shown_rating_never_goes_below_zero() -> None:
    rules = table_rules("scopa", {})
    me = SeatOutcome(0, 0, 7, None, False)
    lost = new_ratings(outcome(rules, 1, [5, 11], [me, SeatOutcome(1, 1, None, "champion",
                                                                     False)]), {})
    assert conservative(*lost[7]) < 0  # the model's estimate, which sorts leaderboards
    assert shown(*START) == 0.0 and shown(*lost[7]) == 0.0  # what people see
    assert shown(30.0, 2.0) == 24.0


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
