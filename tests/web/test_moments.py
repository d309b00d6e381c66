"""The scopa moment, the settebello and a match won: a banner every seat sees, and sounds
made by us (scripts/make_sounds.py) with a mute switch that is remembered; with reduced
motion nothing moves."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from scripted import LEGAL, state, view
from web_helpers import open_settings

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SWEEP = {"kind": "move", "seat": 1, "card": "10c", "capture": ["3s", "2c", "5b"], "scopa": True,
         "by": "bot"}  # fmt: skip


def sounds(page) -> list[str]:  # type: ignore[no-untyped-def]
    return list(page.evaluate("window.scopaSounds"))


def test_a_scopa_and_the_settebello_are_moments_with_sound(scripted, artifacts):  # noqa: F811
    page, _, sockets = scripted
    ws = sockets[-1]
    after = view(table=["4d"], hand_sizes=[3, 2], scope=[0, 3],
                 history=[{"seat": 1, "card": "10c", "capture": ["3s", "2c", "5b"],
                           "scopa": True}])  # fmt: skip
    ws.send(state(6, after, [{"card": "7d", "capture": []}], SWEEP))
    banner = page.locator('.moment[data-kind="scopa"]')
    expect(banner).to_have_count(1)
    expect(banner).to_contain_text("Scopa!")
    expect(banner).to_contain_text("Bot (expert) sweeps the table")
    page.screenshot(path=str(artifacts / "moment-01-scopa.png"))
    assert "sweep" in sounds(page)
    # the settebello, taken by me: a moment of its own
    mine = {"kind": "move", "seat": 0, "card": "7d", "capture": ["3s", "4d"], "scopa": False,
            "by": "human"}  # fmt: skip
    ws.send(state(7, view(to_move=1), [], mine))
    expect(page.locator('.moment[data-kind="settebello"]')).to_contain_text(
        "You take the seven of coins")
    expect(page.locator(".moment")).to_have_count(1)  # the scopa's banner made way
    # a lay: a sound, no moment
    lay = {"kind": "move", "seat": 1, "card": "9c", "capture": [], "scopa": False, "by": "bot"}
    ws.send(state(8, view(), LEGAL, lay))
    page.wait_for_selector('.play-host[data-shown="8"]', state="attached")
    assert sounds(page)[-2:] == ["play", "turn"]
    # the banner goes away by itself
    expect(page.locator(".moment")).to_be_hidden()
    # the match won
    ws.send(json.dumps({"type": "match_end", "state_id": 8, "match_id": "mockMatch",
                        "winner": 0, "scores": [11, 5],
                        "record_url": "/api/matches/mockMatch/record"}))  # fmt: skip
    expect(page.locator('.moment[data-kind="match"]')).to_contain_text("You won the match!")
    assert sounds(page)[-1] == "win"
    page.screenshot(path=str(artifacts / "moment-02-match-won.png"))


def test_muting_is_remembered(scripted):  # noqa: F811
    page, _, sockets = scripted
    switch = page.locator("#sound")
    expect(switch).to_be_checked()
    open_settings(page)
    switch.uncheck()
    assert page.evaluate("localStorage.getItem('scopa.setting.sound')") == "false"
    heard = len(sounds(page))
    ws = sockets[-1]
    ws.send(state(6, view(to_move=1), [], SWEEP))
    expect(page.locator('.moment[data-kind="scopa"]')).to_have_count(1)  # seen, not heard
    assert len(sounds(page)) == heard
    page.reload()
    expect(page.locator(".turn.mine")).to_be_visible()
    expect(page.locator("#sound")).not_to_be_checked()


def test_reduced_motion_keeps_the_banner_still(scripted, artifacts):  # noqa: F811
    page, _, sockets = scripted
    page.emulate_media(reduced_motion="reduce")
    open_settings(page)
    page.select_option("#speed", "slow")
    swept = view(to_move=1, table=[], hand_sizes=[3, 2], scope=[0, 3],
                 captured=[["1d", "2d"], ["6c", "10c", "3s", "4d", "2c", "5b"]])
    sockets[-1].send(state(6, swept, [], SWEEP))
    banner = page.locator('.moment[data-kind="scopa"]')
    expect(banner).to_have_count(1)
    assert banner.evaluate("el => getComputedStyle(el).animationName") == "none"
    assert page.locator(".flyer").count() == 0  # no card flies either
    page.screenshot(path=str(artifacts / "moment-03-scopa-still.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "moment-04-scopa-phone.png"))


def test_the_sounds_are_ours_and_rebuilt_byte_for_byte(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "scripts/make_sounds.py"), "--out", str(tmp_path)],
                   check=True)  # fmt: skip
    shipped = ROOT / "src/scopa/web/sounds"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(p.name for p in shipped.iterdir())
    assert {n.removesuffix(".wav") for n in names} == {"play", "capture", "sweep", "deal",
                                                       "turn", "win"}
    for name in names:
        assert (tmp_path / name).read_bytes() == (shipped / name).read_bytes(), name
    assert sum((shipped / n).stat().st_size for n in names) < 150_000
