"""The optional e-mail address and the password reset by e-mail, against a local SMTP
sink, on each store: an address is used only once the link mailed to it is opened;
"forgot your password?" mails a one-time reset link to a checked address only, and
answers the same for every name; the link sets the new password once."""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
from account_helpers import Browser, signed_up
from mail_helpers import server, sink  # noqa: F401 - the module's fixtures
from server_helpers import ServerProcess
from smtp_sink import SmtpSink

NEW = "a brand new staple 42"






def link_in(text: str, path: str) -> str:
    found = re.search(rf"http://\S+/{path}/(\S+)", text)
    assert found, text
    return found.group(1)


def test_a_checked_address_gets_a_reset_link(server: ServerProcess, sink: SmtpSink) -> None:
    me, name = signed_up(server, "mail")
    assert me.get("/api/account/email").json() == {
        "email": None, "verified": False, "available": True}
    assert me.post("/api/account/email", {"email": "not an address"}).status_code == 400
    # before the address is checked, "forgot" mails nothing (the same answer)
    r = me.post("/api/account/email", {"email": f"{name}@example.org"})
    assert r.status_code == 202, r.text
    check = sink.next()
    assert check["To"] == f"{name}@example.org" and check["From"] == "scopa@example.org"
    token = link_in(check.get_content(), "verify-email")
    guest = Browser(server)
    unknown = guest.post("/api/account/forgot", {"name": "nobody-here"})
    unchecked = guest.post("/api/account/forgot", {"name": name})
    assert unknown.status_code == unchecked.status_code == 202
    assert unknown.json() == unchecked.json()
    assert sink.messages.empty()
    assert guest.post("/api/account/email/verify", {"token": "nope"}).status_code == 404
    assert guest.post("/api/account/email/verify", {"token": token}).status_code == 204
    assert guest.post("/api/account/email/verify", {"token": token}).status_code == 404
    assert me.get("/api/account/email").json()["verified"] is True
    # now "forgot" mails a one-time reset link to it
    assert guest.post("/api/account/forgot", {"name": name.upper()}).json() == unknown.json()
    mail = sink.next()
    assert mail["To"] == f"{name}@example.org"
    # asked again at once: no second mail while the first link is fresh (the same answer)
    assert guest.post("/api/account/forgot", {"name": name}).json() == unknown.json()
    assert sink.messages.empty()
    reset = link_in(mail.get_content(), "reset")
    assert guest.get(f"/api/account/reset/{reset}").json() == {"name": name}
    # an address link is no password link, and the other way round
    assert guest.post("/api/account/reset", {"token": token, "password": NEW}
                      ).status_code == 404
    assert guest.post("/api/account/email/verify", {"token": reset}).status_code == 404
    assert guest.post("/api/account/reset", {"token": reset, "password": NEW}
                      ).status_code == 204
    assert me.me() is None  # every session ended
    assert Browser(server).sign_in(name, NEW).status_code == 200
    # a new address must be checked again
    assert me.sign_in(name, NEW).status_code == 200
    assert me.post("/api/account/email", {"email": f"new{name}@example.org"}
                   ).status_code == 202
    sink.next()
    assert me.get("/api/account/email").json() == {
        "email": f"new{name}@example.org", "verified": False, "available": True}


def checked_address(server: ServerProcess, sink: SmtpSink, prefix: str) -> tuple[Browser, str]:
    """A fresh account whose address is checked (the link mailed to it was opened)."""
    me, name = signed_up(server, prefix)
    assert me.post("/api/account/email", {"email": f"{name}@example.org"}
                   ).status_code == 202
    token = link_in(sink.next().get_content(), "verify-email")
    assert Browser(server).post("/api/account/email/verify", {"token": token}
                                ).status_code == 204
    return me, name


def test_links_in_mail_never_take_the_request_s_host(
        server: ServerProcess, sink: SmtpSink) -> None:
    """With no public origin configured, a link in mail names the address the server was
    told to serve, whatever Host the request claimed."""
    me, name = signed_up(server, "host")
    served = f"http://localhost:{server.port}/"
    r = me.post("/api/account/email", {"email": f"{name}@example.org"},
                Host="evil.example")
    assert r.status_code == 202, r.text
    check = sink.next().get_content()
    assert "evil.example" not in check and f"{served}verify-email/" in check
    token = link_in(check, "verify-email")
    assert Browser(server).post("/api/account/email/verify", {"token": token}
                                ).status_code == 204
    r = Browser(server).post("/api/account/forgot", {"name": name}, Host="evil.example")
    assert r.status_code == 202
    mail = sink.next().get_content()
    assert "evil.example" not in mail and f"{served}reset/" in mail


def test_a_mail_speaks_the_language_of_the_page_that_asked(
        server: ServerProcess, sink: SmtpSink) -> None:
    """The address check and the reset link come in the page's language (``lang``); an
    unknown language is refused and sends nothing."""
    me, name = signed_up(server, "idioma")
    bad = me.post("/api/account/email", {"email": f"{name}@example.org", "lang": "fr"})
    assert bad.status_code == 422 and "unknown language" in bad.text
    assert me.get("/api/account/email").json()["email"] is None  # nothing changed
    assert sink.messages.empty()
    r = me.post("/api/account/email", {"email": f"{name}@example.org", "lang": "es"})
    assert r.status_code == 202, r.text
    check = sink.next()
    assert check["Subject"] == "Scopa: comprueba tu dirección de correo"
    words = check.get_content()
    assert f"Hola, {name}:" in words and "funciona una sola vez" in words
    token = link_in(words, "verify-email")
    assert Browser(server).post("/api/account/email/verify", {"token": token}
                                ).status_code == 204
    assert Browser(server).post("/api/account/forgot", {"name": name, "lang": "it"}
                                ).status_code == 202
    mail = sink.next()
    assert mail["Subject"] == "Scopa: imposta una nuova password"
    assert f"Ciao {name}," in mail.get_content()
    link_in(mail.get_content(), "reset")


def drain(sink: SmtpSink) -> list[str]:
    """The recipients of every mail in the sink now (each request's mail is in the sink
    before its answer goes out)."""
    out = []
    while not sink.messages.empty():
        out.append(str(sink.next()["To"]))
    return out


def at_once(n: int, call: Callable[[int], httpx.Response]) -> list[int]:
    """``call(i)`` for i in range(n), all at once: the status codes."""
    with ThreadPoolExecutor(n) as pool:
        return [r.status_code for r in pool.map(call, range(n))]


def test_only_ordinary_addresses_are_taken(server: ServerProcess, sink: SmtpSink) -> None:
    me, name = signed_up(server, "odd")
    for bad in ("a@[10.0.0.5]", "a%b@victim.test", "a%b@victim.example.org",
                "b!a@example.org", '"a b"@example.org', "a@localhost", "a@example",
                "not an address", "a@b@example.org"):
        r = me.post("/api/account/email", {"email": bad})
        assert r.status_code == 400, (bad, r.text)
        assert "address" in r.json()["detail"]
    assert me.get("/api/account/email").json()["email"] is None  # nothing changed
    assert drain(sink) == []


def test_mail_is_limited_per_recipient_under_requests_at_once(
        server: ServerProcess, sink: SmtpSink) -> None:
    me, _ = signed_up(server, "flood")
    victim = "victim-one@example.org"
    codes = at_once(30, lambda i: me.post("/api/account/email", {"email": victim}))
    assert set(codes) <= {202, 429}
    sent = drain(sink)
    assert len(sent) == codes.count(202) and 1 <= len(sent) <= 3  # mails_per_recipient
    # another account cannot add more to that inbox than the limit either
    other, _ = signed_up(server, "flood")
    later = [other.post("/api/account/email", {"email": victim}).status_code
             for _ in range(4)]
    assert later[-1] == 429
    assert len(sent) + len(drain(sink)) == 3


def test_mail_is_limited_per_account_under_requests_at_once(
        server: ServerProcess, sink: SmtpSink) -> None:
    me, name = signed_up(server, "many")
    codes = at_once(30, lambda i: me.post("/api/account/email",
                                          {"email": f"{name}-{i}@example.org"}))
    sent = drain(sink)
    assert len(sent) == codes.count(202) and 1 <= len(sent) <= 5  # mails_per_account


def test_mail_is_limited_per_client_address_under_requests_at_once(
        server: ServerProcess, sink: SmtpSink) -> None:
    accounts = [signed_up(server, "addr") for _ in range(15)]
    shared = "10.250.1.1"
    codes = at_once(30, lambda i: accounts[i % 15][0].post(
        "/api/account/email", {"email": f"{accounts[i % 15][1]}-{i}@example.org"},
        **{"X-Forwarded-For": shared}))
    sent = drain(sink)
    assert len(sent) == codes.count(202) and 1 <= len(sent) <= 10  # mails_per_address


def test_a_flood_of_forgot_for_one_name_gives_one_mail(
        server: ServerProcess, sink: SmtpSink) -> None:
    """30 requests at once, each from its own address: one mail (the name's one mail per
    5 minutes is claimed by one request only), and the answers are 202 or 429."""
    _, name = checked_address(server, sink, "race")
    guests = [Browser(server) for _ in range(30)]
    codes = at_once(30, lambda i: guests[i].post("/api/account/forgot", {"name": name}))
    assert set(codes) <= {202, 429} and 202 in codes
    assert sink.next()["To"] == f"{name}@example.org"
    assert sink.messages.empty()  # no other request got to mail (none was scheduled)


def test_forgot_is_throttled_per_client_address_and_per_name(
        server: ServerProcess, sink: SmtpSink) -> None:
    prober = Browser(server)
    codes = [prober.post("/api/account/forgot", {"name": f"nobody{i}"}).status_code
             for i in range(11)]
    assert codes == [202] * 10 + [429]  # forgot_per_address
    r = prober.post("/api/account/forgot", {"name": "nobody-else"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    codes = [Browser(server).post("/api/account/forgot", {"name": "one-name"}).status_code
             for _ in range(6)]
    assert codes == [202] * 5 + [429]  # forgot_per_name, from any address
    assert drain(sink) == []
