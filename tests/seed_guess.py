"""What someone who was shown a seed would compute to find the seeds still secret: the
naming the server once used (the shown seed's prefixes with each name joined) and the
HMAC naming (``scopa.shuffle.child_seed``) under the shown seed and each prefix. A test
that none of these is a secret seed is the attack the fairness rule asks for: take what
was shown and compute what was not."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from scopa.shuffle import child_seed
from scopa.tournament import duplicate

#: tables, deals and rounds tried (more than any test event has)
TABLES = range(1, 5)
DEALS = range(8)
ROUNDS = range(1, 6)
NAMES = ([duplicate.deal_name(d, t) for d in DEALS for t in (None, *TABLES)]
         + [f"t{t}:decider:{d}" for t in TABLES for d in DEALS]
         + [f"t{t}:match" for t in TABLES] + [f"round:{n}" for n in ROUNDS])


def guesses(shown: str) -> set[str]:
    """Every seed ``shown`` lets one try."""
    parents = {shown} | {shown[:i] for i, c in enumerate(shown) if c == ":"}
    return parents | {f"{p}:{n}" for p in parents for n in NAMES} | {
        child_seed(p, n) for p in parents for n in NAMES}


def shown_strings(obj: Any) -> set[str]:
    """Every string in a JSON value, and the pieces of each between URL punctuation (a
    seed inside a link, ``?seed=...&``)."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.add(v)
            out.update(p for p in re.split(r"[?&=/#\s\"']", v) if p)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(obj)
    return out


def leaks(shown: Iterable[str], secrets: set[str]) -> set[str]:
    """The secret seeds found in, or computed from, what was shown."""
    found: set[str] = set()
    for s in shown:
        found |= secrets & guesses(s)
        # inside a longer text (a seed too short to be one of ours would match by chance)
        found |= {x for x in secrets if len(x) >= 8 and x in s}
    return found
