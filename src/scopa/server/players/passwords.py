"""User names and passwords: the stated rules, and hashing with Argon2id (argon2-cffi,
never hand-written). Hashing is slow on purpose; callers run it off the event loop."""

from __future__ import annotations

import functools
import re
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..common.lookalike import name_skeleton
from .names import BOT_NAMES

USER_NAME_MIN, USER_NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 10, 128
#: the policy as people read it (the sign-up form and the API docs show it)
PASSWORD_POLICY = (
    f"{PASSWORD_MIN} to {PASSWORD_MAX} characters, at least 5 different ones, not containing "
    "the user name, and not one of the most common passwords"
)
USER_NAME_RULE = (
    f"{USER_NAME_MIN} to {USER_NAME_MAX} letters, digits, '_', '-' or '.', starting with a "
    "letter; not a bot's name, a reserved word, or another player's name, nor one that "
    "looks like them"
)
#: a user name's form (the API's schema states it too)
USER_NAME_PATTERN = rf"^[^\W\d_][\w.-]{{{USER_NAME_MIN - 1},{USER_NAME_MAX - 1}}}$"
_NAME = re.compile(USER_NAME_PATTERN)
#: names nobody may take, nor any name that looks like one (``lookalike.name_skeleton``)
RESERVED = (*BOT_NAMES, "admin", "administrator", "operator", "root", "system", "scopa",
            "guest", "bot", "moderator", "support", "deleted")
_RESERVED_LOOKS = {name_skeleton(n): n for n in RESERVED}
#: the commonest passwords of at least ten characters (breach lists' top entries)
COMMON = {
    "1234567890", "0123456789", "qwertyuiop", "password12", "password123", "password1234",
    "1q2w3e4r5t", "qwerty1234", "qwerty12345", "iloveyou12", "abcdefghij", "1111111111",
    "0000000000", "1234512345", "9876543210", "passw0rd12", "asdfghjkl1", "aaaaaaaaaa",
    "letmein123", "welcome123", "football12", "princess12", "sunshine12", "qazwsxedc1",
    "zaq12wsx34", "1qaz2wsx3e", "changeme12", "trustno1234", "superman12", "dragon1234",
    "scopascopa", "settebello", "primiera12",
}

_hasher = PasswordHasher()  # Argon2id with the library's current recommended parameters


def skeleton_key(name: str) -> str:
    """The look of a name as stored (``users.name_skeleton``): no two accounts share it."""
    return name_skeleton(name)[:80]


def name_key(name: str) -> str:
    """The form names are compared in (unique without regard to case or width)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_user_name(raw: object) -> str:
    """A valid user name, or ValueError saying the rule."""
    if not isinstance(raw, str):
        raise ValueError("the user name must be text")
    name = unicodedata.normalize("NFC", raw.strip())
    if not _NAME.fullmatch(name):
        raise ValueError(f"a user name has {USER_NAME_RULE}")
    like = _RESERVED_LOOKS.get(name_skeleton(name))
    if like is not None:
        raise ValueError(f"the user name {name!r} is reserved (it is, or looks like, {like!r})")
    return name


def check_password(password: object, user_name: str) -> str:
    """``password`` if it meets the policy, else ValueError naming what it misses."""
    if not isinstance(password, str):
        raise ValueError("the password must be text")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValueError(f"the password must have {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    if len(set(password)) < 5:
        raise ValueError("the password needs at least 5 different characters")
    if name_key(user_name) in name_key(password):
        raise ValueError("the password must not contain the user name")
    if password.casefold() in COMMON:
        raise ValueError("this password is one of the most common: choose another")
    return password


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Does ``password`` match the stored hash? (Never raises on a wrong one.)"""
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


@functools.cache
def dummy_hash() -> str:
    """Verified against when the account does not exist, so a wrong name costs the same
    time as a wrong password (no telling which names exist by timing)."""
    return _hasher.hash("not a password of anyone")
