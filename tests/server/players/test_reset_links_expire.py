"""A password-reset link stops working once the password or the account's address
changes (it may have been mailed to the old address, or made before the owner acted),
and once used, on each store (issue 37)."""

from __future__ import annotations

from account_helpers import PASSWORD, Browser, signed_up
from server_helpers import ServerProcess
from smtp_sink import SmtpSink
from test_email_reset import server, sink  # noqa: F401 - the module's fixtures
from test_password_reset import NEW, link_for


def works(server: ServerProcess, token: str) -> bool:
    return Browser(server).get(f"/api/account/reset/{token}").status_code == 200


def test_a_password_change_ends_outstanding_reset_links(
        server: ServerProcess, sink: SmtpSink) -> None:
    me, name = signed_up(server, "chg")
    token = link_for(server.database_url, name, server.base)
    assert works(server, token)
    r = me.post("/api/account/password", {"old": PASSWORD, "new": NEW})
    assert r.status_code == 204, r.text
    assert not works(server, token)
    r = Browser(server).post("/api/account/reset", {"token": token, "password": PASSWORD})
    assert r.status_code == 404
    assert Browser(server).sign_in(name, NEW).status_code == 200  # the change stands


def test_an_address_change_ends_outstanding_reset_links(
        server: ServerProcess, sink: SmtpSink) -> None:
    me, name = signed_up(server, "adr")
    token = link_for(server.database_url, name, server.base)
    assert me.post("/api/account/email", {"email": f"{name}@example.org"}
                   ).status_code == 202
    sink.next()
    assert not works(server, token)
    token = link_for(server.database_url, name, server.base)
    assert me.post("/api/account/email", {"email": ""}).status_code == 202
    assert not works(server, token)


def test_a_used_link_and_its_siblings_stop_working(
        server: ServerProcess, sink: SmtpSink) -> None:
    _, name = signed_up(server, "use")
    token = link_for(server.database_url, name, server.base)
    r = Browser(server).post("/api/account/reset", {"token": token, "password": NEW})
    assert r.status_code == 204, r.text
    assert not works(server, token)
