"""The sign-in throttle with an injected clock, on SQLite and PostgreSQL: a few free
failures, then waits that double, per address and per address and name; the owner on
another address is never slowed, and a success forgets its own pair's failures."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from scopa.server.players.account_store import AccountStore
from scopa.server.players.throttle import Backoff, SignInThrottle, signup_wait
from scopa.server.store.database import Store

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
SETTINGS = SimpleNamespace(login_window_seconds=900, login_delay_seconds=2.0,
                           login_failures_per_address_and_name=3,
                           login_failures_per_address=10)



def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_backoff_doubles_up_to_its_cap() -> None:
    rule = Backoff(free=3, base=2.0, cap=10.0)
    assert [rule.wait(n, T0, T0) for n in range(7)] == [0, 0, 0, 2, 4, 8, 10]
    assert rule.wait(4, T0, at(3)) == 1  # counted from the latest failure
    assert rule.wait(4, T0, at(30)) == 0


def test_the_guesser_waits_longer_each_time_and_the_owner_never(url: str) -> None:
    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            throttle = SignInThrottle(AccountStore(store), SETTINGS)
            for i in range(3):
                assert await throttle.wait("10.0.0.1", "Owner", at(i)) == 0
                await throttle.failed("10.0.0.1", "Owner", at(i))
            assert await throttle.wait("10.0.0.1", "owner", at(2)) == 2  # any case
            assert await throttle.wait("10.0.0.1", "Owner", at(4)) == 0  # waited it out
            await throttle.failed("10.0.0.1", "Owner", at(4))
            assert await throttle.wait("10.0.0.1", "Owner", at(4)) == 4  # doubled
            # the owner on another address, and this address at another name: no wait
            assert await throttle.wait("10.0.0.2", "Owner", at(4)) == 0
            assert await throttle.wait("10.0.0.1", "Someone", at(4)) == 0
            # after the window everything is forgotten
            assert await throttle.wait("10.0.0.1", "Owner", at(4 + 901)) == 0
            # a success forgets the pair's failures
            await throttle.succeeded("10.0.0.1", "Owner")
            assert await throttle.wait("10.0.0.1", "Owner", at(5)) == 0
            # many names from one address: the address itself waits
            for i in range(10):
                await throttle.failed("10.0.0.3", f"name{i}", at(10))
            assert await throttle.wait("10.0.0.3", "fresh", at(10)) == 2
            assert await throttle.wait("10.0.0.4", "fresh", at(10)) == 0
        finally:
            await store.close()

    asyncio.run(run())


def test_sign_ups_per_address_are_counted_in_the_database(url: str) -> None:
    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            accounts = AccountStore(store)
            settings = SimpleNamespace(signups_per_address=3, signup_window_seconds=3600)
            tries = [await signup_wait(accounts, settings, "10.0.0.9", at(i))
                     for i in range(4)]
            assert tries == [0, 0, 0, 3600]
            assert await signup_wait(accounts, settings, "10.0.0.8", at(5)) == 0
            # a new worker (another store on the same database) counts the same tries
            other = Store(url)
            try:
                assert await signup_wait(AccountStore(other), settings, "10.0.0.9",
                                         at(6)) == 3600
            finally:
                await other.close()
            # past the window the old tries no longer count
            assert await signup_wait(accounts, settings, "10.0.0.9", at(3700)) == 0
        finally:
            await store.close()

    asyncio.run(run())
