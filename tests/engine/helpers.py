"""Shared helpers for the engine tests: hand-built positions and an independent rules
oracle written straight from docs/rules.md (cards handled as text, not engine ints)."""

from __future__ import annotations

from typing import Any

from scopa import Rules
from scopa.hand import Hand
from scopa.notation import load_position

SUITS = "dcsb"
#: the 40 cards as text, suit by suit
ALL_CARDS = [f"{r}{s}" for s in SUITS for r in range(1, 11)]
ALL_SET = frozenset(ALL_CARDS)

#: primiera scale of docs/rules.md: 7 = 21, 6 = 18, Ace = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12
PRIMIERA_SCALE = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
PRIMIERA_OLD_FACES = {**PRIMIERA_SCALE, 8: 8, 9: 9, 10: 10}


def rank(c: str) -> int:
    return int(c[:-1])


def suit(c: str) -> str:
    return c[-1]


def position(
    hands: list[list[str]],
    table: list[str],
    *,
    variant: str = "scopa",
    dealer: int | None = None,
    to_move: int = 0,
    stock: list[str] | None = None,
    stock_size: int = 0,
    captured: list[list[str]] | None = None,
    scope: list[int] | None = None,
    last_capturer: int | None = None,
    scores: list[int] | None = None,
    rest_seat: int | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A position naming the cards that matter; every other card is put in the stock (up to
    ``stock_size``) and then on the captured pile of ``rest_seat`` (default: the dealer)."""
    n = len(hands)
    rules = {"variant": variant, "players": n, **options}
    teams = Rules.from_dict(rules).teams
    dealer = n - 1 if dealer is None else dealer
    stock = list(stock or [])
    captured = [list(p) for p in captured] if captured is not None else [[] for _ in range(n)]
    named = [c for h in hands for c in h] + list(table) + stock + [c for p in captured for c in p]
    rest = [c for c in ALL_CARDS if c not in named]
    fill = stock_size - len(stock)
    if fill > 0:
        stock += rest[:fill]
        rest = rest[fill:]
    seat = dealer if rest_seat is None else rest_seat
    captured[seat] = captured[seat] + rest
    return {
        "rules": rules,
        "dealer": dealer,
        "to_move": to_move,
        "hands": [list(h) for h in hands],
        "table": list(table),
        "stock": stock,
        "captured": captured,
        "scope": list(scope) if scope is not None else [0] * n,
        "last_capturer": last_capturer,
        "scores": list(scores) if scores is not None else [0] * teams,
    }


def game(hands: list[list[str]], table: list[str], **kw: Any) -> Hand:
    return load_position(position(hands, table, **kw))


def moves_of(g: Hand) -> set[tuple[str, frozenset[str]]]:
    """The legal moves as (card, frozenset of taken cards), from their public dict form;
    a declaration is ("declare", {}) or ("pass", {})."""
    out = set()
    for m in g.legal_moves():
        d = m.to_dict()
        if "declare" in d:
            out.add(("declare" if d["declare"] else "pass", frozenset()))
        else:
            out.add((d["card"], frozenset(d["capture"])))
    return out


def captures_for(g: Hand, c: str) -> set[frozenset[str]]:
    return {cap for card, cap in moves_of(g) if card == c}


def side_of(res: dict[str, Any], side: int) -> dict[str, Any]:
    return res["sides"][side]


# -- the independent oracle ---------------------------------------------------------------
def _subsets_up_to(table: list[str], limit: int) -> list[frozenset[str]]:
    """Every non-empty subset of the table whose ranks add up to at most ``limit`` (every
    subset that can matter: no capture needs a sum above 14)."""
    out: list[frozenset[str]] = []

    def walk(i: int, chosen: list[str], total: int) -> None:
        if i == len(table):
            if chosen:
                out.append(frozenset(chosen))
            return
        walk(i + 1, chosen, total)
        r = rank(table[i])
        if total + r <= limit:
            chosen.append(table[i])
            walk(i + 1, chosen, total + r)
            chosen.pop()

    walk(0, [], 0)
    return out


def oracle_moves(rules: Rules, hand: list[str], table: list[str]) -> set[tuple[str, frozenset]]:
    """Every legal move by docs/rules.md, by brute force over the subsets of the table."""
    subsets = _subsets_up_to(table, 14)
    moves: set[tuple[str, frozenset]] = set()
    for c in hand:
        r = rank(c)
        caps: list[frozenset[str]]
        if rules.capture == "equal":
            same = [t for t in table if rank(t) == r]
            if same:  # a same-rank card always beats a sum; the player picks which
                caps = [frozenset([t]) for t in same]
            elif rules.ace_takes_all and r == 1 and table:
                caps = [frozenset(table)]
            else:
                caps = [s for s in subsets if len(s) >= 2 and sum(map(rank, s)) == r]
                if rules.fewest_cards and caps:
                    least = min(map(len, caps))
                    caps = [s for s in caps if len(s) == least]
        elif rules.capture == "cirulla":
            caps = _cirulla_captures(rules, c, table, subsets)
        else:  # quindici: the played rank plus the taken ranks make 15
            caps = [s for s in subsets if sum(map(rank, s)) + r == 15]
            if rules.fewest_cards and caps:
                least = min(map(len, caps))
                caps = [s for s in caps if len(s) == least]
        if caps:
            moves.update((c, s) for s in caps)
        else:
            moves.add((c, frozenset()))
    return moves


def _cirulla_captures(
    rules: Rules, c: str, table: list[str], subsets: list[frozenset[str]]
) -> list[frozenset[str]]:
    """Cirulla by docs/rules.md: an ace with no ace on the table takes the whole table; else the
    simple capture (an equal card, or the fewest cards summing to the card) and every set
    making 15 with the card, the player's choice."""
    r = rank(c)
    if rules.ace_takes_all and r == 1 and table and not any(rank(t) == 1 for t in table):
        return [frozenset(table)]
    same = [frozenset([t]) for t in table if rank(t) == r]
    if same:
        simple = same
    else:
        sums = [s for s in subsets if len(s) >= 2 and sum(map(rank, s)) == r]
        simple = [s for s in sums if len(s) == min(map(len, sums))] if sums else []
    fifteens = [s for s in subsets if sum(map(rank, s)) + r == 15]
    if rules.fewest_cards and fifteens:
        fifteens = [s for s in fifteens if len(s) == min(map(len, fifteens))]
    return simple + fifteens


def oracle_declaration(hand: list[str]) -> int:
    """Cirulla's declaration of a dealt hand of three: 10 for three of a kind, else 3 for
    a sum under 10, else 0; the seven of cups may stand for any rank."""
    if len(hand) != 3:
        return 0
    best = 0
    choices = [range(1, 11) if c == "7c" else [rank(c)] for c in hand]
    for a in choices[0]:
        for b in choices[1]:
            for d in choices[2]:
                if a == b == d:
                    best = max(best, 10)
                elif a + b + d < 10:
                    best = max(best, 3)
    return best


def oracle_score(
    rules: Rules, piles: list[list[str]], scope: list[int], declared: list[int] | None = None
) -> list[dict[str, int]]:
    """Points per side by docs/rules.md from the seats' piles, sweeps and declarations."""
    sides = rules.teams
    pile: list[set[str]] = [set() for _ in range(sides)]
    sweeps = [0] * sides
    decl = [0] * sides
    for seat, p in enumerate(piles):
        pile[seat % sides] |= set(p)
        sweeps[seat % sides] += scope[seat]
        decl[seat % sides] += declared[seat] if declared else 0

    def single_top(values: list[int | None]) -> list[int]:
        got = [0] * sides
        vals = [v for v in values if v is not None]
        if vals and max(vals) > 0 and vals.count(max(vals)) == 1:
            got[values.index(max(vals))] = 1
        return got

    scale = PRIMIERA_SCALE if rules.primiera_faces == "ten" else PRIMIERA_OLD_FACES
    prim: list[int | None] = []
    for p in pile:
        best = []
        for s in SUITS:
            vals = [scale[rank(c)] for c in p if suit(c) == s]
            best.append(max(vals) if vals else None)
        prim.append(None if None in best else sum(b for b in best if b is not None))
    cards = single_top([len(p) for p in pile])
    coins = single_top([sum(1 for c in p if suit(c) == "d") for p in pile])
    prim_pts = single_top(prim) if rules.primiera else [0] * sides
    sevens = single_top([sum(1 for c in p if rank(c) == 7) for p in pile])
    out = []
    for i, p in enumerate(pile):
        run = 0
        if {"1d", "2d", "3d"} <= p:
            run = 3
            while run < 10 and f"{run + 1}d" in p:
                run += 1
        napola = run if rules.napola else 0
        extra = {}
        if rules.piccola:
            extra["piccola"] = run
        if rules.grande:
            extra["grande"] = 5 if {"8d", "9d", "10d"} <= p else 0
        if rules.declarations != "off":
            extra["declarations"] = decl[i]
        out.append(
            {
                "cards": cards[i],
                "coins": coins[i],
                "settebello": int("7d" in p),
                "primiera": prim_pts[i],
                "sevens": sevens[i] if rules.sevens else 0,
                "scope": sweeps[i],
                "napola": napola,
                "re_bello": int(rules.re_bello and "10d" in p),
                **extra,
            }
        )
    return out


def cards_in(obj: Any) -> set[str]:
    """Every card text anywhere inside a JSON-like value."""
    found: set[str] = set()
    if isinstance(obj, str):
        if obj in ALL_SET:
            found.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found |= cards_in(k) | cards_in(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            found |= cards_in(v)
    return found
