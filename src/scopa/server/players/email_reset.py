"""An optional, checked e-mail address on the account, and the password reset by e-mail
it allows (where the operator configured SMTP: ``mailer``).

Setting an address sends a one-time link to it; only once that link is opened is the
address the account's checked address. "Forgot your password?" takes a user name and,
when that account has a checked address, mails it a reset link (``resets``, the same one-
time links as ``scopa admin reset-password``). Its answer is the same whether or not the
account exists or has an address, so it tells nobody which names or addresses exist; an
account gets at most one such mail every few minutes. A mail speaks the language the page
asking for it was in (``lang``, one of ``scopa.messages.LANGUAGES``); its words live in the
message catalogue (``mail.*``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from email_validator import EmailNotValidError, validate_email
from fastapi import APIRouter, BackgroundTasks, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ...messages import LANGUAGES, fill, text
from ..common.errors import SIGNED_IN, errors
from ..common.security import client_address
from ..common.settings import Settings
from ..store.access import store_of
from ..store.database import Store
from . import mailer, passwords
from .account_store import AccountStore
from .answers import EmailState, Sent
from .limits import Limit, claim, release, take
from .resets import EMAIL, INVALID, Resets
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


class Mailed(BaseModel):
    """A request that may send a mail: the language the mail is written in."""

    model_config = ConfigDict(extra="forbid")
    #: the document names the languages (``enum``), so a client knows them; the validator
    #: below keeps the one list, ``LANGUAGES``
    lang: str = Field(default="en", max_length=8,
                      json_schema_extra={"enum": list(LANGUAGES)})

    @field_validator("lang")
    @classmethod
    def known_language(cls, value: str) -> str:
        if value not in LANGUAGES:
            raise ValueError(f"unknown language; one of {', '.join(LANGUAGES)}")
        return value


class Address(Mailed):
    #: empty: remove the address
    email: str = Field(max_length=254)


class Token(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=200)


class Forgot(Mailed):
    name: str = Field(max_length=200)


def mail_words(kind: str, lang: str, name: str, link: str) -> tuple[str, str]:
    """The subject and body of a ``kind`` mail ("check", "reset") in ``lang``."""
    values = {"name": name, "link": link}
    return (fill(text(f"mail.{kind}.subject", lang), values),
            fill(text(f"mail.{kind}.body", lang), values))


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


def mail_limits(settings: Settings, to: str, address: str,
                account: int | None) -> list[Limit]:
    """The limits one mail to ``to`` counts against: per recipient, per client address,
    per account (``mails_per_*`` in ``mail_window_seconds``)."""
    window = float(settings.mail_window_seconds)
    limits = [Limit(f"mail-to:{to.lower()}", settings.mails_per_recipient, window),
              Limit(f"mail-from:{address}", settings.mails_per_address, window)]
    if account is not None:
        limits.append(Limit(f"mail-account:{account}", settings.mails_per_account, window))
    return limits


async def mail_allowed(request: Request, to: str, account: int | None) -> bool:
    """Count one mail to ``to`` against ``mail_limits``; False when one is used up."""
    return await take(store_of(request), mail_limits(
        request.app.state.settings, to, client_address(request), account)) == 0


TOO_MANY = "too much mail asked for from here, for this account or to this address: " \
    "try again later"


def mail_on(request: Request) -> None:
    if not mailer.configured(request.app.state.settings):
        raise HTTPException(404, "this server sends no e-mail")


@router.get("/email", responses=errors(401))
async def email_state(request: Request) -> EmailState:
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
                    v: Viewer = Depends(acting)) -> EmailState:
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
    await accounts_of(request).set_email(v.id, address or None)
    if not address:
        return {"email": None, "verified": False}
    token = await Resets(store).issue(v.id, purpose=EMAIL, email=address)
    try:
        subject, words = mail_words("check", body.lang, v.name,
                                    f"{site(request)}/verify-email/{token}")
        await mailer.send_later(request.app.state.settings, address, subject, words)
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


@router.post("/forgot", status_code=202, responses=errors(400, 403, 404, 429))
async def forgot(body: Forgot, request: Request,
                 background: BackgroundTasks) -> Sent:
    """Mail a password-reset link to the account's checked address, if it has one; the
    same answer either way, after the same work: the request only counts itself (per
    client address and per name: 429 past ``forgot_per_*``, the same for every name) and
    claims the name's one mail per ``MAIL_GAP`` (of many requests at once, one gets it),
    whether or not the name exists; looking the account up, making the link and mailing
    it happen after the answer (``reset_mail``)."""
    check_origin(request)
    mail_on(request)
    settings = request.app.state.settings
    store = store_of(request)
    key = passwords.name_key(body.name.strip())
    address = client_address(request)
    window = float(settings.forgot_window_seconds)
    wait = await take(store, [
        Limit(f"forgot-from:{address}", settings.forgot_per_address, window),
        Limit(f"forgot-name:{key}", settings.forgot_per_name, window)])
    if wait:
        raise HTTPException(429, "too many password resets asked for from here or for "
                                 "this name: try again later",
                            headers={"Retry-After": str(wait)})
    if await claim(store, f"reset-mail:{key}", MAIL_GAP.total_seconds()):
        background.add_task(reset_mail, settings, store, key, address, site(request),
                            body.lang)
    return {"detail": SENT}


async def reset_mail(settings: Settings, store: Store, key: str, address: str,
                     origin: str, lang: str = "en") -> None:
    """After the answer of ``forgot``: the reset link, mailed to the account's checked
    address, if it has one and the mail limits allow it; otherwise the name's claim is
    given back (nothing was sent, so a later ask may mail)."""
    user = await AccountStore(store).user_by_key(key)
    if user is None or not user.email or not user.email_verified:
        await release(store, f"reset-mail:{key}")
        return
    if await take(store, mail_limits(settings, user.email, address, user.id)):
        return
    token = await Resets(store).issue(user.id)
    subject, words = mail_words("reset", lang, user.name, f"{origin}/reset/{token}")
    await mail_quietly(settings, user.email, subject, words)


async def mail_quietly(settings: Settings, to: str, subject: str, body: str) -> None:
    """Send after the answer went out; a refusal is the operator's to look into (logged):
    the player was answered the same either way."""
    try:
        await mailer.send_later(settings, to, subject, body)
    except OSError as e:
        log.warning("mailing a password reset failed: %s", e)
