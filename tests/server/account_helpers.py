"""Accounts in the server's tests: a browser (its cookies, its address, its CSRF token),
a signed-up player, and a module's server for account tests (each test speaking from
addresses of its own). Imported by the test modules of every package, so no test module
imports another."""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_helpers import ServerProcess

PASSWORD = "correct horse battery"
_addresses = itertools.count(1)


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerProcess]:
    """Each test speaks from addresses of its own (X-Forwarded-For, trusted from
    loopback), so the per-address throttle of one test never touches another."""
    proc = ServerProcess(
        tmp_path_factory.mktemp("srv") / "scopa.sqlite", database_url=database_url,
        SCOPA_TRUSTED_PROXIES="127.0.0.1", SCOPA_LOGIN_FAILURES_PER_ADDRESS_AND_NAME="3",
        SCOPA_LOGIN_FAILURES_PER_ADDRESS="6", SCOPA_LEADERBOARD_MIN_GAMES="1",
        # the first wait outlasts any test: a 429 here never depends on the test's speed
        SCOPA_LOGIN_DELAY_SECONDS="600", SCOPA_SIGNUPS_PER_ADDRESS="3",
    ).start()
    yield proc
    proc.stop()


def fresh_name(prefix: str = "p") -> str:
    return f"{prefix}{secrets.token_hex(4)}"


class Browser:
    """One browser: its cookies, its address, and the CSRF token it was told."""

    def __init__(self, server: ServerProcess, address: str | None = None) -> None:
        self.address = address or f"10.1.{next(_addresses) % 250}.{random.randint(1, 250)}"
        self.http = httpx.Client(base_url=server.base, timeout=30,
                                 headers={"X-Forwarded-For": self.address})
        self.csrf: str | None = None

    def post(self, path: str, body: Any = None, csrf: bool = True,
             **headers: str) -> httpx.Response:
        h = dict(headers)
        if csrf and self.csrf:
            h["X-CSRF-Token"] = self.csrf
        return self.http.post(path, json=body if body is not None else {}, headers=h)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def sign_up(self, name: str, password: str = PASSWORD, **extra: Any) -> httpx.Response:
        r = self.post("/api/account/signup", {"name": name, "password": password, **extra})
        if r.status_code == 201:
            self.csrf = r.json()["csrf"]
        return r

    def sign_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        r = self.post("/api/account/signin", {"name": name, "password": password})
        if r.status_code == 200:
            self.csrf = r.json()["csrf"]
        return r

    def me(self) -> dict[str, Any] | None:
        user: dict[str, Any] | None = self.get("/api/account").json()["user"]
        return user


def signed_up(server: ServerProcess, prefix: str = "p") -> tuple[Browser, str]:
    b = Browser(server)
    name = fresh_name(prefix)
    r = b.sign_up(name)
    assert r.status_code == 201, r.text
    return b, name
