"""Deterministic shuffles from a seed, so any deal can be replayed and verified.

The algorithm is documented in ``docs/formats.md`` so that anyone can check a deal without
this package: Fisher-Yates over the cards 0..39, with each index drawn by rejection sampling
from a SHA-256 byte stream of the seed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator

from .cards import NUM_CARDS


def new_seed() -> str:
    """A fresh seed from the operating system's cryptographic source."""
    return secrets.token_hex(16)


def _words(seed: str, attempt: int) -> Iterator[int]:
    """32-bit big-endian words from SHA-256("scopa/<seed>/<attempt>/<block>"), block 0, 1, ..."""
    block = 0
    while True:
        digest = hashlib.sha256(f"scopa/{seed}/{attempt}/{block}".encode()).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(digest[k : k + 4], "big")
        block += 1


def deck_from_seed(seed: str | int, attempt: int = 0) -> list[int]:
    """The deck (deal order, first card dealt first) for a seed and redeal attempt."""
    words = _words(str(seed), attempt)
    deck = list(range(NUM_CARDS))
    for i in range(NUM_CARDS - 1, 0, -1):
        bound = i + 1
        limit = (1 << 32) // bound * bound
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def derive_seed(*parts: object) -> int:
    """A 63-bit integer seed from any parts (a match seed, a seat, a purpose), stable across
    runs and processes: the arena and the terminal seed their bots with it."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def child_seed(parent: str, name: str) -> str:
    """A seed named ``name`` under a secret ``parent`` seed: HMAC-SHA256 keyed by the parent
    (UTF-8) over the name (UTF-8), as 32 hex digits. Revealing one child tells nothing of
    its siblings nor of the parent (a plain ``parent + ":" + name`` would give the parent
    away with its first child, and every later child with it)."""
    return hmac.new(parent.encode(), name.encode(), hashlib.sha256).hexdigest()[:32]


def commitment(seed: str) -> str:
    """The public hash commitment of a hand's seed, revealed after the hand."""
    return hashlib.sha256(f"scopa-commit/{seed}".encode()).hexdigest()
