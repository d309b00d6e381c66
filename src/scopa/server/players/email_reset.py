"""An optional, checked e-mail address on the account, and the password reset by e-mail
it allows (where the operator configured SMTP: ``mailer``).

Setting an address sends a one-time link to it; only once that link is opened is the
address the account's checked address. "Forgot your password?" takes a user name and,
when that account has a checked address, mails it a reset link (``resets``, the same one-
time links as ``scopa admin reset-password``). Its answer is the same whether or not the
account exists or has an address, so it tells nobody which names or addresses exist; an
account gets at most one such mail every few minutes.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from email_validator import EmailNotValidError, validate_email
from fastapi import APIRouter, BackgroundTasks, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import update

from ..common.errors import SIGNED_IN, errors
from ..common.security import client_address
from ..common.settings import Settings
from ..store.access import store_of
from ..store.account_models import UserRow
from ..store.models import utcnow
from . import mailer, passwords
from .limits import Limit, take
from .resets import EMAIL, INVALID, PASSWORD, Resets
from .sessions import Viewer, accounts_of, acting, check_origin, viewer

log = logging.getLogger("scopa.server")
router = APIRouter(prefix="/api/account", tags=["accounts"])

#: characters of a local part that route mail on to another address (``a%b@relay``,
#: ``host!user``): refused, as no ordinary address needs them
ROUTING = set("%!")
#: the least time between two mails of the same kind to one account
MAIL_GAP = timedelta(minutes=5)
#: the one answer of "forgot your password?"
SENT = ("if this account has a checked e-mail address, a link to set a new password is on "
        "its way to it")


class Address(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: empty: remove the address
    email: str = Field(max_length=254)


class Token(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=200)


class Forgot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)


def site(request: Request) -> str:
    """Where the players open the site (``Settings.site``: configured, never the
    request's Host, which whoever sends the request chooses)."""
    return str(request.app.state.settings.site())


def ordinary_address(text: str) -> str:
    """The address, normalised, if it is an ordinary one (``email-validator``'s syntax
    check, no DNS: a name at a public domain; no IP literal, no quoted local part, no
    special-use domain, no routing characters), else ValueError saying why."""
    try:
        checked = validate_email(text, check_deliverability=False)
    except EmailNotValidError as e:
        raise ValueError(f"this is not an e-mail address we can use: {e}") from None
    if ROUTING & set(checked.local_part):
        raise ValueError("this is not an e-mail address we can use: '%' and '!' are "
                         "not allowed before the @-sign")
    return str(checked.normalized)


async def mail_allowed(request: Request, to: str, account: int | None) -> bool:
    """Count one mail to ``to`` against the limits (per account, per recipient, per
    client address: ``mails_per_*``); False when one of them is used up."""
    settings = request.app.state.settings
    window = float(settings.mail_window_seconds)
    limits = [Limit(f"mail-to:{to.lower()}", settings.mails_per_recipient, window),
              Limit(f"mail-from:{client_address(request)}", settings.mails_per_address,
                    window)]
    if account is not None:
        limits.append(Limit(f"mail-account:{account}", settings.mails_per_account, window))
    return await take(store_of(request), limits) == 0


TOO_MANY = "too much mail asked for from here, for this account or to this address: " \
    "try again later"


def mail_on(request: Request) -> None:
    if not mailer.configured(request.app.state.settings):
        raise HTTPException(404, "this server sends no e-mail")


@router.get("/email", responses=errors(401))
async def email_state(request: Request) -> dict[str, Any]:
    """The account's address and whether it is checked; ``available``: the site mails."""
    v = await viewer(request)
    if v is None:
        raise HTTPException(401, "sign in first")
    user = await accounts_of(request).user(v.id)
    assert user is not None
    return {"email": user.email, "verified": bool(user.email_verified),
            "available": mailer.configured(request.app.state.settings)}


@router.post("/email", status_code=202, responses=errors(400, 404, 429, 502, *SIGNED_IN))
async def set_email(body: Address, request: Request,
                    v: Viewer = Depends(acting)) -> dict[str, Any]:
    """Set (or, empty, remove) the account's address; a new one gets a link to check it
    and is not used before that link is opened."""
    mail_on(request)
    address = body.email.strip()
    if address:
        try:
            address = ordinary_address(address)
        except ValueError as e:
            raise HTTPException(400, str(e)) from None
        if not await mail_allowed(request, address, v.id):
            raise HTTPException(429, TOO_MANY, headers={
                "Retry-After": str(int(request.app.state.settings.mail_window_seconds))})
    store = store_of(request)
    async with store.session.begin() as s:
        await s.execute(update(UserRow).where(UserRow.id == v.id)
                        .values(email=address or None, email_verified=False))
    if not address:
        return {"email": None, "verified": False}
    token = await Resets(store).issue(v.id, purpose=EMAIL, email=address)
    try:
        await mailer.send_later(
            request.app.state.settings, address, "Scopa: check your e-mail address",
            f"Hello {v.name},\n\nopen this link to use this address for your Scopa account "
            f"(it works once, for a day):\n\n{site(request)}/verify-email/{token}\n\n"
            "If you did not ask for this, ignore this message.\n")
    except OSError as e:
        log.warning("mailing an address check failed: %s", e)
        raise HTTPException(502, "the mail server did not take the message: try again "
                                 "later") from None
    return {"email": address, "verified": False}


@router.post("/email/verify", status_code=204, responses=errors(400, 403, 404))
async def verify_email(body: Token, request: Request) -> None:
    """Open an address link: the address is the account's checked address from now on."""
    check_origin(request)
    if not await Resets(store_of(request)).confirm_email(body.token):
        raise HTTPException(404, INVALID)


@router.post("/forgot", status_code=202, responses=errors(400, 403, 404))
async def forgot(body: Forgot, request: Request,
                 background: BackgroundTasks) -> dict[str, str]:
    """Mail a password-reset link to the account's checked address, if it has one; the
    same answer either way, as soon (the mail goes after the answer, so how long the
    mail server takes tells nothing either)."""
    check_origin(request)
    mail_on(request)
    user = await accounts_of(request).user_by_key(passwords.name_key(body.name.strip()))
    if user is None or not user.email or not user.email_verified:
        return {"detail": SENT}
    resets = Resets(store_of(request))
    last = await resets.last_issued(user.id, PASSWORD)
    if last is not None and utcnow() - last < MAIL_GAP:
        return {"detail": SENT}
    if not await mail_allowed(request, user.email, user.id):
        return {"detail": SENT}
    token = await resets.issue(user.id)
    background.add_task(
        mail_quietly, request.app.state.settings, user.email, "Scopa: set a new password",
        f"Hello {user.name},\n\nopen this link to set a new password for your Scopa "
        f"account (it works once, for a day):\n\n{site(request)}/reset/{token}\n\n"
        "If you did not ask for this, ignore this message: your password stays.\n")
    return {"detail": SENT}


async def mail_quietly(settings: Settings, to: str, subject: str, body: str) -> None:
    """Send after the answer went out; a refusal is the operator's to look into (logged):
    the player was answered the same either way."""
    try:
        await mailer.send_later(settings, to, subject, body)
    except OSError as e:
        log.warning("mailing a password reset failed: %s", e)
