"""Accounts in the browser: sign up, play a rated match against a bot to its end (target
1), see the rating move on the profile and the leaderboard; sign in from a second browser;
a guest claims the seat by signing up from the table. axe on each new page, both
languages, screenshots of each page."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from playwright.sync_api import Page, expect
from web_helpers import (
    axe_violations,
    open_custom_table,
    play_until_match_end,
    shot,
    switch_language,
)

PASSWORD = "a good long password"


def sign_up(page: Page, base: str, name: str) -> None:
    page.goto(base + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click(".signup button[type=submit]")
    expect(page.locator("#me-title")).to_contain_text(name)
    expect(page.locator("#account-link")).to_have_text(name)


def open_rated_table(page: Page, base: str) -> str:
    """A rated table against the beginner bot, to 1 point, made with the session's CSRF
    token as the page's own requests send it; the page is taken to it."""
    csrf = page.request.get(base + "/api/account").json()["csrf"]
    made = page.request.post(base + "/api/tables", headers={"X-CSRF-Token": csrf}, data={
        "rated": True, "target": 1,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]}).json()
    table = str(made["table"]["id"])
    seat = json.dumps({"token": made["token"], "seat": made["seat"], "invite": made["invite"]})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scopa.seat.{table}", seat])
    page.goto(f"{base}/t/{table}")
    return table


def test_a_rated_match_moves_the_rating_on_profile_and_leaderboard(
        server: str, page: Page, new_page, artifacts: Path,  # type: ignore[no-untyped-def]
        page_errors) -> None:
    page_errors.allow(r"status of 401 .*/api/account/signin")  # the wrong password, on purpose
    name = f"Ada{secrets.token_hex(3)}"
    page.goto(server + "/account")
    page.wait_for_selector("#signup-name")
    assert axe_violations(page) == []
    shot(page, artifacts, "account-sign-up")
    sign_up(page, server, name)
    assert axe_violations(page) == []
    # signed in, the lobby offers a rated match, off unless asked
    page.goto(server + "/")
    expect(page.locator("#rated")).not_to_be_checked()
    assert axe_violations(page) == []
    shot(page, artifacts, "lobby-signed-in")
    table = open_rated_table(page, server)
    expect(page.locator(".rated-badge")).to_be_visible()
    expect(page.locator("#teach")).to_have_count(0)  # teach me is off in rated games
    play_until_match_end(page)
    # the match-end box tells how the match moved the player's rating, from 1500
    change = page.locator(".match-end .rating-changes .rating-change")
    expect(change).to_have_count(1)
    expect(change).to_contain_text(f"{name}: 1500 → ")
    assert axe_violations(page) == []
    shot(page, artifacts, "match-end-rating")

    page.goto(f"{server}/players/{name}")
    cell = page.locator(".ratings tbody tr .rating")
    expect(cell).to_have_count(1)
    api = page.request.get(f"{server}/api/players/{name}").json()
    moved = api["ratings"]["singles"]["rating"]
    # the rating moved with the first result, the same number here as in the box, "?"
    # while it is provisional
    assert api["recent"][0]["rating_before"] == 1500 != moved
    assert api["ratings"]["singles"]["settled"] is False
    expect(cell).to_have_text(f"{moved}?")
    # rated against a bot only: still provisional for other players (docs/accounts.md)
    assert api["provisional"] is True
    expect(page.locator(".profile .provisional")).to_be_visible()
    expect(page.locator(".line-chart circle")).to_have_count(2)  # the start, then after
    expect(page.locator(".bar-chart rect")).to_have_count(3)
    expect(page.locator(".recent-matches li")).to_have_count(1)
    expect(page.locator(".recent-matches a")).to_have_attribute(
        "href", f"/replay/{api['recent'][0]['match_id']}")
    assert axe_violations(page) == []
    shot(page, artifacts, "profile-desktop")

    page.goto(server + "/leaderboard")
    row = page.locator("table.board tbody tr", has_text=name)
    expect(row.locator(".rating")).to_have_text(f"{moved}?")
    expect(row.locator(".provisional")).to_have_text(" (provisional)")
    assert axe_violations(page) == []
    shot(page, artifacts, "leaderboard-desktop")

    # Italian: every new string has its own text
    switch_language(page)
    expect(page.locator("#board-title")).to_have_text("Classifica")
    page.goto(f"{server}/players/{name}")
    expect(page.locator(".profile h2").first).to_have_text("Punteggi")
    shot(page, artifacts, "profile-italian")
    # back at the table after the end (a reload): the box shows the change again
    page.goto(f"{server}/t/{table}")
    box = page.locator(".match-end .rating-changes")
    expect(box.locator("h3")).to_have_text("Punteggi dopo questa partita valida per la classifica")
    expect(box.locator(".rating-change")).to_contain_text(f"{name}: 1500 → {moved}")
    expect(page.locator(".claim-seat")).to_have_count(0)  # signed in: no "sign up" offer
    assert axe_violations(page) == []
    shot(page, artifacts, "match-end-rating-italian")

    # a second browser signs in with the same account
    other = new_page(viewport={"width": 1280, "height": 860})
    other.goto(server + "/account")
    other.fill("#signin-name", name.lower())
    other.fill("#signin-password", "not the password")
    other.click(".signin button[type=submit]")
    expect(other.locator(".signin .error")).to_have_text("Wrong user name or password.")
    other.fill("#signin-password", PASSWORD)
    other.click(".signin button[type=submit]")
    expect(other.locator("#me-title")).to_contain_text(name)
    shot(other, artifacts, "account-signed-in")


def test_a_guest_claims_the_seat_by_signing_up_from_the_table(
        server: str, page: Page, artifacts: Path) -> None:
    page.goto(server + "/")
    page.wait_for_selector("button.play-now-button")
    expect(page.locator("#rated")).to_have_count(0)  # a guest plays unrated, as before
    made = page.request.post(server + "/api/tables", data={
        "name": "Guest", "target": 1,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]}).json()
    table = made["table"]["id"]
    seat = json.dumps({"token": made["token"], "seat": made["seat"], "invite": made["invite"]})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scopa.seat.{table}", seat])
    page.goto(f"{server}/t/{table}")
    play_until_match_end(page)
    link = page.locator(".match-end .claim-link")
    expect(link).to_be_visible()
    link.click()
    expect(page.locator(".claim-note")).to_be_visible()
    name = f"Gus{secrets.token_hex(3)}"
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click(".signup button[type=submit]")
    expect(page.locator("#me-title")).to_contain_text(name)
    page.goto(f"{server}/players/{name}")
    expect(page.locator(".recent-matches li")).to_have_count(1)
    expect(page.locator(".profile")).to_contain_text("No rated matches yet.")
    shot(page, artifacts, "profile-claimed-guest")


def test_follow_a_player_and_invite_them_to_your_table(
        server: str, new_page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    a = new_page(viewport={"width": 1280, "height": 860})
    b = new_page(viewport={"width": 1280, "height": 860})
    a_name, b_name = f"Ana{secrets.token_hex(3)}", f"Ben{secrets.token_hex(3)}"
    sign_up(a, server, a_name)
    sign_up(b, server, b_name)
    a.goto(f"{server}/players/{b_name}")
    a.click("button.follow")
    expect(a.locator("button.follow")).to_be_disabled()
    a.reload()  # the profile says so from the server too
    expect(a.locator("button.follow")).to_have_text("Following")
    expect(a.locator("button.follow")).to_be_disabled()
    expect(a.locator(".follows-you")).to_have_count(0)
    # the followed player is told on the follower's profile
    b.goto(f"{server}/players/{a_name}")
    expect(b.locator(".follows-you")).to_have_text("Follows you")
    expect(b.locator("button.follow")).to_be_enabled()
    assert axe_violations(b) == []
    shot(b, artifacts, "friends-follows-you")
    # b reports a (a dialog asks what happened), then blocks a
    b.click(".guard button.report")
    dialog = b.locator("dialog.report-dialog[open]")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#report-what")).to_contain_text(f"{a_name} is not told")
    dialog.locator("textarea").fill("rude in chat")
    assert axe_violations(b) == []
    shot(b, artifacts, "friends-report-dialog")
    dialog.locator(".send-report").click()
    expect(b.locator(".guard-status")).to_have_text(
        f"Thank you: {a_name} is reported to the operator.")
    b.click(".guard button.block")
    expect(b.locator(".guard-status")).to_contain_text(f"{a_name} is blocked")
    b.reload()
    expect(b.locator(".guard button.block")).to_have_text("Unblock")
    b.click(".guard button.block")  # unblocked again: the invitation below must arrive
    expect(b.locator(".guard button.block")).to_have_text("Block")
    # the block ended a's follow (docs/accounts.md, what a block means): a follows again
    a.goto(f"{server}/players/{b_name}")
    a.click("button.follow")
    expect(a.locator("button.follow")).to_have_text("Following")
    a.goto(server + "/account")
    friend = a.locator(".friends .people li", has_text=b_name)
    expect(friend).to_contain_text("online")
    # a table for two people: the waiting area offers to invite whom a follows
    a.goto(server + "/")
    open_custom_table(a)
    a.select_option("#seat-1", "human")
    a.click("button.start")
    a.wait_for_url("**/t/*")
    expect(a.locator("#friend-invite option")).to_have_count(1)
    a.click(".friend-invite button")
    expect(a.locator(".friend-invite [role=status]")).to_have_text(f"{b_name} is invited.")
    assert axe_violations(a) == []
    b.goto(server + "/account")
    invitation = b.locator(".invitations li", has_text=a_name)
    expect(invitation).to_be_visible()
    assert axe_violations(b) == []
    shot(b, artifacts, "friends-invitation")
    invitation.locator("a").click()
    b.click("form button[type=submit]")
    b.wait_for_url("**/t/*")
    expect(b.locator("body")).to_contain_text(a_name)  # seated at a's table
    expect(a.locator("body")).to_contain_text(b_name)


def test_change_the_password_then_delete_the_account(
        server: str, new_page, artifacts: Path,  # type: ignore[no-untyped-def]
        page_errors) -> None:
    """Changing the password ends the other sessions; deleting the account keeps its
    matches, with the name replaced. A wrong password changes nothing either time."""
    page_errors.allow(r"status of 401 .*/api/account/(signin|password|delete)")  # on purpose
    a = new_page(viewport={"width": 1280, "height": 860})
    name = f"Del{secrets.token_hex(3)}"
    sign_up(a, server, name)
    csrf = a.request.get(server + "/api/account").json()["csrf"]
    made = a.request.post(server + "/api/tables", headers={"X-CSRF-Token": csrf}, data={
        "target": 1, "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]}).json()
    table = str(made["table"]["id"])
    seat = json.dumps({"token": made["token"], "seat": made["seat"], "invite": made["invite"]})
    a.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scopa.seat.{table}", seat])
    a.goto(f"{server}/t/{table}")
    play_until_match_end(a)
    match_id = a.request.get(f"{server}/api/players/{name}").json()["recent"][0]["match_id"]

    # a second browser signed in with the same account
    b = new_page(viewport={"width": 1280, "height": 860})
    b.goto(server + "/account")
    b.fill("#signin-name", name)
    b.fill("#signin-password", PASSWORD)
    b.click(".signin button[type=submit]")
    expect(b.locator("#me-title")).to_contain_text(name)

    new_password = "another long passphrase"
    a.goto(server + "/account")
    a.fill("#old-password", "not the password")
    a.fill("#new-password", new_password)
    a.click(".password-form button[type=submit]")
    expect(a.locator(".password-form .error")).not_to_be_empty()
    b.reload()  # a refused change ends nothing
    expect(b.locator("#me-title")).to_contain_text(name)
    a.fill("#old-password", PASSWORD)
    a.fill("#new-password", new_password)
    a.click(".password-form button[type=submit]")
    expect(a.locator(".me [role=status]")).to_have_text(
        "Password changed; your other sessions were signed out.")
    expect(a.locator(".password-form .error")).to_be_empty()
    assert axe_violations(a) == []
    shot(a, artifacts, "account-password-changed")
    # the other browser's session has ended; the old password no longer signs in
    b.reload()
    expect(b.locator("#signin-name")).to_be_visible()
    expect(b.locator("#me-title")).to_have_count(0)
    b.fill("#signin-name", name)
    b.fill("#signin-password", PASSWORD)
    b.click(".signin button[type=submit]")
    expect(b.locator(".signin .error")).to_have_text("Wrong user name or password.")
    b.fill("#signin-password", new_password)
    b.click(".signin button[type=submit]")
    expect(b.locator("#me-title")).to_contain_text(name)

    # deleting: on a page of its own, reached from the account page's foot; a wrong
    # password deletes nothing, and the way back keeps the account
    expect(a.locator(".me .sign-out")).to_be_visible()  # not under the delete button
    a.click("a.close-account")
    a.wait_for_url(server + "/account/delete")
    expect(a.locator(".delete-form .danger")).to_have_text("Delete account")
    a.get_by_role("link", name="Keep my account").click()
    expect(a.locator("#me-title")).to_contain_text(name)
    a.click("a.close-account")
    a.fill("#delete-password", PASSWORD)
    a.click(".delete-form button[type=submit]")
    expect(a.locator(".delete-form .error")).not_to_be_empty()
    assert axe_violations(a) == []
    shot(a, artifacts, "account-delete-refused")
    assert a.request.get(f"{server}/api/players/{name}").status == 200
    a.fill("#delete-password", new_password)
    a.click(".delete-form button[type=submit]")
    a.wait_for_url(server + "/")
    expect(a.locator("#account-link")).not_to_have_text(name)
    assert a.request.get(f"{server}/api/players/{name}").status == 404
    # every session of the account ended
    b.reload()
    expect(b.locator("#signin-name")).to_be_visible()
    # its match stays, the seat shown as a former player
    a.goto(f"{server}/replay/{match_id}")
    title = a.locator("h1")
    expect(title).to_contain_text("former player")
    expect(title).not_to_contain_text(name)
    assert axe_violations(a) == []
    shot(a, artifacts, "account-deleted-replay")


def test_signing_out_leaves_nothing_of_the_player_for_the_next_one(
        server: str, page: Page) -> None:
    """A shared browser: after A signs out, the next person is not offered A's seats, and
    A's seat tokens are gone (they would resume A's seats)."""
    sign_up(page, server, f"Sam{secrets.token_hex(3)}")
    csrf = page.request.get(server + "/api/account").json()["csrf"]
    for _ in range(2):  # two tables A sits at, remembered as the pages remember them
        made = page.request.post(server + "/api/tables", headers={"X-CSRF-Token": csrf},
                                 data={"target": 1, "seats": [{"kind": "human"},
                                                              {"kind": "bot"}]}).json()
        seat = json.dumps({"token": made["token"], "seat": made["seat"],
                           "invite": made["invite"]})
        page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                      [f"scopa.seat.{made['table']['id']}", seat])
    page.evaluate("() => localStorage.setItem('scopa.setting.sound', 'false')")
    page.goto(server + "/account")
    page.click("button.sign-out")
    expect(page.locator("#signup-name")).to_be_visible()
    expect(page.locator(".claim-note")).to_have_count(0)
    left = page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('scopa.'))")
    assert not [k for k in left if k.startswith(("scopa.seat.", "scopa.invite."))], left
    assert "scopa.setting.sound" in left  # the browser's own settings stay
