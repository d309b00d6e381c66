"""A followed player learns of it on the follower's profile ("follows you"), and a
profile tells the viewer whether they follow it already; on each store. A guest, the
owner and an unrelated player see neither."""

from __future__ import annotations

from account_helpers import Browser, server, signed_up  # noqa: F401 - fixture
from server_helpers import ServerProcess


def test_the_followed_player_sees_follows_you(server: ServerProcess) -> None:
    fan, fan_name = signed_up(server, "fan")
    star, star_name = signed_up(server, "star")
    other, _ = signed_up(server, "oth")

    def tie(who: Browser, name: str) -> tuple[bool, bool]:
        p = who.get(f"/api/players/{name}").json()
        return p["following"], p["follows_you"]

    assert tie(star, fan_name) == (False, False)
    assert fan.post("/api/friends/follow", {"name": star_name}).status_code == 204
    assert tie(star, fan_name) == (False, True)  # the fan follows the star
    assert tie(fan, star_name) == (True, False)
    assert tie(other, fan_name) == (False, False)
    assert tie(fan, fan_name) == (False, False)  # one's own profile
    guest = Browser(server)
    assert tie(guest, fan_name) == (False, False)
    assert star.post("/api/friends/follow", {"name": fan_name}).status_code == 204
    assert tie(star, fan_name) == (True, True)
    assert fan.post("/api/friends/unfollow", {"name": star_name}).status_code == 204
    assert tie(star, fan_name) == (True, False)
