"""Puzzles through a real server (issue 42 section 3), on SQLite and PostgreSQL: what a
solver is sent before answering is only its fair view; the server checks the answer; an
account's first answer moves its puzzle rating and the puzzle's (openskill), later ones
nothing; guests solve unrated; the day's puzzle is one for everyone; answers are rate
limited and bad ones refused, changing nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from account_helpers import PASSWORD, Browser, signed_up
from server_helpers import ServerProcess
from typer.testing import CliRunner

from scopa.bots.puzzles import view_of
from scopa.cli import app

COUNT = 6


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerProcess]:
    made = CliRunner().invoke(app, ["puzzles", "make", "--count", str(COUNT), "--seed", "11",
                                    "--out", str(tmp_path_factory.mktemp("pz") / "p.jsonl"),
                                    "--database-url", database_url])
    assert made.exit_code == 0, made.output
    proc = ServerProcess(tmp_path_factory.mktemp("srv") / "scopa.sqlite",
                         database_url=database_url, SCOPA_TRUSTED_PROXIES="127.0.0.1").start()
    yield proc
    proc.stop()


def wrong_move(asked: dict[str, Any]) -> dict[str, Any]:
    """A legal play that is not the answer: laying or taking with another card is found
    by trying the legal plays the view allows (the page does not know the answer)."""
    view = view_of(asked["puzzle"]["view"])
    return [m.to_dict() for m in view.legal_moves()][-1]


def legal_moves(asked: dict[str, Any]) -> list[dict[str, Any]]:
    return [m.to_dict() for m in view_of(asked["puzzle"]["view"]).legal_moves()]


HIDDEN_WORDS = ("best", "plays", "value", "lead", "reason", "explained", "margin", "deals",
                "stock\"", "hands\"", "order")


def test_a_puzzle_sent_before_its_answer_is_only_the_solvers_view(server: ServerProcess
                                                                   ) -> None:
    b = Browser(server)
    for path in ("/api/puzzles/daily", "/api/puzzles/next"):
        r = b.get(path)
        assert r.status_code == 200, r.text
        body = r.json()
        assert set(body) == {"puzzle", "rating", "day", "player", "answered"}
        assert set(body["puzzle"]) == {"id", "kind", "variant", "view"}
        text = json.dumps(body)
        for word in HIDDEN_WORDS:
            assert f'"{word}' not in text, word
        view = body["puzzle"]["view"]
        # the view as a seat gets it at the table: its hand, and only sizes for the rest
        assert set(view) == {"rules", "seat", "dealer", "to_move", "hand", "hand_sizes",
                             "table", "stock_size", "captured", "scope", "last_capturer",
                             "scores", "hand_over", "hand_number", "history"}
        seen = view["hand"] + view["table"] + [c for p in view["captured"] for c in p]
        assert len(seen) == len(set(seen))
        assert len(seen) + view["hand_sizes"][1 - view["seat"]] + view["stock_size"] == 40
        # and by its id too
        again = b.get(f"/api/puzzles/{body['puzzle']['id']}").json()
        assert again["puzzle"] == body["puzzle"]


def test_no_puzzle_a_guest_can_reach_shows_more_than_the_view(server: ServerProcess) -> None:
    """Every puzzle, reached as a guest through "next" (skipping those seen), is sent as
    the view alone: the cards it lists are the seat's, the table's and the piles', the
    rest only counted."""
    b = Browser(server)
    seen: list[str] = []
    while True:
        r = b.get(f"/api/puzzles/next?skip={','.join(seen)}")
        if r.status_code == 404:
            break
        body = r.json()
        assert set(body["puzzle"]) == {"id", "kind", "variant", "view"}
        view = body["puzzle"]["view"]
        listed = view["hand"] + view["table"] + [c for p in view["captured"] for c in p]
        listed += [e["card"] for e in view["history"] if e.get("card")]
        assert len(set(listed)) + view["hand_sizes"][1 - view["seat"]] + view["stock_size"] \
            == 40
        seen.append(body["puzzle"]["id"])
    assert len(seen) == COUNT


def test_the_day_has_one_puzzle_for_everyone(server: ServerProcess) -> None:
    one = Browser(server).get("/api/puzzles/daily").json()
    other_b, _ = signed_up(server)
    other = other_b.get("/api/puzzles/daily").json()
    assert one["puzzle"]["id"] == other["puzzle"]["id"] and one["day"] == other["day"]
    assert one["player"] is None and other["player"]["rating"] == 1500


def _answer(b: Browser, pid: str, move: dict[str, Any], csrf: bool = True) -> Any:
    return b.post(f"/api/puzzles/{pid}/answer", {"move": move}, csrf=csrf)


def test_a_guest_solves_unrated_and_sees_the_solution(server: ServerProcess) -> None:
    b = Browser(server)
    asked = b.get("/api/puzzles/next").json()
    pid = asked["puzzle"]["id"]
    r = _answer(b, pid, wrong_move(asked))
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["rating"] is None and a["puzzle_rating"] == asked["rating"]
    assert a["plays"][0]["best"] and a["plays"][0]["move"] == a["best"]
    assert a["reason"]["key"] in ("puzzle.why.exact", "puzzle.why.everyDeal")
    assert a["correct"] is (wrong_move(asked) == a["best"])
    right = _answer(b, pid, a["best"]).json()
    assert right["correct"] is True and right["rating"] is None
    # a guest's page lists what it has seen: the next one is another
    nxt = b.get(f"/api/puzzles/next?skip={pid}").json()
    assert nxt["puzzle"]["id"] != pid


def test_an_accounts_first_answer_moves_both_ratings_once(server: ServerProcess) -> None:
    b, _ = signed_up(server)
    asked = b.get("/api/puzzles/next").json()
    assert asked["player"] == {"rating": 1500, "settled": False, "attempts": 0, "solved": 0}
    pid = asked["puzzle"]["id"]
    first = _answer(b, pid, legal_moves(asked)[0]).json()
    best = first["best"]
    if first["correct"]:
        assert first["rating"]["after"] > first["rating"]["before"] == 1500
        assert first["puzzle_rating"] < asked["rating"]
    else:
        assert first["rating"]["after"] < first["rating"]["before"] == 1500
        assert first["puzzle_rating"] > asked["rating"]
    # answering again shows the solution and moves nothing
    again = _answer(b, pid, best).json()
    assert again["correct"] is True and again["rating"] is None
    assert again["puzzle_rating"] == first["puzzle_rating"]
    mine = b.get(f"/api/puzzles/{pid}").json()
    assert mine["answered"] is True and mine["player"]["attempts"] == 1
    assert mine["player"]["rating"] == first["rating"]["after"]
    # the next puzzle is one it has not answered
    assert b.get("/api/puzzles/next").json()["puzzle"]["id"] != pid


def test_a_wrong_answer_lowers_and_a_right_one_raises_the_rating(server: ServerProcess
                                                                  ) -> None:
    b, _ = signed_up(server)
    ratings = [1500]
    for correct in (False, True):
        asked = b.get("/api/puzzles/next").json()
        pid = asked["puzzle"]["id"]
        probe = Browser(server)  # a guest learns the answer without counting
        best = _answer(probe, pid, legal_moves(asked)[0]).json()["best"]
        move = best if correct else next(m for m in legal_moves(asked) if m != best)
        a = _answer(b, pid, move).json()
        assert a["correct"] is correct
        assert a["rating"]["before"] == ratings[-1]
        assert (a["rating"]["after"] > ratings[-1]) is correct
        ratings.append(a["rating"]["after"])
    me = b.get("/api/puzzles/next").json()["player"]
    assert me["attempts"] == 2 and me["solved"] == 1 and me["rating"] == ratings[-1]


def test_without_its_csrf_token_an_answer_counts_for_nobody(server: ServerProcess) -> None:
    b, _ = signed_up(server)
    asked = b.get("/api/puzzles/next").json()
    a = _answer(b, asked["puzzle"]["id"], legal_moves(asked)[0], csrf=False).json()
    assert a["rating"] is None
    assert b.get("/api/puzzles/next").json()["player"]["attempts"] == 0


def test_many_first_answers_at_once_count_once(server: ServerProcess) -> None:
    b, _ = signed_up(server)
    asked = b.get("/api/puzzles/next").json()
    pid = asked["puzzle"]["id"]
    move = legal_moves(asked)[0]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: _answer(b, pid, move), range(8)))
    assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
    assert sum(r.json()["rating"] is not None for r in answers) == 1
    assert b.get(f"/api/puzzles/{pid}").json()["player"]["attempts"] == 1


@pytest.mark.parametrize("body, status", [
    ({"move": {"card": "zz"}}, 400),
    ({"move": {"card": "7d", "capture": ["7d", "7d"]}}, 400),
    ({"move": {}}, 422),
    ({"nothing": 1}, 422),
])
def test_bad_answers_are_refused_and_count_nothing(server: ServerProcess, body: Any,
                                                   status: int) -> None:
    b, _ = signed_up(server)
    pid = b.get("/api/puzzles/next").json()["puzzle"]["id"]
    r = b.post(f"/api/puzzles/{pid}/answer", body)
    assert r.status_code in (status, 400), r.text
    assert b.get("/api/puzzles/next").json()["player"]["attempts"] == 0


def test_an_illegal_play_is_a_clear_400(server: ServerProcess) -> None:
    b, _ = signed_up(server)
    asked = b.get("/api/puzzles/next").json()
    view = asked["puzzle"]["view"]
    other = next(c for c in view["captured"][0] + view["captured"][1])  # not in the hand
    r = _answer(b, asked["puzzle"]["id"], {"card": other, "capture": []})
    assert r.status_code == 400 and "not a legal play" in r.json()["detail"]
    assert b.get("/api/puzzles/next").json()["player"]["attempts"] == 0


def test_unknown_puzzles_are_not_found(server: ServerProcess) -> None:
    b = Browser(server)
    assert b.get("/api/puzzles/0123456789abcdef").status_code == 404
    assert _answer(b, "0123456789abcdef", {"card": "7d", "capture": []}).status_code == 404
    assert b.get("/api/puzzles/not-an-id").status_code == 404
    assert _answer(b, "../../x", {"card": "7d", "capture": []}).status_code == 404


def test_answers_are_rate_limited_per_address(server: ServerProcess) -> None:
    b = Browser(server)
    asked = b.get("/api/puzzles/next").json()
    move = legal_moves(asked)[0]
    with ThreadPoolExecutor(10) as pool:
        codes = list(pool.map(lambda _: _answer(b, asked["puzzle"]["id"], move).status_code,
                              range(40)))
    assert set(codes) <= {200, 429} and codes.count(429) >= 10, codes


def test_an_account_with_puzzle_answers_can_be_deleted(server: ServerProcess) -> None:
    """Its puzzle rating and answers go with it (``account_store.OWN_ROWS``); the puzzle's
    own rating keeps what the answer did."""
    b, name = signed_up(server)
    asked = b.get("/api/puzzles/next").json()
    pid = asked["puzzle"]["id"]
    moved = _answer(b, pid, legal_moves(asked)[0]).json()
    assert moved["rating"] is not None
    gone = b.post("/api/account/delete", {"password": PASSWORD})
    assert gone.status_code == 204, gone.text
    assert b.me() is None
    assert Browser(server).get(f"/api/puzzles/{pid}").json()["rating"] == moved["puzzle_rating"]
