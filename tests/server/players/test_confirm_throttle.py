"""Routes where a signed-in player confirms with the password (change it, delete the
account) slow down wrong passwords per account and per client address, like sign-in
(``throttle.ConfirmThrottle``), on each store (issue 37): a stolen session cannot guess
the password at will."""

from __future__ import annotations

from account_helpers import PASSWORD, Browser, server, signed_up  # noqa: F401 - fixture
from server_helpers import ServerProcess

WRONG = "not the password at all"


def change(b: Browser, old: str) -> int:
    return b.post("/api/account/password", {"old": old, "new": "a brand new staple 42"}
                  ).status_code


def test_wrong_passwords_are_throttled_per_account(
        server: ServerProcess) -> None:
    me, name = signed_up(server, "cth")
    # the server allows 3 free failures per account, then a wait of 600 s
    assert [change(me, WRONG) for _ in range(2)] == [401, 401]
    assert me.post("/api/account/delete", {"password": WRONG}).status_code == 401
    r = me.post("/api/account/delete", {"password": WRONG})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    # from another address too (the count is the account's), the right password waits
    me.http.headers["X-Forwarded-For"] = "10.251.7.7"
    assert change(me, WRONG) == 429
    assert change(me, PASSWORD) == 429
    assert me.me() is not None  # nothing changed: still signed in, account there
    assert Browser(server).sign_in(name, PASSWORD).status_code == 200


def test_wrong_passwords_are_throttled_per_client_address(
        server: ServerProcess) -> None:
    shared = "10.251.9.9"
    players = [signed_up(server, "cta")[0] for _ in range(4)]
    for p in players:
        p.http.headers["X-Forwarded-For"] = shared
    # 6 free failures per address (2 from each of three accounts: under their own 3)
    assert [change(p, WRONG) for p in players[:3] for _ in range(2)] == [401] * 6
    assert change(players[3], WRONG) == 429
    assert change(players[3], PASSWORD) == 429
