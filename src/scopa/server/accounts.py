"""The account API: sign up, sign in and out, change the password, make the profile
private, claim a guest seat, delete the account. Passwords are checked against
``passwords.PASSWORD_POLICY``; sign-ins are throttled per account and per address."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from . import passwords
from .account_store import DELETED_NAME
from .errors import SIGNED_IN, errors
from .lobby import client_address, master_of
from .sessions import (
    Viewer,
    accounts_of,
    acting,
    check_origin,
    end_cookie,
    start_session,
    viewer,
)

router = APIRouter(prefix="/api/account", tags=["accounts"])


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class SeatClaim(BaseModel):
    """A guest's seat: the table and the seat token the guest was given."""

    model_config = ConfigDict(extra="forbid")
    table_id: str = Field(max_length=32)
    token: str = Field(max_length=200)


class SignUp(Credentials):
    #: seats this browser played as a guest, to become the new account's
    claim: list[SeatClaim] = Field(default_factory=list, max_length=50)


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class Confirm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1000)


class Privacy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    private: bool


class Claims(BaseModel):
    model_config = ConfigDict(extra="forbid")
    claim: list[SeatClaim] = Field(min_length=1, max_length=50)


def me(v: Viewer) -> dict[str, Any]:
    return {"user": {"id": v.id, "name": v.name, "private": v.private}, "csrf": v.csrf}


@router.get("/policy")
def policy() -> dict[str, Any]:
    """The rules of user names and passwords, as the sign-up form states them."""
    return {"user_name": passwords.USER_NAME_RULE, "password": passwords.PASSWORD_POLICY,
            "user_name_length": [passwords.USER_NAME_MIN, passwords.USER_NAME_MAX],
            "password_length": [passwords.PASSWORD_MIN, passwords.PASSWORD_MAX]}


@router.get("")
async def account(request: Request) -> dict[str, Any]:
    """Who is signed in here (``user`` null for a guest), with the CSRF token the page
    sends back on every change."""
    v = await viewer(request)
    return {"user": None, "csrf": None} if v is None else me(v)


async def claim_seats(request: Request, user_id: int, claims: list[SeatClaim]) -> int:
    """Make each guest seat (proved by its token) the account's: the live seat and the
    finished matches played from it. Every claim is checked before any is made."""
    master = master_of(request)
    accounts = accounts_of(request)
    proved: list[tuple[str, int]] = []
    for c in claims:
        h = master.token_hash(c.token)
        seats = await accounts.seats_of_table(c.table_id)
        match = [s for s in seats if s.token_hash is not None and s.token_hash == h]
        if not match:
            raise HTTPException(403, f"no seat at table {c.table_id!r} opens with this token")
        if match[0].user_id is not None and match[0].user_id != user_id:
            raise HTTPException(409, "this seat already belongs to an account")
        proved.append((c.table_id, match[0].seat))
    matches = 0
    for table_id, seat in proved:
        matches += await accounts.claim_seat(table_id, seat, user_id)
        master.seat_account(table_id, seat, user_id)
    return matches


@router.post("/signup", status_code=201, responses=errors(400, 403, 409))
async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
    """Make an account and sign in; with ``claim``, the guest seats it played become its."""
    check_origin(request)
    try:
        name = passwords.check_user_name(body.name)
        passwords.check_password(body.password, name)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    accounts = accounts_of(request)
    if await accounts.user_by_key(passwords.name_key(name)) is not None:
        raise HTTPException(409, "this user name is taken")
    if body.claim:  # the seats are proved before the account exists (else nothing is made)
        master = master_of(request)
        for c in body.claim:
            h = master.token_hash(c.token)
            seats = await accounts.seats_of_table(c.table_id)
            if not any(s.token_hash == h and s.user_id is None for s in seats):
                raise HTTPException(403, f"no guest seat at table {c.table_id!r} opens "
                                         "with this token")
    hashed = await run_in_threadpool(passwords.hash_password, body.password)
    user = await accounts.create_user(name, passwords.name_key(name), hashed)
    if user is None:
        raise HTTPException(409, "this user name is taken")
    claimed = await claim_seats(request, user.id, body.claim) if body.claim else 0
    v = await start_session(request, response, user)
    return {**me(v), "claimed_matches": claimed}


def _keys(request: Request, name: str) -> tuple[str, str]:
    return f"user:{passwords.name_key(name)[:100]}", f"addr:{client_address(request)}"


@router.post("/signin", responses=errors(400, 401, 403, 429))
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in. After too many refused sign-ins for this name or from this address
    (``login_failures_per_account`` / ``_per_address`` within ``login_window_seconds``)
    every attempt is refused unchecked until the window has passed (429)."""
    check_origin(request)
    settings = request.app.state.settings
    accounts = accounts_of(request)
    user_key, addr_key = _keys(request, body.name)
    window = timedelta(seconds=settings.login_window_seconds)
    since = datetime.now(UTC) - window
    if (await accounts.failures(user_key, since) >= settings.login_failures_per_account
            or await accounts.failures(addr_key, since) >= settings.login_failures_per_address):
        raise HTTPException(429, "too many failed sign-ins: wait a while and try again",
                            headers={"Retry-After": str(int(window.total_seconds()))})
    user = await accounts.user_by_key(passwords.name_key(body.name.strip()))
    stored = user.password_hash if user is not None else passwords.dummy_hash()
    ok = await run_in_threadpool(passwords.verify_password, stored, body.password)
    if user is None or not ok:
        await accounts.add_failures([user_key, addr_key], since)
        raise HTTPException(401, "wrong user name or password")
    await accounts.clear_failures(user_key)
    return me(await start_session(request, response, user))


@router.post("/signout", status_code=204, responses=errors(*SIGNED_IN))
async def sign_out(request: Request, response: Response,
                   v: Viewer = Depends(acting)) -> None:
    await accounts_of(request).end_session(v.token_hash)
    end_cookie(request, response)


@router.post("/password", status_code=204, responses=errors(400, *SIGNED_IN))
async def change_password(body: NewPassword, request: Request,
                          v: Viewer = Depends(acting)) -> None:
    """A new password (the old one proves it is you); other sessions end."""
    accounts = accounts_of(request)
    user = await accounts.user(v.id)
    assert user is not None
    if not await run_in_threadpool(passwords.verify_password, user.password_hash, body.old):
        raise HTTPException(401, "the old password is wrong")
    try:
        passwords.check_password(body.new, user.name)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    hashed = await run_in_threadpool(passwords.hash_password, body.new)
    await accounts.set_password(v.id, hashed, keep=v.token_hash)


@router.post("/privacy", responses=errors(400, *SIGNED_IN))
async def privacy(body: Privacy, request: Request,
                  v: Viewer = Depends(acting)) -> dict[str, Any]:
    """A private profile is shown to its owner only (and off the leaderboards)."""
    await accounts_of(request).set_private(v.id, body.private)
    return {"private": body.private}


@router.post("/claim", responses=errors(400, 409, *SIGNED_IN))
async def claim(body: Claims, request: Request, v: Viewer = Depends(acting)) -> dict[str, Any]:
    """Make guest seats (proved by their tokens) this account's."""
    return {"claimed_matches": await claim_seats(request, v.id, body.claim)}


@router.post("/delete", status_code=204, responses=errors(400, *SIGNED_IN))
async def delete_account(body: Confirm, request: Request, response: Response,
                         v: Viewer = Depends(acting)) -> None:
    """Delete the account (the password confirms it). Its matches stay, anonymised."""
    accounts = accounts_of(request)
    user = await accounts.user(v.id)
    assert user is not None
    if not await run_in_threadpool(passwords.verify_password, user.password_hash,
                                   body.password):
        raise HTTPException(401, "the password is wrong")
    await accounts.delete_user(v.id)
    master_of(request).forget_account(v.id, DELETED_NAME)
    end_cookie(request, response)
