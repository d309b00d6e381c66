"""Names that look alike: the Unicode TR39 *skeleton* of a user name, so that "аdmin"
(Cyrillic а), "Gіulia" (Cyrillic і) or a copy of another player's name with one letter
swapped for its twin from another script are seen as the same name.

The confusables data is Unicode's own ``confusables.txt``, as shipped by the maintained
``confusable_homoglyphs`` package (not a hand-made table). That package stores each line
``source -> prototype`` in both directions; a character's prototype is recovered as
TR39 defines it: a source maps to its one prototype, a prototype (several sources, or a
target of more than one character such as ``rn`` for ``m``) to itself. Where a prototype
has a single source the two cannot be told apart from the data, and the smaller code
point stands for both: the skeleton is only ever compared, so any one representative
per class gives the same answers."""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs.confusables import confusables_data


@functools.cache
def prototype(ch: str) -> str:
    """The TR39 prototype of one character (itself when it has no confusable)."""
    entries = confusables_data.get(ch)
    if not entries or len(entries) > 1:
        return ch
    other: str = entries[0]["c"]
    if len(other) > 1 or len(confusables_data.get(other) or ()) > 1:
        return other  # ch is a source: its prototype is the other end
    return min(ch, other)  # a class of two: one representative for both


def skeleton(text: str) -> str:
    """TR39's skeleton: decompose (NFD), map each character to its prototype, decompose
    again. Two strings are confusable when their skeletons are equal."""
    mapped = "".join(prototype(ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_skeleton(name: str) -> str:
    """What user names are compared by, without regard to case or look: width and
    compatibility forms folded (NFKC); every non-ASCII character replaced by its prototype
    while its case is still there (a Cyrillic capital В becomes B, which lower case would
    hide); then case folding and the skeleton, repeated until nothing changes (``0`` maps
    to ``O``, which folds to ``o``). ASCII letters keep their case until folded, so
    "GIULIA" is "giulia" (the skeleton alone would make its I an l)."""
    text = "".join(ch if ch.isascii() else prototype(ch)
                   for ch in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name)))
    for _ in range(4):
        folded = skeleton(text.casefold())
        if folded == text:
            break
        text = folded
    return text
