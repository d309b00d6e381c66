"""One-time password-reset links: the way back for a player who forgot the password.

The operator makes one (``scopa admin reset-password NAME``); later an e-mail may too.
Only a hash of the link's token is stored (a copy of the database opens no account); a
link works once, until it expires, and a newer one for the same account replaces it.
Using it sets the new password and ends every session of the account, in one
transaction whose guarded DELETE lets only one use of a link through.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update

from .account_models import ResetRow, SessionRow, UserRow
from .models import utcnow
from .store import Store

#: how long a reset link works unless the operator says otherwise
RESET_HOURS = 24.0
#: what every refused link is told (unknown, used, expired, replaced: all the same)
INVALID = "this reset link is not valid: it was used, replaced or has expired"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def aware(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives datetimes back without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Resets:
    """The reset links on the server's one store."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    async def issue(self, user_id: int, hours: float = RESET_HOURS,
                    now: datetime | None = None) -> str:
        """A new link's token for the account (earlier links stop working)."""
        now = now or utcnow()
        token = secrets.token_urlsafe(32)
        async with self.session.begin() as s:
            await s.execute(delete(ResetRow).where(ResetRow.user_id == user_id))
            s.add(ResetRow(token_hash=token_hash(token), user_id=user_id, created_at=now,
                           expires_at=now + timedelta(hours=hours)))
        return token

    async def user_of(self, token: str, now: datetime | None = None) -> UserRow | None:
        """The account a link resets, if it still works."""
        now = now or utcnow()
        async with self.session() as s:
            row = await s.get(ResetRow, token_hash(token))
            if row is None or aware(row.expires_at) <= now:
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
            if row is None or aware(row.expires_at) <= now:
                return False
            user_id = row.user_id
            done = await s.execute(delete(ResetRow).where(
                ResetRow.token_hash == token_hash(token)))
            if not getattr(done, "rowcount", 1):  # used meanwhile by another request
                return False
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(password_hash=password_hash))
            await s.execute(delete(SessionRow).where(SessionRow.user_id == user_id))
        return True
