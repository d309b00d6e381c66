"""The page a one-time password-reset link opens: it names the account, takes a new
password, says it is saved (and the new password signs in); opened again, the used link
says it does not work. Checked with axe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from web_helpers import axe_violations, shot

pytestmark = pytest.mark.browser

OLD = "correct horse battery"
NEW = "a brand new staple 42"


def test_a_reset_link_sets_a_new_password(server, server_database_url, page, page_errors,
                                          artifacts):
    page.goto(server + "/")
    r = page.request.post(server + "/api/account/signup", data={"name": "Lost", "password": OLD})
    assert r.status == 201
    # the operator's command, as the operator runs it (a process of its own)
    done = subprocess.run(
        [Path(sys.executable).with_name("scopa"), "admin", "reset-password", "Lost",
         "--database-url", server_database_url, "--base-url", server],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    link = done.stdout.strip()
    page.goto(link)
    expect(page.locator(".reset-form h1")).to_have_text("Set a new password")
    expect(page.locator(".reset-form")).to_contain_text("A new password for Lost.")
    shot(page, artifacts, "reset-01-form")
    assert axe_violations(page) == []
    page.fill("#reset-password", NEW)
    page.click(".reset-form button[type=submit]")
    expect(page.locator(".reset-done")).to_have_text("Your new password is saved. Sign in with it.")
    expect(page.locator("#account-link")).to_have_text("Sign in")  # signed out here too
    shot(page, artifacts, "reset-02-done")
    # the link was signed out with the old session; the new password signs in
    r = page.request.post(server + "/api/account/signin", data={"name": "Lost", "password": NEW})
    assert r.status == 200
    page_errors.allow(r"status of 404 .*/api/account/reset/")  # the used link, on purpose
    page.goto(link)
    expect(page.locator(".reset-invalid")).to_contain_text("This link does not work")
    assert axe_violations(page) == []
