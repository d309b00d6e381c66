"""Reports reach the operator's terminal safely and in bounded numbers, on each store:
what a reporter wrote is printed by ``scopa admin`` with control and bidi characters
escaped (one helper for all admin output), and one account reports at most
``reports_per_hour`` players an hour, even with its requests sent at once (issue 37)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from account_helpers import Browser, server, signed_up  # noqa: F401 - fixture
from server_helpers import ServerProcess
from test_moderation import admin

from scopa.server.ops.terminal import escaped


def test_escaped_shows_control_and_bidi_characters_as_escapes() -> None:
    assert escaped("plain è ñ 漢") == "plain è ñ 漢"
    assert escaped("a\x1b[2Jb\u202ec\x07\u2028d\r") == "a\\x1b[2Jb\\u202ec\\x07\\u2028d\\x0d"


def test_admin_reports_prints_a_reason_s_escape_sequences_escaped(
        server: ServerProcess) -> None:
    me, my_name = signed_up(server, "esc")
    rude, rude_name = signed_up(server, "tgt")
    reason = "\x1b[2J\x1b]0;owned\x07 txet \u202eevil"
    r = me.post("/api/friends/report", {"name": rude_name, "reason": reason})
    assert r.status_code == 200, r.text
    line = next(x for x in admin(server, "reports").splitlines() if rude_name in x)
    assert "\x1b" not in line and "\u202e" not in line and "\x07" not in line
    assert "\\x1b[2J\\x1b]0;owned\\x07 txet \\u202eevil" in line


def test_one_account_reports_a_few_players_an_hour_even_at_once(
        server: ServerProcess) -> None:
    me, _ = signed_up(server, "mass")
    targets = [signed_up(server, "vic")[1] for _ in range(12)]
    with ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(
            lambda n: me.post("/api/friends/report", {"name": n}).status_code, targets))
    assert set(codes) <= {200, 429}
    assert codes.count(200) == 5  # reports_per_hour
    listed = admin(server, "reports")
    assert sum(1 for n in targets if n in listed) == 5
    r = me.post("/api/friends/report", {"name": targets[0]})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
