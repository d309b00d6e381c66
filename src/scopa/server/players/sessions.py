"""Who is asking: the session cookie, and the CSRF rule for requests it authorises.

The cookie (``scopa_session``) holds a random token; the server keeps only its SHA-256.
It is HttpOnly, SameSite=Lax, and Secure when the page is served over https. CSRF: every
state-changing request that the cookie authorises must also carry the session's own CSRF
token in the ``X-CSRF-Token`` header (a synchronizer token, told to the page in the JSON
of sign-in and ``GET /api/account``, which another site cannot read), and a browser's
``Origin``, when sent, must be this site's. A request without a valid token is refused
(account actions) or treated as a guest's (creating or joining a table), never half-done.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fastapi import HTTPException, Request, Response

from ..common.security import origin_allowed
from ..store.account_models import UserRow
from ..store.base import aware
from .account_store import AccountStore

COOKIE = "scopa_session"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
#: "last seen" is written at most this often per account (not on every request)
TOUCH_SECONDS = 60


@dataclass(frozen=True)
class Viewer:
    """A signed-in account as a request sees it."""

    id: int
    name: str
    private: bool
    token_hash: str
    csrf: str


def accounts_of(request: Request) -> AccountStore:
    accounts: AccountStore = request.app.state.accounts
    return accounts


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()




async def start_session(request: Request, response: Response, user: UserRow) -> Viewer:
    """A new session for ``user``: its cookie on ``response`` (a session this browser
    had before ends: one cookie, one session)."""
    old = request.cookies.get(COOKIE)
    if old and len(old) <= 200:
        await accounts_of(request).end_session(token_hash(old))
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    expires = datetime.now(UTC) + timedelta(days=SESSION_DAYS)
    h = token_hash(token)
    await accounts_of(request).add_session(user.id, h, csrf, expires)
    response.set_cookie(
        COOKIE, token, max_age=SESSION_DAYS * 86400, path="/", httponly=True,
        samesite="lax", secure=request.url.scheme == "https",
    )
    return Viewer(user.id, user.name, user.private, h, csrf)


def end_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


async def viewer(request: Request) -> Viewer | None:
    """The signed-in account of this request (reading only: no CSRF needed), or None."""
    token = request.cookies.get(COOKIE)
    if not token or len(token) > 200:
        return None
    accounts = accounts_of(request)
    found = await accounts.session_of(token_hash(token))
    if found is None:
        return None
    sess, user = found
    now = datetime.now(UTC)
    if aware(sess.expires_at) <= now:
        await accounts.end_session(sess.token_hash)
        return None
    if user.last_seen is None or (now - aware(user.last_seen)).total_seconds() > TOUCH_SECONDS:
        await accounts.touch(user.id, now)
    return Viewer(user.id, user.name, user.private, sess.token_hash, sess.csrf)


def check_origin(request: Request) -> None:
    """A browser's cross-site POST is refused whatever it carries."""
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"),
                          request.app.state.settings):
        raise HTTPException(403, "this request came from another site")


def csrf_ok(request: Request, v: Viewer) -> bool:
    given = request.headers.get(CSRF_HEADER, "")
    return bool(given) and hmac.compare_digest(given.encode(), v.csrf.encode())


async def acting(request: Request) -> Viewer:
    """The account a state-changing request acts for: signed in, from this site, with the
    session's CSRF token; else 401/403 and nothing happens."""
    check_origin(request)
    v = await viewer(request)
    if v is None:
        raise HTTPException(401, "sign in first")
    if not csrf_ok(request, v):
        raise HTTPException(403, "missing or wrong CSRF token (X-CSRF-Token header)")
    return v


async def acting_or_guest(request: Request) -> Viewer | None:
    """For actions open to guests (making or joining a table): the account when the
    request proves it with the CSRF token, else None (played as a guest)."""
    try:
        return await acting(request)
    except HTTPException:
        return None
