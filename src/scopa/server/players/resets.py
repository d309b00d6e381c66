"""One-time password-reset links: the way back for a player who forgot the password.

The operator makes one (``scopa admin reset-password NAME``); later an e-mail may too.
Only a hash of the link's token is stored (a copy of the database opens no account); a
link works once, until it expires, and a newer one for the same account replaces it.
Using it sets the new password and ends every session of the account, in one
transaction whose guarded DELETE lets only one use of a link through. A password link
stops working once used, and when the password or the account's address changes (it may
have been mailed to the old address): ``forget_password_links``.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..store.account_models import ResetRow, SessionRow, UserRow
from ..store.base import aware
from ..store.database import Store
from ..store.models import utcnow

#: how long a reset link works unless the operator says otherwise
RESET_HOURS = 24.0
#: what a link is for: a new password, or proving an e-mail address
PASSWORD, EMAIL = "password", "email"
#: what every refused link is told (unknown, used, expired, replaced: all the same)
INVALID = "this reset link is not valid: it was used, replaced or has expired"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()




async def forget_password_links(s: AsyncSession, user_id: int) -> None:
    """Within ``s``: every outstanding password link of the account stops working."""
    await s.execute(delete(ResetRow).where(ResetRow.user_id == user_id,
                                           ResetRow.purpose == PASSWORD))


class Resets:
    """The reset links on the server's one store."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    async def issue(self, user_id: int, hours: float = RESET_HOURS,
                    now: datetime | None = None, purpose: str = PASSWORD,
                    email: str | None = None) -> str:
        """A new link's token for the account (earlier links for the same purpose stop
        working); an ``EMAIL`` link proves ``email``."""
        now = now or utcnow()
        token = secrets.token_urlsafe(32)
        async with self.session.begin() as s:
            await s.execute(delete(ResetRow).where(ResetRow.user_id == user_id,
                                                   ResetRow.purpose == purpose))
            s.add(ResetRow(token_hash=token_hash(token), user_id=user_id, created_at=now,
                           expires_at=now + timedelta(hours=hours), purpose=purpose,
                           email=email))
        return token

    async def user_of(self, token: str, now: datetime | None = None,
                      purpose: str = PASSWORD) -> UserRow | None:
        """The account a link is for, if it still works."""
        now = now or utcnow()
        async with self.session() as s:
            row = await s.get(ResetRow, token_hash(token))
            if row is None or row.purpose != purpose or aware(row.expires_at) <= now:
                return None
            return await s.get(UserRow, row.user_id)

    async def redeem(self, token: str, password_hash: str,
                     now: datetime | None = None) -> bool:
        """Use the link: the new password, every session ended, the link gone; False
        (nothing changed) if it does not work."""
        now = now or utcnow()
        async with self.session.begin() as s:
            row = (await s.scalars(select(ResetRow).where(
                ResetRow.token_hash == token_hash(token)))).first()
            if row is None or row.purpose != PASSWORD or aware(row.expires_at) <= now:
                return False
            user_id = row.user_id
            done = await s.execute(delete(ResetRow).where(
                ResetRow.token_hash == token_hash(token)))
            if not getattr(done, "rowcount", 1):  # used meanwhile by another request
                return False
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(password_hash=password_hash))
            await s.execute(delete(SessionRow).where(SessionRow.user_id == user_id))
            await forget_password_links(s, user_id)
        return True

    async def confirm_email(self, token: str, now: datetime | None = None) -> bool:
        """Use an address link: the address it was sent to becomes the account's checked
        address (if the account still names it); False (nothing changed) otherwise."""
        now = now or utcnow()
        async with self.session.begin() as s:
            row = (await s.scalars(select(ResetRow).where(
                ResetRow.token_hash == token_hash(token)))).first()
            if row is None or row.purpose != EMAIL or aware(row.expires_at) <= now:
                return False
            done = await s.execute(delete(ResetRow).where(
                ResetRow.token_hash == token_hash(token)))
            if not getattr(done, "rowcount", 1):
                return False
            changed = await s.execute(
                update(UserRow).where(UserRow.id == row.user_id, UserRow.email == row.email)
                .values(email_verified=True))
            return bool(getattr(changed, "rowcount", 1))
