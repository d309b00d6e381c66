"""The account API: sign up, sign in and out, change the password, make the profile
private, claim a guest seat, delete the account. Passwords are checked against
``passwords.PASSWORD_POLICY``; refused sign-ins slow down their address (``throttle.py``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..common.errors import SIGNED_IN, errors
from ..common.security import client_address
from ..store.account_models import UserRow
from . import mailer, passwords
from .account_store import DELETED_NAME
from .answers import Account, Claimed, Policy, PrivacyState, ResetLink
from .hashgate import gates_of, hashing
from .live import live_tables
from .moderation import suspended
from .resets import INVALID, Resets
from .sessions import Viewer, accounts_of, acting, check_origin, end_cookie, start_session, viewer
from .throttle import ConfirmThrottle, SignInThrottle, signup_wait

router = APIRouter(prefix="/api/account", tags=["accounts"])
#: a taken name and one that looks like a taken one get the same answer
TAKEN = "this user name is taken, or looks too much like one that is"


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class SeatClaim(BaseModel):
    """A guest's seat: the table and the seat token the guest was given."""

    model_config = ConfigDict(extra="forbid")
    table_id: str = Field(max_length=32)
    token: str = Field(max_length=200)


class SignUp(BaseModel):
    """A new account. The document states the user name's form and the password's
    length (``passwords.USER_NAME_RULE``, ``PASSWORD_POLICY``), and the server checks them
    itself (``check_user_name``, ``check_password``) so that a person is told the rule in
    words (400), not a pattern; the rest (reserved and lookalike names, the password's
    variety) only the server can tell."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, json_schema_extra={
        "minLength": passwords.USER_NAME_MIN, "maxLength": passwords.USER_NAME_MAX,
        "pattern": passwords.USER_NAME_PATTERN})
    password: str = Field(max_length=1000, json_schema_extra={
        "minLength": passwords.PASSWORD_MIN, "maxLength": passwords.PASSWORD_MAX})
    #: seats this browser played as a guest, to become the new account's
    claim: list[SeatClaim] = Field(default_factory=list, max_length=50)


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class Confirm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1000)


class Reset(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class Privacy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    private: bool


class Claims(BaseModel):
    model_config = ConfigDict(extra="forbid")
    claim: list[SeatClaim] = Field(min_length=1, max_length=50)


def me(v: Viewer) -> Account:
    return {"user": {"id": v.id, "name": v.name, "private": v.private}, "csrf": v.csrf}


@router.get("/policy")
def policy(request: Request) -> Policy:
    """The rules of user names and passwords, as the sign-up form states them; ``email``:
    the site sends e-mail (an address on the account, "forgot your password?")."""
    return {"user_name": passwords.USER_NAME_RULE, "password": passwords.PASSWORD_POLICY,
            "user_name_length": [passwords.USER_NAME_MIN, passwords.USER_NAME_MAX],
            "password_length": [passwords.PASSWORD_MIN, passwords.PASSWORD_MAX],
            "email": mailer.configured(request.app.state.settings)}


@router.get("")
async def account(request: Request) -> Account:
    """Who is signed in here (``user`` null for a guest), with the CSRF token the page
    sends back on every change."""
    v = await viewer(request)
    return {"user": None, "csrf": None} if v is None else me(v)


async def claim_seats(request: Request, user_id: int, claims: list[SeatClaim]) -> int:
    """Make each guest seat (proved by its token) the account's: the live seat and the
    finished matches played from it. Every claim is checked before any is made."""
    tables = live_tables(request)
    accounts = accounts_of(request)
    proved: list[tuple[str, int]] = []
    for c in claims:
        h = tables.token_hash(c.token)
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
        tables.seat_account(table_id, seat, user_id)
    return matches


@router.post("/signup", status_code=201, responses=errors(400, 403, 409, 429, 503))
async def sign_up(body: SignUp, request: Request, response: Response) -> Account:
    """Make an account and sign in; with ``claim``, the guest seats it played become its."""
    check_origin(request)
    try:
        name = passwords.check_user_name(body.name)
        passwords.check_password(body.password, name)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    accounts = accounts_of(request)
    # counted before the name is looked up: trying names here to learn which exist is
    # throttled too
    wait = await signup_wait(accounts, request.app.state.settings, client_address(request))
    if wait:
        raise HTTPException(429, "too many sign-ups from this address: try again later",
                            headers={"Retry-After": str(wait)})
    key, look = passwords.name_key(name), passwords.skeleton_key(name)
    if await accounts.name_taken(key, look):
        raise HTTPException(409, TAKEN)
    if body.claim:  # the seats are proved before the account exists (else nothing is made)
        tables = live_tables(request)
        for c in body.claim:
            h = tables.token_hash(c.token)
            seats = await accounts.seats_of_table(c.table_id)
            if not any(s.token_hash == h and s.user_id is None for s in seats):
                raise HTTPException(403, f"no guest seat at table {c.table_id!r} opens "
                                         "with this token")
    hashed = await hashing(gates_of(request).new, passwords.hash_password, body.password)
    user = await accounts.create_user(name, key, hashed, look)
    if user is None:
        raise HTTPException(409, TAKEN)
    claimed = await claim_seats(request, user.id, body.claim) if body.claim else 0
    v = await signed_in(request, response, user)
    return {**me(v), "claimed_matches": claimed}


async def signed_in(request: Request, response: Response, user: UserRow) -> Viewer:
    """Start the session, noting the address it came from (the rating policy)."""
    settings = request.app.state.settings
    now = datetime.now(UTC)
    await accounts_of(request).note_address(
        user.id, client_address(request), now,
        now - timedelta(days=settings.address_keep_days))
    return await start_session(request, response, user)


@router.post("/signin", responses=errors(400, 401, 403, 429, 503))
async def sign_in(body: Credentials, request: Request, response: Response) -> Account:
    """Sign in. Refused sign-ins slow down their address (at this name, and at any
    names: ``throttle.py``), answered 429 with ``Retry-After`` unchecked while it waits;
    the owner signing in from another address is never slowed."""
    check_origin(request)
    throttle = SignInThrottle(accounts_of(request), request.app.state.settings)
    address = client_address(request)
    wait = await throttle.wait(address, body.name)
    if wait:
        raise HTTPException(429, "too many failed sign-ins: wait a while and try again",
                            headers={"Retry-After": str(wait)})
    accounts = accounts_of(request)
    user = await accounts.user_by_key(passwords.name_key(body.name.strip()))
    # a bot account has no password (it plays through its API tokens): checked against
    # the dummy like an unknown name, and refused
    stored = (user.password_hash if user is not None and not user.is_bot
              else passwords.dummy_hash())
    ok = await hashing(gates_of(request).check, passwords.verify_password, stored,
                       body.password)
    if user is None or user.is_bot or not ok:
        await throttle.failed(address, body.name)
        raise HTTPException(401, "wrong user name or password")
    await throttle.succeeded(address, body.name)
    if suspended(user):
        raise HTTPException(403, "the operator suspended this account until "
                                 f"{user.suspended_until:%Y-%m-%d %H:%M} UTC")
    return me(await signed_in(request, response, user))


@router.post("/signout", status_code=204, responses=errors(*SIGNED_IN))
async def sign_out(request: Request, response: Response,
                   v: Viewer = Depends(acting)) -> None:
    await accounts_of(request).end_session(v.token_hash)
    end_cookie(request, response)


async def confirm_password(request: Request, user: UserRow, password: str,
                           wrong: str) -> None:
    """The password a signed-in player typed to confirm, checked under the throttle of
    wrong passwords (per account and per client address: 429 while it waits)."""
    throttle = ConfirmThrottle(accounts_of(request), request.app.state.settings)
    address = client_address(request)
    wait = await throttle.wait(address, user.id)
    if wait:
        raise HTTPException(429, "too many wrong passwords: wait a while and try again",
                            headers={"Retry-After": str(wait)})
    if not await hashing(gates_of(request).check, passwords.verify_password,
                         user.password_hash, password):
        await throttle.failed(address, user.id)
        raise HTTPException(401, wrong)
    await throttle.succeeded(user.id)


@router.post("/password", status_code=204, responses=errors(400, 429, *SIGNED_IN))
async def change_password(body: NewPassword, request: Request,
                          v: Viewer = Depends(acting)) -> None:
    """A new password (the old one proves it is you); other sessions end."""
    accounts = accounts_of(request)
    user = await accounts.user(v.id)
    assert user is not None
    await confirm_password(request, user, body.old, "the old password is wrong")
    try:
        passwords.check_password(body.new, user.name)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    hashed = await hashing(gates_of(request).new, passwords.hash_password, body.new)
    await accounts.set_password(v.id, hashed, keep=v.token_hash)


@router.get("/reset/{token}", responses=errors(404))
async def reset_link(request: Request,
                     token: str = Path(max_length=200)) -> ResetLink:
    """Whose password a reset link sets (the page says so), if the link still works."""
    user = await Resets(request.app.state.store).user_of(token)
    if user is None:
        raise HTTPException(404, INVALID)
    return {"name": user.name}


@router.post("/reset", status_code=204, responses=errors(400, 403, 404, 503))
async def reset_password(body: Reset, request: Request) -> None:
    """Set a new password with a one-time link (``scopa admin reset-password``): the
    link is used up and every session of the account ends; sign in afterwards."""
    check_origin(request)
    resets = Resets(request.app.state.store)
    user = await resets.user_of(body.token)
    if user is None:
        raise HTTPException(404, INVALID)
    try:
        passwords.check_password(body.password, user.name)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    hashed = await hashing(gates_of(request).new, passwords.hash_password, body.password)
    if not await resets.redeem(body.token, hashed):
        raise HTTPException(404, INVALID)


@router.post("/privacy", responses=errors(400, *SIGNED_IN))
async def privacy(body: Privacy, request: Request,
                  v: Viewer = Depends(acting)) -> PrivacyState:
    """A private profile is shown to its owner only (and off the leaderboards)."""
    await accounts_of(request).set_private(v.id, body.private)
    return {"private": body.private}


@router.post("/claim", responses=errors(400, 409, *SIGNED_IN))
async def claim(body: Claims, request: Request, v: Viewer = Depends(acting)) -> Claimed:
    """Make guest seats (proved by their tokens) this account's."""
    return {"claimed_matches": await claim_seats(request, v.id, body.claim)}


@router.post("/delete", status_code=204, responses=errors(400, 429, *SIGNED_IN))
async def delete_account(body: Confirm, request: Request, response: Response,
                         v: Viewer = Depends(acting)) -> None:
    """Delete the account (the password confirms it). Its matches stay, anonymised."""
    accounts = accounts_of(request)
    user = await accounts.user(v.id)
    assert user is not None
    await confirm_password(request, user, body.password, "the password is wrong")
    await accounts.delete_user(v.id)
    live_tables(request).forget_account(v.id, DELETED_NAME)
    end_cookie(request, response)
