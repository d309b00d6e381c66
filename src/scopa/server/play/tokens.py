"""Who may sit and who may watch: seat tokens (kept as keyed hashes, compared in constant
time) and private tables' invite codes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from .table import Table


def new_id(n: int = 10) -> str:
    """A short random id for a table, a match or a worker (URL-safe, no punctuation)."""
    return secrets.token_urlsafe(n)[:n].replace("-", "x").replace("_", "y")


def new_token() -> str:
    """A seat's token: given once to the seat's player, stored only as its hash."""
    return secrets.token_urlsafe(24)


class Tokens:
    def __init__(self, secret: str) -> None:
        self.secret = secret.encode()

    def hash(self, token: str) -> str:
        return hmac.new(self.secret, token.encode(), hashlib.sha256).hexdigest()

    def authenticate(self, table: Table, token: object) -> int | None:
        """The seat that ``token`` opens at ``table``, or None."""
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            return None
        h = self.hash(token)
        found = None
        for s in table.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.seat
        return found

    @staticmethod
    def may_watch(table: Table, invite: object) -> bool:
        """Anyone may watch a public table; a private one only with its invite code; a table
        of a duplicate round nobody (its play would show the others the round's cards)."""
        if table.shared_deals:
            return False
        if table.public:
            return True
        return isinstance(invite, str) and hmac.compare_digest(
            invite.encode(), table.invite.encode())
