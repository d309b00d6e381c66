"""The e-mail parts of the account page, on a server of its own that mails through a
local SMTP sink: save an address, open the link mailed to it (the address is checked),
then, signed out, "Forgot your password?" mails a reset link that sets a new password.
Checked with axe; on a server without SMTP the sign-in form offers no such thing."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from web_helpers import axe_violations, shot

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
from server_helpers import ServerProcess  # noqa: E402
from smtp_sink import SmtpSink  # noqa: E402

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
NEW = "a brand new staple 42"


@pytest.fixture(scope="module")
def mailing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, SmtpSink]]:
    sink = SmtpSink().start()
    proc = ServerProcess(tmp_path_factory.mktemp("mail") / "scopa.sqlite",
                         SCOPA_SMTP_HOST="127.0.0.1", SCOPA_SMTP_PORT=str(sink.port),
                         SCOPA_SMTP_STARTTLS="false").start()
    try:
        yield proc.base, sink
    finally:
        proc.stop()
        sink.stop()


def link(sink: SmtpSink, path: str) -> str:
    text = sink.next().get_content()
    found = re.search(rf"(http://\S+/{path}/\S+)", text)
    assert found, text
    return found.group(1)


def test_check_an_address_then_reset_the_password_by_e_mail(mailing, page, artifacts):
    base, sink = mailing
    page.goto(base + "/account")
    page.fill("#signup-name", "Mailer")
    page.fill("#signup-password", PASSWORD)
    page.click(".signup button[type=submit]")
    page.fill("#email", "mailer@example.org")
    page.click(".email-form button[type=submit]")
    expect(page.locator(".email-status")).to_have_text(
        "A link is on its way to mailer@example.org: open it to check the address.")
    assert axe_violations(page) == []
    page.goto(link(sink, "verify-email"))
    expect(page.locator(".verify-ok")).to_have_text("Your e-mail address is checked.")
    page.goto(base + "/account")
    expect(page.locator(".email-status")).to_have_text("mailer@example.org is checked.")
    shot(page, artifacts, "email-01-checked")
    page.click("button.sign-out")
    page.click("details.forgot summary")
    page.fill("#forgot-name", "Mailer")
    page.click(".forgot-form button[type=submit]")
    expect(page.locator(".forgot-status")).to_contain_text("a link is on its way")
    assert axe_violations(page) == []
    shot(page, artifacts, "email-02-forgot")
    page.goto(link(sink, "reset"))
    page.fill("#reset-password", NEW)
    page.click(".reset-form button[type=submit]")
    expect(page.locator(".reset-done")).to_be_visible()
    r = page.request.post(base + "/api/account/signin", data={"name": "Mailer", "password": NEW})
    assert r.status == 200


def test_without_smtp_no_forgot_link(server, page):
    page.goto(server + "/account")
    expect(page.locator(".signin")).to_be_visible()
    expect(page.locator("details.forgot")).to_have_count(0)
