"""Small parts on their own: names, frame parsing, the throttle, and the
secrecy checker itself (it must catch a leak). Storage has test_store.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import secrecy_violations

from scopa.match import Match
from scopa.server.ops.hub import TokenBucket, parse_frame
from scopa.server.players.names import BOT_NAMES, NAME_MAX, bot_name, clean_name, distinct_name
from scopa.view import PlayerView


@pytest.mark.parametrize("raw", ["Anna", "  Bruno  ", "Zoë", "李", "a" * 24, "<b>x</b>"])
def test_good_names(raw: str) -> None:
    assert clean_name(raw) == raw.strip()


@pytest.mark.parametrize("raw", ["", "   ", "a" * 25, "a\nb", "a\tb", "x\u200by", "\u202eevil",
                                 "a\u2028b", 5, None])
def test_bad_names(raw: object) -> None:
    with pytest.raises(ValueError):
        clean_name(raw)


@given(st.lists(st.sampled_from(["Anna", "anna", "Giulia", "x" * NAME_MAX, "Anna (2)"]),
                max_size=8))
def test_distinct_names_stay_distinct_and_short(wanted: list[str]) -> None:
    seated: list[str] = []
    for name in wanted:
        seated.append(distinct_name(name, seated))
    assert len({n.casefold() for n in seated}) == len(seated)
    assert all(len(n) <= NAME_MAX for n in seated)
    assert distinct_name("Bruno", ["Anna"]) == "Bruno"
    assert distinct_name("Anna", ["anna"]) == "Anna (2)"


def test_bot_names_are_italian_and_free() -> None:
    import random

    rng = random.Random(1)
    taken: list[str | None] = ["Giulia", None]
    for _ in range(len(BOT_NAMES) + 2):
        taken.append(bot_name(taken, rng))
    names = [n for n in taken if n]
    assert len({n.casefold() for n in names}) == len(names)
    assert set(names[1: len(BOT_NAMES)]) <= set(BOT_NAMES)


def test_parse_frame() -> None:
    ok, code, _, kind = parse_frame('{"type": "ping", "t": 1}', 100)
    assert ok == {"type": "ping", "t": 1} and code is None and kind == "ping"
    assert parse_frame("x" * 101, 100)[1] == "too_large"
    assert parse_frame("{", 100)[1] == "bad_json"
    assert parse_frame("[" * 5000 + "]" * 5000, 20000)[1] in ("bad_json", "bad_message")
    assert parse_frame('{"type": "move", "state_id": 1.5, "move": {}}', 100)[1] == "bad_message"
    assert parse_frame('{"type": "next", "x": 1}', 100)[1] == "bad_message"


def test_token_bucket() -> None:
    b = TokenBucket(rate=0.001, burst=3)
    assert [b.take() for _ in range(5)] == [True, True, True, False, False]


def test_secrecy_checker_catches_leaks() -> None:
    position = {"hands": [["1d", "2d"], ["3d", "4d"]], "stock": ["5d"], "table": ["6d"],
                "captured": [[], []]}
    after = {"hands": [[], []], "stock": [], "table": [], "captured": [["1d"], []]}
    replay = {"hands": [{"seed": "s3cr3t", "positions": [position, after]}]}
    fine = {"type": "state", "state_id": 1_000_001, "view": {"hand": ["1d", "2d"],
                                                             "table": ["6d"]}}
    assert secrecy_violations([fine], 0, replay, 1) == []
    leak = {"type": "state", "state_id": 1_000_001, "view": {"hand": ["3d"]}}
    assert secrecy_violations([leak], 0, replay, 1)
    prose = {"type": "error", "state_id": 1_000_001, "message": "you could take 5d here"}
    assert secrecy_violations([prose], 0, replay, 1)
    seed = {"type": "state", "state_id": 1_000_001, "note": json.dumps({"x": "s3cr3t"})}
    assert secrecy_violations([seed], 0, replay, 1)
    assert secrecy_violations([fine], None, replay, 1)  # a spectator sees no hand
    revealed = {"type": "hand_end", "state_id": 1_000_002, "seed": "s3cr3t", "deck": ["3d"]}
    assert secrecy_violations([revealed], 0, replay, 1) == []


def test_health(server: Any) -> None:
    h = server.get("/api/health").json()
    assert h["ok"] is True and h["tables"] >= 0 and "p99" in h["loop_lag_ms"]
    assert len(h["loop_lag_ms"]["gc_by_gen"]) == 3
    assert isinstance(h["phases_ms"], dict) and isinstance(h["counts"], dict)
    # resetting the figures is an operator action: this server has no operator secret
    r = server.get("/api/health?reset=true")
    assert r.status_code == 403 and "operator secret" in r.json()["detail"]


@pytest.mark.parametrize("variant", ["scopa", "scopone", "escoba", "napola", "quindici"])
def test_views_match_the_engine(variant: str) -> None:
    """The server sends each seat exactly ``PlayerView.to_dict()``; the spectator's view
    has the same keys, no hand and no seat."""
    import random

    from scopa.server.play.frames import seat_view

    rng = random.Random(variant)
    game = Match.new(variant, seed=variant).hand
    while not game.hand_over:
        for seat in range(game.n):
            assert seat_view(game, seat) == PlayerView.of(game, seat).to_dict()
        public = seat_view(game, None)
        assert public.keys() == PlayerView.of(game, 0).to_dict().keys() and public["hand"] == []
        assert public["seat"] is None
        assert public["captured"] == PlayerView.of(game, 0).to_dict()["captured"]
        game.play(rng.choice(game.legal_moves()))
    assert seat_view(game, 0) == PlayerView.of(game, 0).to_dict()



def test_bot_pool_survives_a_dead_worker() -> None:
    import asyncio
    import os
    import signal

    from scopa.server.play.botpool import BotPool

    async def run() -> None:
        pool = BotPool(1)
        try:
            await pool.warm()
            for pid in list(pool.bots.executor._processes):  # a worker dies (OOM, kill -9 ...)
                os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.5)
            view = PlayerView.of(Match.new("scopa", seed=1).hand, 0)
            move = await pool.choose("random", view, None, 1)
            assert move in [m.to_dict() for m in view.legal_moves()]
        finally:
            pool.close()

    asyncio.run(run())
