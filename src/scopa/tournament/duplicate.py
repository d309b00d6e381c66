"""The deals a table plays, and duplicate scoring against the field.

Every round has one secret seed; its hash (``scopa.shuffle.commitment``) is published when
the round is paired and the seed itself once the round is over, so anyone can check that
the deals were fixed before play (``scopa verify`` checks a deal against its seed). Each
deal's hand seed is an HMAC of the round's seed over the deal's name
(``scopa.shuffle.child_seed``): in duplicate mode the same for every table of the round
(every table holds the same cards), otherwise one per table. A hand seed shown after its
hand (a non-duplicate table's score sheet) therefore gives away neither the round's seed
nor any other deal; in duplicate mode a deal's seed is still secret while another table
plays it, so those tables show hand seeds only once the round is over.

Duplicate scoring compares an entrant with the others who held the same cards: on each
deal, an entrant's margin (its points minus its opponent's) less the mean margin of the
other entrants who held the same side's cards on that deal at the other tables. Summed
over the deals, this "field" score is positive when you did better than the room with
the cards you were given; luck of the cards cancels out. We keep Scopa's own points
rather than convert them as bridge does (matchpoints or IMPs): a deal's margin is a few
points, so a small scale is already there, and matchpoints would forget how much a deal
was won by.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..shuffle import child_seed

#: how a round's hand seeds come from its seed: ``hmac`` (``scopa.shuffle.child_seed``:
#: a revealed hand seed gives away no other) or ``legacy``, the names joined to the round
#: seed (``<round seed>:deal:0``), kept only to read and verify events made before it
SEEDINGS = ("hmac", "legacy")


def _child(round_seed: str, name: str, seeding: str) -> str:
    if seeding == "legacy":
        return f"{round_seed}:{name}"
    if seeding != "hmac":
        raise ValueError(f"unknown seeding {seeding!r}; one of {', '.join(SEEDINGS)}")
    return child_seed(round_seed, name)


def deal_name(deal: int, table: int | None) -> str:
    """The name of a deal (0-based) under its round's seed: ``deal:<n>`` shared by every
    table (``table`` None: duplicate mode), else ``t<table>:deal:<n>``."""
    return f"deal:{deal}" if table is None else f"t{table}:deal:{deal}"


def deal_seed(round_seed: str, deal: int, table: int | None, seeding: str = "hmac") -> str:
    """The hand seed of a deal (0-based) at a table, or shared by every table (``table``
    None: duplicate mode)."""
    return _child(round_seed, deal_name(deal, table), seeding)


def decider_seed(round_seed: str, table: int, deal: int, seeding: str = "hmac") -> str:
    """The hand seed of a knockout decider's deal (0-based) at a table."""
    return _child(round_seed, f"t{table}:decider:{deal}", seeding)


def match_seed(round_seed: str, table: int, seeding: str = "hmac") -> str:
    """The match seed of a table in an event played to a target."""
    return _child(round_seed, f"t{table}:match", seeding)


def round_seed(event_seed: str, number: int, seeding: str = "hmac") -> str:
    """A round's seed from the event's seed (an event given one: replayable)."""
    return _child(event_seed, f"round:{number}", seeding)


def home_side(deal: int) -> int:
    """The side (0 leads the deal) the home entrant holds on a deal: sides alternate, so
    each entrant leads every other deal."""
    return deal % 2


#: one table's deals in a round: (home, away, per deal (home points, away points))
TableDeals = tuple[str, str, list[tuple[int, int]]]


def field_scores(tables: Iterable[TableDeals]) -> dict[str, float]:
    """Per entrant, the sum over deals of its margin less the mean margin of the others
    who held the same cards (the same deal, the same position at the table: home or
    away). Tables are one round's, each played on the same deals; an entrant alone with
    its cards (a round of one table) scores 0."""
    tables = list(tables)
    out: dict[str, float] = {}
    for home, away, _ in tables:
        out.setdefault(home, 0.0)
        out.setdefault(away, 0.0)
    deals = max((len(d) for _, _, d in tables), default=0)
    for deal in range(deals):
        holders: list[list[tuple[str, int]]] = [[], []]
        for home, away, scores in tables:
            if deal < len(scores):
                h, a = scores[deal]
                holders[0].append((home, h - a))
                holders[1].append((away, a - h))
        for group in holders:
            total = sum(m for _, m in group)
            for entrant, margin in group:
                if len(group) > 1:
                    out[entrant] += margin - (total - margin) / (len(group) - 1)
    return out
