"""Cards as small integers and card sets as 40-bit masks.

A card is ``suit * 10 + (rank - 1)``: suits coins (d), cups (c), swords (s), clubs (b),
ranks 1 (ace) to 10 (king). Integers and bitmasks keep the engine fast enough for search
bots; the text notation ``<rank><suit>`` (``7d``, ``10b``) is what people and files see.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "dcsb"
SUIT_NAMES = ("coins", "cups", "swords", "clubs")
RANK_NAMES = {1: "ace", 8: "knave", 9: "knight", 10: "king"}
NUM_CARDS = 40
ALL_CARDS = (1 << NUM_CARDS) - 1

#: rank (1..10) of each card
RANK: tuple[int, ...] = tuple(c % 10 + 1 for c in range(NUM_CARDS))
#: suit index (0..3) of each card
SUIT: tuple[int, ...] = tuple(c // 10 for c in range(NUM_CARDS))
#: single-bit mask of each card
BIT: tuple[int, ...] = tuple(1 << c for c in range(NUM_CARDS))

#: mask of the four cards of each rank (index 0 unused)
RANK_MASK: tuple[int, ...] = (0,) + tuple(
    sum(1 << (s * 10 + r - 1) for s in range(4)) for r in range(1, 11)
)
#: mask of the ten cards of each suit
SUIT_MASK: tuple[int, ...] = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))
COINS = SUIT_MASK[0]

SETTEBELLO = 6  # 7d
RE_BELLO = 9  # 10d

# A table's ranks packed as counts, 3 bits per rank: the key of the capture cache.
RANK_KEY_BITS = 3
#: rank-key increment of each card
RANK_KEY: tuple[int, ...] = tuple(1 << (RANK_KEY_BITS * (RANK[c] - 1)) for c in range(NUM_CARDS))


def card(text: str) -> int:
    """Parse ``7d`` / ``10b`` into a card number; raise ``ValueError`` on anything else.

    Only the forty canonical texts are cards: ASCII ranks ``1``-``10`` and the lower-case
    suits ``d c s b``. Other digits (``٣d``, ``７d``), upper case (``7D``), spaces, signs
    and leading zeros are refused, so every reader of cards agrees on what one is."""
    c = CARD_BY_TEXT.get(text) if isinstance(text, str) else None
    if c is None:
        raise ValueError(
            f"not a card: {text!r} (write rank 1-10 then d, c, s or b, lower case)"[:200]
        )
    return c


def card_text(c: int) -> str:
    """Format a card number as ``<rank><suit>``."""
    return f"{RANK[c]}{SUITS[SUIT[c]]}"


#: the forty card texts, the only spellings ``card`` reads
CARD_BY_TEXT: dict[str, int] = {card_text(c): c for c in range(NUM_CARDS)}


def card_name(c: int) -> str:
    """A card's name in plain English, for people and screen readers."""
    rank = RANK[c]
    return f"{RANK_NAMES.get(rank, str(rank))} of {SUIT_NAMES[SUIT[c]]}"


def cards_of(mask: int) -> list[int]:
    """The cards in a mask, in ascending card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    """Iterate the cards in a mask, in ascending card order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding the given cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_cards(texts: Iterable[str]) -> list[int]:
    """Parse a list of card texts."""
    if isinstance(texts, str):
        raise ValueError(f"expected a list of cards, got the string {texts!r}")
    return [card(t) for t in texts]


def cards_text(mask: int) -> list[str]:
    """The cards of a mask as texts, sorted by suit then rank."""
    return [card_text(c) for c in cards_of(mask)]


#: the rank key of every set of cards of one suit (a 10-bit mask): a suit holds each rank
#: at most once, so a set's key is the sum of its four suits' keys
_SUIT_RANK_KEY: tuple[int, ...] = tuple(
    sum(RANK_KEY[r] for r in range(10) if m >> r & 1) for m in range(1 << 10)
)


def rank_key(mask: int) -> int:
    """The packed rank counts of a set of cards (four table lookups: positions and views
    build one for every state they load)."""
    t = _SUIT_RANK_KEY
    return t[mask & 1023] + t[mask >> 10 & 1023] + t[mask >> 20 & 1023] + t[mask >> 30 & 1023]


def popcount(mask: int) -> int:
    return mask.bit_count()
