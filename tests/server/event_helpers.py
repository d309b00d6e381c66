"""Helpers for the events' tests: the server's app in this process (the test client runs
its lifespan), and signed-in accounts that send their own cookie and CSRF
token (one client, many people)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from scopa.server import create_app
from scopa.server.common.settings import Settings
from scopa.server.players.sessions import COOKIE

#: quick tables: no pause between hands, stand-ins at once, random bots
FAST = {"hand_pause_seconds": 0.0, "bot_delay_seconds": 0.0, "standin_level": "random",
        "bot_seconds": 0.05, "bot_workers": 1, "signups_per_address": 1000,
        "grace_seconds": 0.0}


def events_app(database_url: str, **settings: Any) -> FastAPI:
    """The server's app (events are part of it) with quick tables."""
    return create_app(Settings(database_url=database_url, **{**FAST, **settings}))


@contextmanager
def client_for(tmp: Path, **settings: Any) -> Iterator[TestClient]:
    with TestClient(events_app(f"sqlite:///{tmp / 'ev.sqlite'}", **settings)) as c:
        yield c


class Person:
    """A signed-in account: its own session cookie and CSRF token on every request."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        self.name = name
        r = client.post("/api/account/signup", json={"name": name, "password": "correct horse 9"})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]
        self.id = r.json()["user"]["id"]
        self.cookie = r.cookies.get(COOKIE) or client.cookies.get(COOKIE)
        client.cookies.clear()

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={self.cookie}", "X-CSRF-Token": self.csrf}

    def get(self, url: str) -> Any:
        return self.client.get(url, headers=self.headers())

    def post(self, url: str, body: Any = None) -> Any:
        return self.client.post(url, json=body, headers=self.headers())

    def put(self, url: str, body: Any = None) -> Any:
        return self.client.put(url, json=body, headers=self.headers())
