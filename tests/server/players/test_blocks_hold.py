"""What a block means, held on every route (docs/accounts.md, "What a block means"), on
each store: the blocked player cannot follow the blocker (follows either way end with
the block), does not see the blocker online, and cannot take a seat at a table where
the blocker sits (through its invite, which is also how the lobby's tables are joined);
a signed-in blocked player's chat never reaches the blocker (test_moderation). The
profile stays readable like any public profile. A guest is no account: a blocked
player who signs out is not recognised (the documented limit)."""

from __future__ import annotations

from account_helpers import Browser, server, signed_up  # noqa: F401 - fixture
from server_helpers import ServerProcess


def names(listing: list[dict[str, object]]) -> list[object]:
    return [p["name"] for p in listing]


def test_the_blocked_cannot_follow_the_blocker_nor_see_them_online(
        server: ServerProcess) -> None:
    me, my_name = signed_up(server, "blker")
    pest, pest_name = signed_up(server, "pest")
    assert pest.post("/api/friends/follow", {"name": my_name}).status_code == 204
    assert me.post("/api/friends/follow", {"name": pest_name}).status_code == 204
    seen = pest.get("/api/friends").json()["following"]
    assert seen == [{"name": my_name, "online": True}]  # before the block
    assert me.post("/api/friends/block", {"name": pest_name}).status_code == 204
    # the follows either way ended with the block, and a new one is refused
    assert pest.get("/api/friends").json()["following"] == []
    assert me.get("/api/friends").json()["following"] == []
    r = pest.post("/api/friends/follow", {"name": my_name})
    assert r.status_code == 403, r.text
    assert pest.get("/api/friends").json()["following"] == []
    assert me.get(f"/api/players/{pest_name}").json()["follows_you"] is False
    # the profile stays public (decided: like any public profile), with no tie shown
    shown = pest.get(f"/api/players/{my_name}").json()
    assert shown["name"] == my_name and shown["following"] is False
    # unblocked: following works again
    assert me.post("/api/friends/unblock", {"name": pest_name}).status_code == 204
    assert pest.post("/api/friends/follow", {"name": my_name}).status_code == 204


def test_the_blocked_cannot_sit_at_the_blocker_s_table(
        server: ServerProcess) -> None:
    me, _ = signed_up(server, "host")
    pest, pest_name = signed_up(server, "pest")
    friend, _ = signed_up(server, "frnd")
    assert me.post("/api/friends/block", {"name": pest_name}).status_code == 204
    invite, table_id = new_table(me)
    refused = pest.post(f"/api/invites/{invite}/join", {"name": "x"})
    assert refused.status_code == 403, refused.text
    seats = server_seats(me, table_id)
    assert pest_name not in seats  # nothing changed
    assert friend.post(f"/api/invites/{invite}/join", {"name": "x"}).status_code == 200
    # the documented limit: signed out, the blocked player is a guest like any other
    other, _ = new_table(me)
    assert Browser(server).post(f"/api/invites/{other}/join", {"name": "anon"}
                                ).status_code == 200


def new_table(b: Browser) -> tuple[str, str]:
    """A public table for two where ``b`` sits: its invite and id."""
    r = b.post("/api/tables", {"target": 11, "public": True,
                               "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    return r.json()["invite"], r.json()["table"]["id"]


def server_seats(b: Browser, table_id: str) -> list[object]:
    info = b.get(f"/api/tables/{table_id}").json()
    return [s.get("name") for s in info["seats"]]
