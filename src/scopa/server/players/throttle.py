"""Slowing down password guessing without handing anyone a way to lock an owner out,
and sign-up floods (``signup_wait``: tries per address, counted in the database).

Refused sign-ins are counted per client address and per address *and* name, never per
name alone: a name that strangers guess at stays open to its owner from any other
address (the old per-name lock was a weapon: five wrong passwords from anywhere shut the
owner out for 15 minutes). Each count allows a few failures freely, then a wait that
doubles with every further failure, up to the window (``login_window_seconds``); failures
older than the window are forgotten, and a successful sign-in forgets its own pair's.
Guessing one name from many addresses is bounded per address, and by the password policy
(ten characters or more, never a common password)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from .account_store import AccountStore
from .passwords import name_key


@dataclass(frozen=True)
class Backoff:
    """``free`` failures cost nothing; the next waits ``base`` seconds after the latest
    failure, each further one twice as long, never more than ``cap``."""

    free: int
    base: float
    cap: float

    def wait(self, failures: int, last: datetime | None, now: datetime) -> float:
        """Seconds still to wait at ``now`` after ``failures``, the latest at ``last``."""
        if failures < self.free or last is None:
            return 0.0
        delay = min(self.cap, self.base * 2.0 ** (failures - self.free))
        return max(0.0, delay - (now - last).total_seconds())


def address_key(address: str) -> str:
    return f"addr:{address[:64]}"


def pair_key(address: str, name: str) -> str:
    return f"pair:{address[:64]}|{name_key(name.strip())[:56]}"


async def signup_wait(accounts: AccountStore, settings: Any, address: str,
                      now: datetime | None = None) -> int:
    """Count this sign-up try from ``address``; the seconds to wait (the window) when it is
    one more than ``signups_per_address`` in ``signup_window_seconds``, else 0."""
    now = now or datetime.now(UTC)
    window = float(settings.signup_window_seconds)
    tries = await accounts.try_signup(address, now - timedelta(seconds=window), now)
    return math.ceil(window) if tries > settings.signups_per_address else 0


class _Backoffs:
    """What both throttles share: failures counted in the accounts' store under keys, each
    key with its backoff, within ``login_window_seconds``."""

    def __init__(self, accounts: AccountStore, settings: Any) -> None:
        self.accounts = accounts
        self.window_seconds = float(settings.login_window_seconds)
        self.window = timedelta(seconds=self.window_seconds)
        self.base = float(settings.login_delay_seconds)

    def backoff(self, failures: int) -> Backoff:
        return Backoff(failures, self.base, self.window_seconds)

    async def _wait(self, keys: list[tuple[str, Backoff]], now: datetime | None) -> int:
        """Whole seconds to wait: the longest any key's backoff asks (0: go ahead)."""
        now = now or datetime.now(UTC)
        longest = 0.0
        for key, rule in keys:
            count, last = await self.accounts.failures(key, now - self.window)
            longest = max(longest, rule.wait(count, last, now))
        return math.ceil(longest)

    async def _failed(self, keys: list[tuple[str, Backoff]], now: datetime | None) -> None:
        now = now or datetime.now(UTC)
        await self.accounts.add_failures([k for k, _ in keys], now - self.window, now)


class SignInThrottle(_Backoffs):
    """The throttle of ``POST /api/account/signin`` on the accounts' store; ``now`` is
    injected so the waits are tested without waiting."""

    def __init__(self, accounts: AccountStore, settings: Any) -> None:
        super().__init__(accounts, settings)
        self.rules = (
            (address_key, self.backoff(settings.login_failures_per_address)),
            (None, self.backoff(settings.login_failures_per_address_and_name)),
        )

    def _keys(self, address: str, name: str) -> list[tuple[str, Backoff]]:
        return [(address_key(address) if f else pair_key(address, name), rule)
                for f, rule in self.rules]

    async def wait(self, address: str, name: str, now: datetime | None = None) -> int:
        """Whole seconds this address must wait before trying ``name`` (0: go ahead)."""
        return await self._wait(self._keys(address, name), now)

    async def failed(self, address: str, name: str, now: datetime | None = None) -> None:
        await self._failed(self._keys(address, name), now)

    async def succeeded(self, address: str, name: str) -> None:
        """The owner got in: this address's guesses at this name are forgotten (the
        address's own count stays, so signing in to one's own account between guesses
        at others does not reset it)."""
        await self.accounts.clear_failures(pair_key(address, name))


class ConfirmThrottle(_Backoffs):
    """The throttle of the routes where a signed-in player confirms with the password
    (change it, delete the account): wrong passwords counted per account and per client
    address, with the sign-in's backoff. A stolen session cannot guess the password fast
    from anywhere, and the owner's own right password clears the account's count."""

    def __init__(self, accounts: AccountStore, settings: Any) -> None:
        super().__init__(accounts, settings)
        self.per_account = self.backoff(settings.login_failures_per_address_and_name)
        self.per_address = self.backoff(settings.login_failures_per_address)

    def _keys(self, address: str, user_id: int) -> list[tuple[str, Backoff]]:
        return [(f"confirm:{user_id}", self.per_account),
                (f"confirm-{address_key(address)}", self.per_address)]

    async def wait(self, address: str, user_id: int, now: datetime | None = None) -> int:
        return await self._wait(self._keys(address, user_id), now)

    async def failed(self, address: str, user_id: int) -> None:
        await self._failed(self._keys(address, user_id), None)

    async def succeeded(self, user_id: int) -> None:
        await self.accounts.clear_failures(f"confirm:{user_id}")
