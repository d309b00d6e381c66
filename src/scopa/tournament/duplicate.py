"""The deals a table plays, and duplicate scoring against the field.

Every round has one secret seed; its hash (``scopa.shuffle.commitment``) is published when
the round is paired and the seed itself once the round is over, so anyone can check that
the deals were fixed before play (``scopa verify`` checks a deal against its seed). Each
deal's hand seed comes from the round's seed: in duplicate mode the same for every table
of the round (every table holds the same cards), otherwise one per table.

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


def deal_seed(round_seed: str, deal: int, table: int | None) -> str:
    """The hand seed of a deal (0-based) at a table, or shared by every table (``table``
    None: duplicate mode)."""
    return f"{round_seed}:deal:{deal}" if table is None else f"{round_seed}:t{table}:deal:{deal}"


def decider_seed(round_seed: str, table: int, deal: int) -> str:
    """The hand seed of a knockout decider's deal (0-based) at a table."""
    return f"{round_seed}:t{table}:decider:{deal}"


def match_seed(round_seed: str, table: int) -> str:
    """The match seed of a table in an event played to a target."""
    return f"{round_seed}:t{table}:match"


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
