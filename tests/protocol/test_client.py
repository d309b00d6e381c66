"""ExternalBot: round trips with our served bots; every kind of broken program is stopped
with a clear BotProtocolError."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from scopa.bots.base import Limit
from scopa.hand import Hand
from scopa.match import Match
from scopa.notation import dump_position
from scopa.protocol import BotProtocolError, ExternalBot
from scopa.view import PlayerView

FAKE = [sys.executable, str(Path(__file__).with_name("fake_bot.py"))]
SERVED = [sys.executable, "-m", "scopa.protocol"]


def _play_hand(bots: list[ExternalBot], game: Hand) -> None:
    while not game.hand_over:
        game.play(bots[game.to_move].choose(PlayerView.of(game, game.to_move), Limit(seconds=0.5)))


def test_round_trip_with_served_bots_plays_whole_hands() -> None:
    game = Match.new("scopa", seed=1, players=3)
    bots = [ExternalBot([*SERVED, name], timeout=5) for name in ("random", "greedy", "random")]
    try:
        assert [b.name for b in bots] == ["random", "greedy", "random"]
        _play_hand(bots, game.hand)
        hand = game.hand
        assert hand.hand_over and sum(s["total"] for s in hand.hand_result()["sides"]) >= 1
        game.next_hand()
        _play_hand(bots, game.hand)
        assert game.hand_number == 2
    finally:
        for b in bots:
            b.close()
    assert not any(b.alive for b in bots)


def test_served_bot_is_reproducible_from_the_new_game_seed() -> None:
    def moves(seed: int) -> list[str]:
        game = Match.new("scopa", seed=5).hand
        with ExternalBot([*SERVED, "random"], timeout=5) as a, \
                ExternalBot([*SERVED, "random"], timeout=5) as b:
            a.reset(seed)
            b.reset(seed + 1)
            _play_hand([a, b], game)
        return [str(m) for m in game.moves()]

    assert moves(1) == moves(1)


def test_good_fake_bot_with_log_lines() -> None:
    game = Match.new("scopa", seed=2).hand
    with ExternalBot([*FAKE, "good"], timeout=5) as a, ExternalBot([*FAKE, "good"], 5) as b:
        assert a.name == "fake-good" and a.ready_name == "fake-good"
        _play_hand([a, b], game)
    assert game.hand_over


def test_ready_name_is_cleaned_and_a_missing_one_falls_back_to_the_command() -> None:
    with ExternalBot([*FAKE, "good", "--name", "  my\tbot\x1b[31m  0.3\n"], 5) as a, \
            ExternalBot([*FAKE, "good", "--name", ""], 5) as b:
        assert a.ready_name == a.name == "my bot [31m 0.3"
        assert b.ready_name is None and b.name == " ".join([*FAKE, "good", "--name", ""])


@pytest.mark.parametrize("given,expected", [
    ("champ", "champ"), ("", None), ("  \n ", None), (7, None), (None, None),
    ("a" * 100, "a" * 64), ("two\nlines", "two lines"),
])
def test_clean_name(given: object, expected: str | None) -> None:
    from scopa.protocol.messages import clean_name

    assert clean_name(given) == expected


@pytest.mark.parametrize(
    "mode,message",
    [
        ("crash-move", r"exited \(code 1\) before answering move_request 1(.|\n)*ZeroDivision"),
        ("hang", "did not answer move_request 1 within 0.5 s"),
        ("nonsense", "bad line: not JSON.*I play the seven"),
        ("illegal", "which is not legal here; legal moves:"),
        ("not-my-card", "which is not legal here"),
        ("malformed-move", "malformed move"),
        ("upper-case", "malformed move.*not a card"),
        ("wide-digits", "malformed move.*not a card"),
        ("wrong-id", "answered move_request 6, expected 1"),
        ("error", "reported an error: 'out of memory'"),
    ],
)
def test_broken_bot_on_move(mode: str, message: str) -> None:
    game = Match.new("scopa", seed=3).hand
    before = dump_position(game)
    bot = ExternalBot([*FAKE, mode], timeout=0.5, startup_timeout=10)
    try:
        with pytest.raises(BotProtocolError, match=message) as err:
            bot.choose(PlayerView.of(game, game.to_move))
        assert "fake_bot.py" in str(err.value)
        assert not bot.alive
        with pytest.raises(BotProtocolError, match="failed earlier"):
            bot.choose(PlayerView.of(game, game.to_move))
    finally:
        bot.close()
    assert dump_position(game) == before


@pytest.mark.parametrize(
    "mode,message",
    [
        ("crash-start", r"exited \(code 3\) before answering hello(.|\n)*neural net"),
        ("bad-protocol", "speaks protocol 2"),
        ("silent-hello", "did not answer hello within 0.5 s"),
    ],
)
def test_broken_bot_at_start(mode: str, message: str) -> None:
    with pytest.raises(BotProtocolError, match=message):
        startup = 10.0 if mode == "crash-start" else 0.5
        ExternalBot([*FAKE, mode], timeout=0.5, startup_timeout=startup)


def test_missing_program() -> None:
    with pytest.raises(BotProtocolError, match="cannot start"):
        ExternalBot(["/nonexistent/bot-program"], timeout=1)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        ExternalBot([], timeout=1)
    with pytest.raises(ValueError):
        ExternalBot(["x"], timeout=0)


def test_not_my_turn_is_refused_before_asking() -> None:
    game = Match.new("scopa", seed=3).hand
    with ExternalBot([*FAKE, "good"], timeout=5) as bot, pytest.raises(ValueError, match="turn"):
        bot.choose(PlayerView.of(game, (game.to_move + 1) % 2))


def test_round_trip_with_the_scopa_bot_command() -> None:
    command = [sys.executable, "-c", "from scopa.cli import main; main()", "bot", "heuristic"]
    game = Match.new("scopa", seed=6).hand
    with ExternalBot(command, timeout=10) as a, ExternalBot(command, timeout=10) as b:
        assert a.name == "heuristic"
        _play_hand([a, b], game)
    assert game.hand_over and len(game.moves()) == 36


def test_a_program_that_stops_reading_cannot_block_the_host() -> None:
    game = Match.new("scopa", seed=3).hand
    bot = ExternalBot([*FAKE, "deaf"], timeout=0.5, startup_timeout=10)
    try:
        start = time.monotonic()
        for _ in range(300):  # far more than a pipe holds
            bot.hand_end({"sides": [{"padding": "x" * 1000}]}, [0, 0])
        assert time.monotonic() - start < 2
        with pytest.raises(BotProtocolError, match="did not answer move_request 1 within 0.5 s"):
            bot.choose(PlayerView.of(game, game.to_move))
    finally:
        bot.close()


def test_time_budget_is_sent_only_when_the_host_sets_one() -> None:
    game = Match.new("scopa", seed=3).hand
    with ExternalBot([*FAKE, "limit"], timeout=5) as bot:
        assert bot.choose(PlayerView.of(game, game.to_move)) in game.legal_moves()
    with ExternalBot([*FAKE, "limit"], timeout=5) as bot, \
            pytest.raises(BotProtocolError, match="time_limit 0.3 timeout 5"):
        bot.choose(PlayerView.of(game, game.to_move), Limit(seconds=0.3))
    with ExternalBot([*FAKE, "limit"], timeout=2) as bot, \
            pytest.raises(BotProtocolError, match="time_limit 2 timeout 2"):
        bot.choose(PlayerView.of(game, game.to_move), Limit(seconds=30))
