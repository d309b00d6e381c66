"""A forgotten password: ``scopa admin reset-password NAME`` prints a one-time link, and
the link (``/api/account/reset``) sets a new password once, ending every session, on
each store. A used, replaced, expired or unknown link changes nothing; so does a weak
password; an unknown name is one line on stderr."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
from server_helpers import ServerProcess
from typer.testing import CliRunner

from scopa.cli import app
from scopa.server.players.account_store import AccountStore
from scopa.server.players.passwords import name_key
from scopa.server.players.resets import Resets
from scopa.server.store.database import Store
from scopa.server.store.models import utcnow

OLD = "correct horse battery"
NEW = "a brand new staple 42"


def link_for(database_url: str, name: str, base: str) -> str:
    done = CliRunner().invoke(app, ["admin", "reset-password", name, "--database-url",
                                    database_url, "--base-url", base])
    assert done.exit_code == 0, done.output
    line = done.stdout.strip()
    assert line.startswith(f"{base}/reset/") and "\n" not in line
    return line.rsplit("/", 1)[1]


def test_the_operator_link_sets_a_new_password_once(server: ServerProcess) -> None:
    player = httpx.Client(base_url=server.base, timeout=30)
    r = player.post("/api/account/signup", json={"name": "Forgetful", "password": OLD})
    assert r.status_code == 201, r.text
    first = link_for(server.database_url, "forgetful", server.base)  # any case
    token = link_for(server.database_url, "Forgetful", server.base)
    other = httpx.Client(base_url=server.base, timeout=30)
    # a newer link replaces the older
    assert other.get(f"/api/account/reset/{first}").status_code == 404
    assert other.get(f"/api/account/reset/{token}").json() == {"name": "Forgetful"}
    # a weak password is refused and the link still works
    r = other.post("/api/account/reset", json={"token": token, "password": "forgetful1"})
    assert r.status_code == 400
    r = other.post("/api/account/reset", json={"token": token, "password": NEW})
    assert r.status_code == 204, r.text
    # used up; the old session is over; only the new password signs in
    again = other.post("/api/account/reset", json={"token": token, "password": OLD + "!"})
    assert again.status_code == 404
    assert player.get("/api/account").json()["user"] is None
    assert other.post("/api/account/signin",
                      json={"name": "Forgetful", "password": OLD}).status_code == 401
    assert other.post("/api/account/signin",
                      json={"name": "Forgetful", "password": NEW}).status_code == 200


def test_an_expired_or_unknown_link_does_nothing(server: ServerProcess) -> None:
    http = httpx.Client(base_url=server.base, timeout=30)
    assert http.post("/api/account/signup",
                     json={"name": "Late", "password": OLD}).status_code == 201

    async def expired() -> str:
        store = Store(server.database_url)
        try:
            user = await AccountStore(store).user_by_key(name_key("Late"))
            assert user is not None
            return await Resets(store).issue(user.id, hours=1,
                                             now=utcnow() - timedelta(hours=2))
        finally:
            await store.close()

    token = asyncio.run(expired())
    for t in (token, "no-such-link-at-all"):
        assert http.get(f"/api/account/reset/{t}").status_code == 404
        r = http.post("/api/account/reset", json={"token": t, "password": NEW})
        assert r.status_code == 404 and "not valid" in r.json()["detail"]
    assert http.post("/api/account/signin",
                     json={"name": "Late", "password": OLD}).status_code == 200


def test_an_unknown_name_is_one_line(server: ServerProcess) -> None:
    done = CliRunner().invoke(app, ["admin", "reset-password", "Nobody", "--database-url",
                                    server.database_url])
    assert done.exit_code == 1
    assert done.stdout == "" and done.stderr.strip() == "scopa admin: no account is named 'Nobody'"


def test_without_smtp_the_site_offers_no_e_mail(server: ServerProcess) -> None:
    http = httpx.Client(base_url=server.base, timeout=30)
    r = http.post("/api/account/signup", json={"name": "NoMail", "password": OLD})
    assert r.status_code == 201
    csrf = {"X-CSRF-Token": r.json()["csrf"]}
    assert http.get("/api/account/email").json()["available"] is False
    # a feature this server does not offer: 404 saying so (not a server error)
    r = http.post("/api/account/email", json={"email": "a@example.org"}, headers=csrf)
    assert r.status_code == 404 and "no e-mail" in r.json()["detail"]
    assert http.get("/api/account/email").json()["email"] is None  # nothing changed
    assert http.post("/api/account/forgot", json={"name": "NoMail"}).status_code == 404
