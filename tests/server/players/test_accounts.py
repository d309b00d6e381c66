"""Accounts over HTTP, on SQLite and PostgreSQL: every bad input is refused with a clear
error and changes nothing (duplicate names, weak passwords, wrong passwords, throttling,
missing CSRF, another player's things); a rated match against a bot moves the rating; a
guest claims the seat they played by signing up; deleting an account keeps its games."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import httpx
import pytest
from account_helpers import PASSWORD, Browser, fresh_name, server, signed_up  # noqa: F401 - fixture
from server_helpers import Client, ServerProcess, play_human
from sqlalchemy import text

from scopa.server.players.account_store import AccountStore
from scopa.server.players.passwords import skeleton_key
from scopa.server.store import migrate
from scopa.server.store.database import Store


# -- signing up and in ---------------------------------------------------------------------
def test_sign_up_sets_a_safe_cookie_and_signs_in(server: ServerProcess) -> None:
    b = Browser(server)
    name = fresh_name("Anna")
    r = b.sign_up(name)
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"].lower()
    assert "scopa_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert "secure" not in cookie  # plain http here: Secure only over https
    assert b.me() == {"id": r.json()["user"]["id"], "name": name, "private": False}
    # a second browser signs in with the same name in another case
    other = Browser(server)
    assert other.me() is None
    r2 = other.sign_in(name.upper())
    assert r2.status_code == 200, r2.text
    assert other.me() is not None and other.me()["name"] == name  # type: ignore[index]
    assert r2.json()["csrf"] != r.json()["csrf"]  # one token per session


def test_sign_up_refuses_bad_names_and_taken_ones_changing_nothing(
        server: ServerProcess) -> None:
    b, name = signed_up(server)
    for bad in ["ab", "x" * 21, "9lives", "has space", "<script>", "Giulia", "admin", ""]:
        r = Browser(server).sign_up(bad)
        assert r.status_code == 400, (bad, r.text)
        assert "user name" in r.json()["detail"]
    for taken in (name, name.upper(), name.capitalize()):
        r = Browser(server).sign_up(taken, "another good password")
        assert r.status_code == 409, r.text
        assert "taken" in r.json()["detail"]
    # the first account is untouched: its password still opens it, the other does not
    assert Browser(server).sign_in(name, "another good password").status_code == 401
    assert Browser(server).sign_in(name).status_code == 200


def test_a_name_that_looks_like_a_player_s_or_a_bot_s_is_refused(
        server: ServerProcess) -> None:
    name = "Mira" + secrets.token_hex(3).replace("a", "b").replace("e", "f")
    assert Browser(server).sign_up(name).status_code == 201
    copy = "\u041c" + name[1:]  # Cyrillic capital М for the Latin M
    for twin in (copy, name.replace("i", "\u0456", 1), name.upper()):
        r = Browser(server).sign_up(twin, "another good password")
        assert r.status_code == 409, (twin, r.text)
        assert "looks" in r.json()["detail"]
    for twin in (copy, name.replace("i", "\u0456", 1)):
        assert server.get(f"/api/players/{twin}").status_code == 404  # nothing made
    for bot_like in ("G\u0456ulia", "\u0430dmin", "r\u043e\u043et"):
        r = Browser(server).sign_up(bot_like)
        assert r.status_code == 400 and "reserved" in r.json()["detail"], r.text


@pytest.mark.parametrize("password,why", [
    ("short1!", "10 to 128"),
    ("x" * 129, "10 to 128"),
    ("aaaaabbbbbaaaaa", "5 different"),
    ("1212121212", "5 different"),
    ("qwertyuiop", "most common"),
    ("my{name}isgreat", "user name"),
])
def test_weak_passwords_are_refused_and_no_account_is_made(
        server: ServerProcess, password: str, why: str) -> None:
    name = fresh_name("w")
    r = Browser(server).sign_up(name, password.replace("{name}", name))
    assert r.status_code == 400, r.text
    assert why in r.json()["detail"]
    assert server.get(f"/api/players/{name}").status_code == 404
    assert Browser(server).sign_in(name, password.replace("{name}", name)).status_code == 401
    policy = server.get("/api/account/policy").json()
    assert "10 to 128" in policy["password"]


def test_a_wrong_password_or_name_signs_nobody_in(server: ServerProcess) -> None:
    _, name = signed_up(server)
    b = Browser(server)
    for who, password in [(name, "wrong password!"), (fresh_name("nobody"), PASSWORD)]:
        r = b.sign_in(who, password)
        assert r.status_code == 401
        assert r.json()["detail"] == "wrong user name or password"  # the same for both
        assert "set-cookie" not in r.headers
    assert b.me() is None


def test_guessing_slows_the_guesser_and_never_locks_the_owner_out(
        server: ServerProcess) -> None:
    _, name = signed_up(server)
    for i in range(5):  # five wrong tries, from five addresses: nobody is slowed
        assert Browser(server).sign_in(name, f"wrong password {i}").status_code == 401
    guesser = Browser(server)
    for i in range(3):  # three from one address: that address now waits at this name
        assert guesser.sign_in(name, f"wrong again {i}").status_code == 401
    r = guesser.sign_in(name)  # even the right password is not checked from there
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert guesser.me() is None
    # the owner, from an address of their own, signs in at once
    owner = Browser(server)
    assert owner.sign_in(name).status_code == 200 and owner.me() is not None
    # and the guesser's address may still sign in to another account
    _, other = signed_up(server)
    assert guesser.sign_in(other).status_code == 200


def test_sign_in_is_throttled_per_address(server: ServerProcess) -> None:
    _, name = signed_up(server)
    b = Browser(server)
    for i in range(6):  # six wrong tries at six names (none locked by itself)
        assert b.sign_in(fresh_name("ghost"), f"wrong {i} password").status_code == 401
    assert b.sign_in(name).status_code == 429  # this address must wait
    assert b.me() is None
    assert Browser(server).sign_in(name).status_code == 200  # another address may


def test_sign_ups_are_throttled_per_address(server: ServerProcess) -> None:
    b = Browser(server)
    for _ in range(3):
        assert b.sign_up(fresh_name("flood")).status_code == 201
    name = fresh_name("flood")
    r = b.sign_up(name)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0, r.text
    assert server.get(f"/api/players/{name}").status_code == 404  # nothing made
    assert Browser(server).sign_up(name).status_code == 201  # another address may


# -- CSRF and the session -----------------------------------------------------------------
def test_changes_without_the_csrf_token_are_refused_and_change_nothing(
        server: ServerProcess) -> None:
    b, name = signed_up(server)
    new = {"old": PASSWORD, "new": "a brand new password"}
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        for path, body in [("/api/account/password", new),
                           ("/api/account/privacy", {"private": True}),
                           ("/api/account/delete", {"password": PASSWORD}),
                           ("/api/account/signout", {})]:
            r = b.post(path, body, csrf=False, **headers)
            assert r.status_code == 403, (path, r.text)
            assert "CSRF" in r.json()["detail"]
    # from another site, even the right token is refused
    r = b.post("/api/account/privacy", {"private": True}, Origin="https://evil.example")
    assert r.status_code == 403
    assert b.me() == {"id": b.me()["id"], "name": name, "private": False}  # type: ignore[index]
    assert Browser(server).sign_in(name).status_code == 200  # password unchanged
    # and without any session: 401
    assert Browser(server).post("/api/account/privacy", {"private": True}).status_code == 401


def test_a_session_token_of_one_account_does_not_act_for_another(
        server: ServerProcess) -> None:
    a, _ = signed_up(server, "a")
    b, b_name = signed_up(server, "b")
    # a's cookie with b's CSRF token
    r = a.post("/api/account/privacy", {"private": True}, csrf=False,
               **{"X-CSRF-Token": b.csrf or ""})
    assert r.status_code == 403
    assert a.me()["private"] is False  # type: ignore[index]
    assert b.me()["private"] is False  # type: ignore[index]
    # b's profile stays b's: a cannot delete it with b's password (a acts only for a)
    r = a.post("/api/account/delete", {"password": PASSWORD + "x"})
    assert r.status_code == 401
    assert Browser(server).sign_in(b_name).status_code == 200


def test_change_password_and_sign_out(server: ServerProcess) -> None:
    b, name = signed_up(server)
    other = Browser(server)
    assert other.sign_in(name).status_code == 200
    r = b.post("/api/account/password", {"old": "not my password", "new": "a fresh password 1"})
    assert r.status_code == 401
    r = b.post("/api/account/password", {"old": PASSWORD, "new": "1234567890"})
    assert r.status_code == 400
    assert Browser(server).sign_in(name).status_code == 200  # still the old one
    r = b.post("/api/account/password", {"old": PASSWORD, "new": "a fresh password 1"})
    assert r.status_code == 204, r.text
    assert b.me() is not None  # this session stays
    assert other.me() is None  # the other one ended
    assert Browser(server).sign_in(name).status_code == 401
    assert Browser(server).sign_in(name, "a fresh password 1").status_code == 200
    assert b.post("/api/account/signout").status_code == 204
    assert b.me() is None


def test_signing_in_again_ends_the_browser_s_old_session(server: ServerProcess) -> None:
    b, name = signed_up(server)
    old_cookie, old_csrf = b.http.cookies.get("scopa_session"), b.csrf
    assert b.sign_in(name).status_code == 200
    assert b.csrf != old_csrf
    stale = httpx.Client(base_url=server.base, timeout=30,
                         cookies={"scopa_session": old_cookie or ""})
    assert stale.get("/api/account").json()["user"] is None
    assert b.me() is not None


# -- tables, ratings, profiles ------------------------------------------------------------
def create(b: Browser, **body: Any) -> httpx.Response:
    return b.post("/api/tables", {"name": "Guest", **body})


def test_rated_tables_are_for_accounts(server: ServerProcess) -> None:
    guest = Browser(server)
    r = create(guest, rated=True, target=1)
    assert r.status_code == 400 and "sign in" in r.json()["detail"]
    b, name = signed_up(server)
    r = b.post("/api/tables", {"rated": True, "seats": [{"kind": "human"},
                                                         {"kind": "bot", "level": "nobody"}]})
    assert r.status_code == 400
    # a signed-in player without the CSRF token makes a guest's table: not rated
    r = b.post("/api/tables", {"name": "Guest", "rated": True}, csrf=False)
    assert r.status_code == 400
    r = b.post("/api/tables", {"rated": True, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["rated"] is True and table["seats"][0]["name"] == name
    # a guest cannot take the free seat of a rated table
    r = guest.post(f"/api/invites/{table['invite']}/join", {"name": "Someone"})
    assert r.status_code == 401
    r = guest.get(f"/api/invites/{table['invite']}")
    assert r.json()["seats"][1]["taken"] is False


async def _play(server: ServerProcess, table_id: str, token: str, seed: int) -> dict[str, Any]:
    c = await Client(server, table_id, token).connect()
    try:
        return await play_human(c, random.Random(seed))
    finally:
        await c.close()


def play(server: ServerProcess, created: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    return asyncio.run(_play(server, created["table"]["id"], created["token"], seed))


def test_a_rated_match_against_a_bot_moves_the_rating(server: ServerProcess) -> None:
    b, name = signed_up(server, "r")
    r = b.post("/api/tables", {"rated": True, "target": 1,
                               "seats": [{"kind": "human"},
                                         {"kind": "bot", "level": "beginner"}]})
    assert r.status_code == 201, r.text
    end = play(server, r.json())
    before = b.get(f"/api/players/{name}").json()
    assert before["own"] is True
    entry = before["recent"][0]
    assert entry["match_id"] == end["match_id"] and entry["replay_url"].endswith(end["match_id"])
    assert entry["rating_before"] == 1500
    assert before["ratings"]["singles"]["mu"] != 25.0
    # the shown rating moves with the first rated result, whichever way it went
    assert (entry["rating_after"] > 1500) == entry["won"] and entry["rating_after"] != 1500
    assert before["ratings"]["singles"]["settled"] is False  # one result: provisional
    # the match-end box's figures: the player's rating before and after, the bot's none
    moved = server.get(f"/api/matches/{end['match_id']}/ratings").json()
    assert moved == {"match_id": end["match_id"], "pool": "singles", "changes": [
        {"seat": 0, "name": name, "before": 1500, "after": entry["rating_after"],
         "abandoned": False}]}
    assert server.get("/api/matches/nonesuch/ratings").status_code == 404
    assert server.get(f"/api/matches/{'x' * 40}/ratings").status_code == 404
    singles = before["ratings"]["singles"]
    assert singles["games"] == 1 and singles["rating"] == entry["rating_after"]
    assert [p["rating"] for p in before["history"]["singles"]] == [1500, singles["rating"]]
    assert singles["wins"] == int(end["winner"] == 0) == int(entry["won"])
    stats = before["stats"]
    assert stats["played"] == 1 and stats["variants"] == [
        {"variant": "scopa", "played": 1, "won": int(entry["won"])}]
    assert stats["hands"] >= 1 and stats["points_per_hand"] is not None
    board = server.get("/api/leaderboard/singles?per_page=100").json()
    assert name in [e["name"] for e in board["entries"]] or board["total"] > 100
    assert board["bots"]["beginner"]["rating"] == 1500 + 40 * (18 - 25)
    total = board["total"]
    assert total >= 1
    last = server.get(f"/api/leaderboard/singles?per_page=1&page={total}").json()
    assert [e["rank"] for e in last["entries"]] == [total] and last["pages"] == total
    beyond = server.get(f"/api/leaderboard/singles?per_page=1&page={total + 1}").json()
    assert beyond["entries"] == []
    assert server.get("/api/leaderboard/singles?per_page=1000").status_code == 422
    # the profile is public to others, and can be made private
    assert Browser(server).get(f"/api/players/{name}").status_code == 200
    assert b.post("/api/account/privacy", {"private": True}).status_code == 200
    assert Browser(server).get(f"/api/players/{name}").status_code == 404
    assert b.get(f"/api/players/{name}").status_code == 200
    # a private profile's rating change is told to its owner only
    assert Browser(server).get(f"/api/matches/{end['match_id']}/ratings").json()["changes"] == []
    assert len(b.get(f"/api/matches/{end['match_id']}/ratings").json()["changes"]) == 1
    board = server.get("/api/leaderboard/singles?per_page=100").json()
    assert name not in [e["name"] for e in board["entries"]]
    assert server.get("/api/leaderboard/nonsense").status_code == 404


def test_a_guest_claims_the_seat_by_signing_up(server: ServerProcess) -> None:
    guest = Browser(server)
    r = create(guest, target=1)
    assert r.status_code == 201
    created = r.json()
    end = play(server, created, seed=2)
    claim = [{"table_id": created["table"]["id"], "token": created["token"]}]
    # a wrong token proves nothing: no account is made
    name = fresh_name("g")
    bad = guest.sign_up(name, claim=[{**claim[0], "token": "x" * 32}])
    assert bad.status_code == 403
    assert server.get(f"/api/players/{name}").status_code == 404
    r = guest.sign_up(name, claim=claim)
    assert r.status_code == 201, r.text
    assert r.json()["claimed_matches"] == 1
    prof = guest.get(f"/api/players/{name}").json()
    assert [m["match_id"] for m in prof["recent"]] == [end["match_id"]]
    assert prof["ratings"] == {}  # an unrated table moves no rating
    assert guest.get(f"/api/matches/{end['match_id']}/ratings").json()["changes"] == []
    # the seat is the account's now: another account cannot claim it
    other, _ = signed_up(server)
    r = other.post("/api/account/claim", {"claim": claim})
    assert r.status_code == 409
    assert other.post("/api/account/claim", {"claim": claim}, csrf=False).status_code == 403


def test_deleting_an_account_keeps_its_games_anonymised(server: ServerProcess) -> None:
    b, name = signed_up(server, "d")
    r = b.post("/api/tables", {"target": 1, "public": True})
    assert r.status_code == 201
    end = play(server, r.json(), seed=3)
    assert b.post("/api/account/delete", {"password": "not the password"}).status_code == 401
    assert b.get(f"/api/players/{name}").status_code == 200
    r = b.post("/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 204, r.text
    assert b.me() is None
    assert server.get(f"/api/players/{name}").status_code == 404
    match = server.get(f"/api/matches/{end['match_id']}").json()
    assert name not in match["players"] and "former player" in match["players"]
    assert Browser(server).sign_in(name).status_code == 401
    # the name is free again
    assert Browser(server).sign_up(name).status_code == 201


def test_an_account_is_deleted_whatever_points_at_it(server: ServerProcess) -> None:
    # follows, blocks and reports either way, an event it organises and one it entered:
    # none of it keeps an account from being deleted (each was a 500 before), and nothing
    # of it is left to an account made after it
    a, a_name = signed_up(server, "xa")
    b, b_name = signed_up(server, "xb")
    for me, other in ((a, b_name), (b, a_name)):  # follows first: a block ends them
        assert me.post("/api/friends/follow", {"name": other}).status_code == 204
    for me, other in ((a, b_name), (b, a_name)):
        assert me.post("/api/friends/report", {"name": other, "reason": "rude"}).status_code < 300
        assert me.post("/api/friends/block", {"name": other}).status_code == 204
    made = a.post("/api/events", {"name": "A's night", "target": 11})
    assert made.status_code == 201, made.text
    event = made.json()["id"]
    theirs = b.post("/api/events", {"name": "B's night", "target": 11}).json()["id"]
    assert a.post(f"/api/events/{theirs}/join").status_code == 200
    assert a.post("/api/account/delete", {"password": PASSWORD}).status_code == 204
    page = b.get(f"/api/events/{theirs}").json()
    assert page["entrants"] == [a_name] and page["entered"] is False
    assert b.post("/api/account/delete", {"password": PASSWORD}).status_code == 204
    heir, _ = signed_up(server, "xh")
    page = heir.get(f"/api/events/{event}").json()
    assert page["organiser"] is False
    assert heir.post(f"/api/events/{event}/rounds").status_code == 403


# -- friends ------------------------------------------------------------------------------
def test_follow_invite_and_recent_opponents(server: ServerProcess) -> None:
    a, a_name = signed_up(server, "fa")
    b, b_name = signed_up(server, "fb")
    r = a.post("/api/tables", {"target": 1, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201
    made = r.json()
    invite = made["invite"]
    # b is not followed yet: no invitation
    assert a.post("/api/friends/invite", {"name": b_name, "invite": invite}).status_code == 403
    assert a.post("/api/friends/follow", {"name": a_name}).status_code == 400
    assert a.post("/api/friends/follow", {"name": "nobody-here"}).status_code == 404
    assert a.post("/api/friends/follow", {"name": b_name}, csrf=False).status_code == 403
    assert a.get("/api/friends").json()["following"] == []
    assert a.post("/api/friends/follow", {"name": b_name}).status_code == 204
    assert a.post("/api/friends/invite", {"name": b_name, "invite": "nope"}).status_code == 404
    assert a.post("/api/friends/invite", {"name": b_name, "invite": invite}).status_code == 204
    got = b.get("/api/friends").json()
    assert [i["from"] for i in got["invitations"]] == [a_name]
    assert a.get("/api/friends").json()["following"] == [{"name": b_name, "online": True}]
    # b takes the seat and both play the match
    r = b.post(f"/api/invites/{got['invitations'][0]['invite']}/join", {"name": "x"})
    assert r.status_code == 200, r.text
    joined = r.json()
    assert joined["table"]["seats"][1]["name"] == b_name

    async def both() -> None:
        await asyncio.gather(_play(server, made["table"]["id"], made["token"], 4),
                             _play(server, joined["table"]["id"], joined["token"], 5))

    asyncio.run(both())
    recent = b.get("/api/friends").json()["recent_opponents"]
    assert [o["name"] for o in recent] == [a_name] and recent[0]["following"] is False
    assert Browser(server).get("/api/friends").status_code == 401


def test_a_private_account_looks_exactly_like_an_unknown_name_to_a_stranger(
        server: ServerProcess) -> None:
    owner, name = signed_up(server, "hid")
    stranger, _ = signed_up(server, "str")
    follower, _ = signed_up(server, "fol")
    assert follower.post("/api/friends/follow", {"name": name}).status_code == 204
    r = stranger.post("/api/tables", {"target": 1, "seats": [{"kind": "human"},
                                                             {"kind": "human"}]})
    invite = r.json()["invite"]
    assert owner.post("/api/account/privacy", {"private": True}).status_code == 200
    unknown = fresh_name("nobody")
    for path, body in [("/api/friends/follow", {}), ("/api/friends/unfollow", {}),
                       ("/api/friends/invite", {"invite": invite})]:
        hidden = stranger.post(path, {"name": name, **body})
        missing = stranger.post(path, {"name": unknown, **body})
        assert hidden.status_code == missing.status_code == 404, (path, hidden.text)
        assert hidden.json() == missing.json()
    # one who followed before sees it no more, nor whether it is online
    listed = follower.get("/api/friends").json()
    assert name not in str(listed), listed
    assert stranger.get(f"/api/players/{name}").status_code == 404
    assert owner.get(f"/api/players/{name}").status_code == 200  # its owner still sees it


def test_a_rated_match_left_past_the_grace_period_counts_as_a_loss(
        server: ServerProcess) -> None:
    b, name = signed_up(server, "q")
    # the player never comes: after the grace period (none here) a stand-in plays the seat
    r = b.post("/api/tables", {"rated": True, "target": 1, "grace_seconds": 0,
                               "seats": [{"kind": "human"},
                                         {"kind": "bot", "level": "beginner"}]})
    assert r.status_code == 201, r.text
    made = r.json()

    async def watch() -> dict[str, Any]:
        c = await Client(server, made["table"]["id"], invite=made["invite"]).connect()
        try:
            return await c.expect("match_end", timeout=120)
        finally:
            await c.close()

    end = asyncio.run(watch())
    prof = b.get(f"/api/players/{name}").json()
    entry = prof["recent"][0]
    assert entry["match_id"] == end["match_id"]
    assert entry["abandoned"] is True and entry["won"] is False  # whatever the score
    assert prof["ratings"]["singles"]["wins"] == 0
    assert prof["ratings"]["singles"]["mu"] < 25.0  # the model's estimate fell
    # the shown rating falls with it, from the newcomer's 1500
    assert entry["rating_before"] == 1500 > entry["rating_after"]


def test_teach_me_is_off_in_rated_games(server: ServerProcess) -> None:
    b, _ = signed_up(server, "t")
    r = b.post("/api/tables", {"rated": True, "target": 1,
                               "seats": [{"kind": "human"},
                                         {"kind": "bot", "level": "beginner"}]})
    assert r.status_code == 201, r.text
    made = r.json()

    async def ask() -> dict[str, Any]:
        c = await Client(server, made["table"]["id"], made["token"]).connect()
        try:
            state = await c.expect("state", lambda f: f["your_turn"])
            await c.send({"type": "teach", "state_id": state["state_id"]})
            return await c.expect("error", lambda f: f.get("ref") == "teach")
        finally:
            await c.close()

    refused = asyncio.run(ask())
    assert refused["code"] == "teach_off" and "rated" in refused["message"]


def test_deleting_an_account_during_a_live_match_renames_its_seat_there(
        server: ServerProcess) -> None:
    b, name = signed_up(server, "l")
    r = b.post("/api/tables", {"target": 1, "public": True})
    assert r.status_code == 201
    made = r.json()
    assert made["table"]["seats"][0]["name"] == name

    async def live() -> dict[str, Any]:
        c = await Client(server, made["table"]["id"], made["token"]).connect()
        try:
            await c.expect("state")
            # a wrong password deletes nothing and renames nothing
            assert b.post("/api/account/delete", {"password": "wrong one"}).status_code == 401
            assert b.post("/api/account/delete", {"password": PASSWORD},
                          csrf=False).status_code == 403
            r = await asyncio.to_thread(b.post, "/api/account/delete", {"password": PASSWORD})
            assert r.status_code == 204, r.text
            # everyone at the table is told the seat's new name
            f = await c.expect("state", lambda f: (f.get("table") or {}).get(
                "seats", [{}])[0].get("name") == "former player")
            c.queue.put_nowait(f)
            return await play_human(c, random.Random(5))
        finally:
            await c.close()

    end = asyncio.run(live())
    # the match that was going on keeps the seat under the new name, as finished ones do
    match = server.get(f"/api/matches/{end['match_id']}").json()
    assert name not in match["players"] and match["players"][0] == "former player"
    table = server.get(f"/api/tables/{made['table']['id']}").json()
    assert table["seats"][0]["name"] == "former player"


def test_an_id_is_never_given_twice(url: str) -> None:
    # the newest account deleted, the next one made: a new id (SQLite gave the same one)
    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            accounts = AccountStore(store)
            first = await accounts.create_user("Ada", "ada", "x", skeleton_key("Ada"))
            assert first is not None
            await accounts.delete_user(first.id)
            second = await accounts.create_user("Bea", "bea", "x", skeleton_key("Bea"))
            assert second is not None and second.id > first.id
        finally:
            await store.close()

    asyncio.run(run())


def test_the_upgrade_keeps_every_account_and_reference(url: str) -> None:
    # an old database with accounts and rows pointing at them, brought up to date
    async def run() -> None:
        store = Store(url)
        try:
            await migrate.upgrade(store.engine, "0011_rating_scale")
            async with store.engine.begin() as conn:
                for n in (1, 2):
                    await conn.execute(text(
                        "INSERT INTO users (name, name_key, password_hash, private, "
                        "created_at) VALUES (:n, :n, 'x', false, CURRENT_TIMESTAMP)"),
                        {"n": f"u{n}"})
                ids = [i for (i,) in await conn.execute(text(
                    "SELECT id FROM users ORDER BY id"))]
                await conn.execute(text("INSERT INTO follows (follower_id, followee_id, "
                                        "created_at) VALUES (:a, :b, CURRENT_TIMESTAMP)"),
                                   {"a": ids[0], "b": ids[1]})
            await store.migrate()
            async with store.engine.begin() as conn:
                names = [r for (r,) in await conn.execute(text(
                    "SELECT name FROM users ORDER BY id"))]
                follows = (await conn.execute(text("SELECT count(*) FROM follows"))).scalar()
            assert names == ["u1", "u2"] and follows == 1
            accounts = AccountStore(store)
            await accounts.delete_user(ids[1])
            made = await accounts.create_user("u3", "u3", "x", skeleton_key("u3"))
            assert made is not None and made.id > ids[1]
        finally:
            await store.close()

    asyncio.run(run())
