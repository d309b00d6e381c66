"""Puzzles ("find the play"): positions from bot games where one play is clearly best, proved
by exact search, and checked again whenever they are loaded.

Two kinds, both heads-up (two seats) under rules without declarations:

- ``last_round``: the stock is empty, so the solver's view hides nothing (the cards it does
  not see are the other hand). Every play is valued exactly (``exact.solve``, both sides
  playing their best to the end of the hand).
- ``every_deal``: the next deal is the hand's last (the stock holds exactly one more round),
  so the hidden cards (the other hand and the stock) can be dealt out in every way the
  solver's view allows, and each deal solved exactly. Kept only while that number of deals
  is at most ``MAX_DEALS`` (about 600 small solves; more would make one puzzle cost minutes).

A position is kept only when one play beats every other play by at least ``MARGIN`` points
of the hand in every deal (one deal for ``last_round``): the margin rule, ``margin_holds``.
Values are hand-point margins for the solver's side (its points minus the other side's,
``points.utility`` without the match), the review's and Teach me's unit.

A puzzle is a plain dict (one JSON line): the solver's fair view (``PlayerView.to_dict``,
nothing hidden), the best play, every play's values, the reason in Teach me's words
(``analysis.payload``), the margin, the number of deals, a starting rating from how hard it
looks, and an id that is the hash of what was solved. ``verify`` re-solves one from its
view alone and says what is wrong, if anything.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from ..cards import NUM_CARDS, card, cards_of
from ..hand import Hand
from ..match import Match
from ..meaning import meaning_of
from ..messages import Message, message
from ..moves import OPENING, IllegalMoveError, Move
from ..rules import Rules
from ..view import PlayerView
from .analysis import judge, payload
from .base import make_bot
from .exact import solve
from .greedy import greedy_score
from .heuristic import heuristic_score

#: the least lead, in hand points, of the best play over every other play in every deal
MARGIN = 1.0
#: the most deals of the hidden cards an ``every_deal`` puzzle is solved over
MAX_DEALS = 600
KINDS = ("last_round", "every_deal")
#: a puzzle's starting rating: 1500 for an average one, moved by how hard it looks
BASE_RATING = 1500
RATING_STEP = 100
RATING_RANGE = (900, 2300)
#: the puzzle format's version (a line of another version is refused)
FORMAT = 1
#: values closer than this are equal (exact values are whole or half points)
EPS = 1e-9
#: the bots whose games the positions come from, seat by seat, in turn
PLAYERS = (("heuristic", "greedy"), ("greedy", "heuristic"), ("heuristic", "heuristic"))


class PuzzleError(ValueError):
    """A puzzle that is not what it says (malformed, illegal, or no longer best)."""


@dataclass(frozen=True)
class Solved:
    """Every play of a position over the deals: the plays (legal order), each play's value in
    each deal, and the deals' count."""

    codes: list[int]
    values: list[list[float]]  # values[deal][play]

    @property
    def deals(self) -> int:
        return len(self.values)

    def means(self) -> list[float]:
        n = len(self.values)
        return [sum(v[i] for v in self.values) / n for i in range(len(self.codes))]

    def leads(self, best: int) -> list[float]:
        """For each play, the least lead of play ``best`` over it across the deals (for
        ``best`` itself: its least lead over the runner-up in each deal)."""
        out = []
        for i in range(len(self.codes)):
            if i == best:
                out.append(min(v[best] - max(x for j, x in enumerate(v) if j != best)
                               for v in self.values))
            else:
                out.append(min(v[best] - v[i] for v in self.values))
        return out


def suitable_rules(rules: Rules) -> str | None:
    """Why puzzles cannot be made under ``rules`` (None when they can)."""
    if rules.players != 2:
        return "puzzles are heads-up: the rules must have two players"
    if meaning_of(rules).declares:
        return "puzzles are made for rules without declarations"
    return None


def kind_of(view: PlayerView) -> str | None:
    """Which kind of puzzle ``view`` could be (None: neither): the seat to move with two or
    more plays, and either nothing hidden or every deal of the hidden cards countable."""
    if suitable_rules(view.rules) or not view.my_turn or view.deciding:
        return None
    if len(view.legal_codes()) < 2:
        return None
    if view.stock_size == 0:
        return "last_round"
    if deal_count(view) is not None:
        return "every_deal"
    return None


def _next_round_size(view: PlayerView) -> int | None:
    """Cards each seat gets in the next deal, when it is the hand's last and empties the
    stock exactly (else None)."""
    rounds = view.rules.rounds
    nxt = view.round + 1
    if nxt != len(rounds) - 1:
        return None
    size = rounds[nxt]
    return size if size * view.rules.players == view.stock_size else None


def deal_count(view: PlayerView) -> int | None:
    """How many deals of the hidden cards an ``every_deal`` puzzle solves over, when that
    is allowed (the next deal is the last and there are at most ``MAX_DEALS``)."""
    size = _next_round_size(view)
    if size is None:
        return None
    other = 1 - view.seat
    unseen = view.unseen().bit_count()
    count = comb(unseen, view.hand_sizes[other]) * comb(2 * size, size)
    return count if count <= MAX_DEALS else None


def worlds(view: PlayerView) -> Iterator[Hand]:
    """Every full state the view allows, once each: for ``last_round`` the one state; for
    ``every_deal`` each split of the hidden cards into the other hand and the last deal's
    two hands (the stock's order within a hand does not matter)."""
    other = 1 - view.seat
    hidden = cards_of(view.unseen())
    if view.stock_size == 0:
        hands = [0, 0]
        hands[view.seat] = view.hand
        hands[other] = view.unseen()
        if hands[other].bit_count() != view.hand_sizes[other]:
            raise PuzzleError("the hidden cards do not match the other hand's size")
        yield view.determinize(hands, [])
        return
    size = _next_round_size(view)
    if size is None:
        raise PuzzleError("the next deal is not the hand's last: the deals are not countable")
    for held in combinations(hidden, view.hand_sizes[other]):
        rest = [c for c in hidden if c not in held]
        for share in combinations(rest, size):
            second = [c for c in rest if c not in share]
            hands = [0, 0]
            hands[view.seat] = view.hand
            hands[other] = sum(1 << c for c in held)
            # dealt one at a time from the seat after the dealer, popped from the stock's
            # end: ``share`` goes to that seat (every split is enumerated, so each seat
            # gets every possible hand)
            popped = [c for pair in zip(share, second, strict=True) for c in pair]
            yield view.determinize(hands, popped[::-1])


def solve_view(view: PlayerView, screen: float | None = None) -> Solved | None:
    """Every legal play of the view's seat valued exactly in every deal it allows. With
    ``screen`` (a margin), give up (None) as soon as no play can lead every other by it in
    every deal: most positions are rejected after a few deals."""
    codes = view.legal_codes()
    side = view.seat % view.rules.teams
    values = []
    alive = set(range(len(codes)))
    for world in worlds(view):
        row = []
        for code in codes:
            g = world.copy()
            g.play_code(code)
            row.append(solve(g, side))
        values.append(row)
        if screen is not None:
            alive = {i for i in alive
                     if row[i] - max(x for j, x in enumerate(row) if j != i) >= screen - EPS}
            if not alive:
                return None
    return Solved(codes, values)


def solved_view(view: PlayerView) -> Solved:
    """``solve_view`` in full (never None)."""
    solved = solve_view(view)
    assert solved is not None
    return solved


def best_index(solved: Solved) -> int:
    """The play with the highest mean value (the first in legal order on a tie)."""
    means = solved.means()
    top = 0
    for i, v in enumerate(means):
        if v > means[top] + EPS:
            top = i
    return top


def margin_holds(solved: Solved, best: int, margin: float = MARGIN) -> bool:
    """The margin rule: play ``best`` leads every other play by ``margin`` in every deal."""
    return len(solved.codes) >= 2 and solved.leads(best)[best] >= margin - EPS


# -- how hard it looks ------------------------------------------------------------------
def difficulty(view: PlayerView, solved: Solved, best: int) -> int:
    """Points of difficulty, 0 for the plainest: the bots that judge by the look of a play
    (greedy, heuristic) miss it, the best play takes nothing or is not the biggest take,
    there are many plays, every deal had to be weighed."""
    moves = [Move.from_code(c) for c in solved.codes]
    right = moves[best]
    points = 0
    greedy = [greedy_score(view, m) for m in moves]
    if greedy.index(max(greedy)) != best:
        points += 2
    heuristic = [heuristic_score(view, m) for m in moves]
    if heuristic.index(max(heuristic)) != best:
        points += 2
    if not right.capture:
        points += 1
    elif right.capture == view.table:
        points -= 1  # a sweep is found by everyone
    points += min(2, (len(moves) - 2) // 2)
    if view.stock_size:
        points += 1
    return points


def starting_rating(points: int) -> int:
    lo, hi = RATING_RANGE
    return max(lo, min(hi, BASE_RATING + RATING_STEP * (points - 2)))


# -- the puzzle's form ------------------------------------------------------------------
def reason(kind: str, solved: Solved, best: int) -> Message:
    """Why the best play is the answer, in the catalogue's words."""
    lead = solved.leads(best)[best]
    if kind == "last_round":
        return message("puzzle.why.exact", n=_points(lead))
    return message("puzzle.why.everyDeal", n=_points(lead), deals=solved.deals)


def _points(x: float) -> int | float:
    return int(x) if abs(x - round(x)) < EPS else round(x, 2)


def puzzle_of(view: PlayerView, solved: Solved, source: str) -> dict[str, Any]:
    """The puzzle of a solved view whose margin holds (``margin_holds``)."""
    kind = "last_round" if view.stock_size == 0 else "every_deal"
    best = best_index(solved)
    means = solved.means()
    leads = solved.leads(best)
    order = sorted(range(len(solved.codes)), key=lambda i: (i != best, -means[i]))
    ranked = [(Move.from_code(solved.codes[i]), means[i]) for i in order]
    explained = payload(view, judge(view, ranked))
    plays = [{"move": Move.from_code(solved.codes[i]).to_dict(), "value": round(means[i], 3),
              "lead": round(leads[i], 3), "best": i == best} for i in order]
    points = difficulty(view, solved, best)
    body = {
        "format": FORMAT,
        "kind": kind,
        "variant": view.rules.variant,
        "view": view.to_dict(),
        "best": Move.from_code(solved.codes[best]).to_dict(),
        "plays": plays,
        "margin": MARGIN,
        "deals": solved.deals,
        "reason": reason(kind, solved, best),
        "explained": explained,
        "difficulty": points,
        "rating": starting_rating(points),
        "source": source,
    }
    return {"id": puzzle_id(body), **body}


def puzzle_id(body: dict[str, Any]) -> str:
    """The hash of what a puzzle is (its rules and view): two games that reach the same
    position give the same puzzle."""
    view = body.get("view")
    what = json.dumps({"variant": body.get("variant"), "view": view}, sort_keys=True)
    return hashlib.sha256(what.encode()).hexdigest()[:16]


def view_of(data: Any) -> PlayerView:
    """The ``PlayerView`` a puzzle's ``view`` (``PlayerView.to_dict``) describes, checked:
    each card once, counts that add up to 40, the seat to move."""
    if not isinstance(data, dict):
        raise PuzzleError("the view must be an object")
    try:
        rules = Rules.from_dict(data["rules"])
        why = suitable_rules(rules)
        if why:
            raise PuzzleError(why)
        seat = data["seat"]
        if seat not in (0, 1) or data.get("to_move") != seat:
            raise PuzzleError("the view must be of the seat to move")
        hand = _mask(data["hand"])
        table = _mask(data["table"])
        captured = [_mask(p) for p in data["captured"]]
        sizes = [int(x) for x in data["hand_sizes"]]
        scope = [int(x) for x in data["scope"]]
        scores = [int(x) for x in data["scores"]]
        stock = int(data["stock_size"])
        history = tuple(_entry(e) for e in data["history"])
        dealer = int(data["dealer"])
        last = data["last_capturer"]
    except PuzzleError:
        raise
    except (KeyError, TypeError, ValueError, IllegalMoveError) as e:
        raise PuzzleError(f"the view is malformed: {e}") from None
    if len(captured) != 2 or len(sizes) != 2 or len(scope) != 2 or len(scores) != 2:
        raise PuzzleError("the view must describe two seats")
    seen = [hand, table, *captured]
    total = sum(m.bit_count() for m in seen)
    union = 0
    for m in seen:
        union |= m
    if union.bit_count() != total:
        raise PuzzleError("a card is shown twice")
    if sizes[seat] != hand.bit_count() or min(sizes + scope + [stock]) < 0:
        raise PuzzleError("the hand sizes do not match the hand")
    if total + sizes[1 - seat] + stock != NUM_CARDS:
        raise PuzzleError("the cards do not add up to a deck")
    if last not in (None, 0, 1) or dealer not in (0, 1):
        raise PuzzleError("no such seat")
    if data.get("hand_over") or not isinstance(data.get("hand_number"), int):
        raise PuzzleError("the hand must be in play")
    round_ = _round_of(rules, stock)
    return PlayerView(
        rules=rules, seat=seat, dealer=dealer, to_move=seat, hand=hand,
        hand_sizes=tuple(sizes), table=table, stock_size=stock, captured=tuple(captured),
        scope=tuple(scope), last_capturer=-1 if last is None else last, scores=tuple(scores),
        hand_over=False, round=round_, history=history, hand_number=data["hand_number"],
    )


def _round_of(rules: Rules, stock: int) -> int:
    """The round of dealing a stock of ``stock`` cards is left after."""
    left = NUM_CARDS - rules.table_cards
    for r, size in enumerate(rules.rounds):
        left -= rules.players * size
        if left == stock:
            return r
    raise PuzzleError(f"no round of dealing leaves {stock} cards in the stock")


def _mask(cards: Any) -> int:
    if not isinstance(cards, list):
        raise PuzzleError("cards must be a list")
    m = 0
    for text in cards:
        c = card(text)
        if m >> c & 1:
            raise PuzzleError(f"{text} is listed twice")
        m |= 1 << c
    return m


def _entry(e: Any) -> tuple[int, int, bool]:
    if not isinstance(e, dict) or e.get("seat") not in (0, 1):
        raise PuzzleError("a play of the history is malformed")
    c = OPENING if e.get("card") is None else card(e["card"])
    return (e["seat"], c | _mask(e.get("capture", [])) << 6, bool(e.get("scopa")))


def move_code(view: PlayerView, move: Any) -> int:
    """The legal play ``move`` (a move dict) names in ``view``; ``PuzzleError`` if none."""
    try:
        m = Move.from_dict(move)
    except IllegalMoveError as e:
        raise PuzzleError(str(e)) from None
    code = m.code
    if code not in view.legal_codes():
        raise PuzzleError(f"{m} is not a legal play here")
    return code


def verify(puzzle: Any) -> dict[str, Any]:
    """Re-check a puzzle from its view alone: a legal position of its variant, the stored
    best play legal and still best by the margin after solving again, the stored values,
    reason, explanation and starting rating the ones solving gives, the id its content's.
    Returns the puzzle; ``PuzzleError`` says what is wrong (whatever the damage)."""
    try:
        return _verify(puzzle)
    except PuzzleError:
        raise
    except (TypeError, ValueError, OverflowError, KeyError, AttributeError,
            RecursionError) as e:
        raise PuzzleError(f"the puzzle is malformed: {type(e).__name__}: {e}"[:300]) from None


#: the fields of a puzzle line, each checked by ``verify``
FIELDS = frozenset({"id", "format", "kind", "variant", "view", "best", "plays", "margin",
                    "deals", "reason", "explained", "difficulty", "rating", "source"})


def _verify(puzzle: Any) -> dict[str, Any]:
    if not isinstance(puzzle, dict):
        raise PuzzleError("a puzzle must be a JSON object")
    if puzzle.get("format") != FORMAT:
        raise PuzzleError(f"unknown puzzle format {puzzle.get('format')!r} (this is {FORMAT})")
    if set(puzzle) != FIELDS:
        raise PuzzleError(f"the fields are not a puzzle's: {sorted(set(puzzle) ^ FIELDS)}")
    if puzzle.get("kind") not in KINDS:
        raise PuzzleError(f"unknown kind {puzzle.get('kind')!r}")
    view = view_of(puzzle.get("view"))
    if view.rules.variant != puzzle.get("variant"):
        raise PuzzleError("the variant does not match the view's rules")
    if puzzle.get("id") != puzzle_id(puzzle):
        raise PuzzleError("the id is not the hash of the puzzle's view")
    kind = kind_of(view)
    if kind != puzzle["kind"]:
        raise PuzzleError(f"the position is not a {puzzle['kind']} puzzle")
    code = move_code(view, puzzle.get("best"))
    solved = solved_view(view)
    if solved.deals != puzzle.get("deals"):
        raise PuzzleError(f"solved over {solved.deals} deals, the puzzle says "
                          f"{puzzle.get('deals')}")
    best = solved.codes.index(code)
    if best != best_index(solved):
        right = Move.from_code(solved.codes[best_index(solved)])
        raise PuzzleError(f"the stored play is not the best: {right} is better")
    if not margin_holds(solved, best, MARGIN):
        raise PuzzleError(f"the best play does not lead every other by {MARGIN:g} in every deal")
    source = puzzle.get("source")
    if not isinstance(source, str) or len(source) > 200 or not source.isprintable():
        raise PuzzleError("the source must be a short printable text")
    # everything else is what solving the view gives, exactly
    again = json.loads(json.dumps(puzzle_of(view, solved, source)))
    for key in ("plays", "margin", "reason", "difficulty", "rating", "explained"):
        if puzzle.get(key) != again[key]:
            raise PuzzleError(f"the stored {key} is not what solving the position gives")
    return puzzle


# -- making them from bot games -----------------------------------------------------------
def positions(rules: Rules, seed: str, players: tuple[str, str]) -> Iterator[PlayerView]:
    """The views of the seat to move at each play of one hand of a bot game."""
    match = Match(rules, seed=seed)
    bots = [make_bot(name, f"{seed}:{i}") for i, name in enumerate(players)]
    hand = match.hand
    while not hand.hand_over:
        seat = hand.to_move
        view = PlayerView.of(hand, seat)
        yield view
        hand.play(bots[seat].choose(view))


def make(count: int, seed: int | str = 0, variant: str = "scopa",
         hands: int | None = None, progress: Callable[[str], None] | None = None
         ) -> list[dict[str, Any]]:
    """``count`` puzzles from bot games dealt from ``seed`` (the same seed and count: the
    same puzzles, in the same order). At most one puzzle a hand, drawn at random among the
    positions of the hand whose margin holds; gives up after ``hands`` hands (default 40 a
    puzzle)."""
    rules = Rules.preset(variant)
    why = suitable_rules(rules)
    if why:
        raise PuzzleError(f"{variant}: {why}")
    rng = random.Random(f"puzzles:{seed}")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    limit = hands if hands is not None else 40 * count
    for n in range(limit):
        if len(out) >= count:
            break
        game_seed = f"{seed}:{n}"
        players = PLAYERS[n % len(PLAYERS)]
        found = []
        for view in positions(rules, game_seed, players):
            if kind_of(view) is None:
                continue
            solved = solve_view(view, screen=MARGIN)
            if solved is not None and margin_holds(solved, best_index(solved)):
                found.append((view, solved))
        if not found:
            continue
        # the rarer kind first: a position weighed over every deal
        deals = [f for f in found if f[0].stock_size]
        pick = deals or found
        view, solved = pick[rng.randrange(len(pick))]
        puzzle = puzzle_of(view, solved, f"{players[0]}-{players[1]}:{game_seed}")
        if puzzle["id"] in seen:
            continue
        seen.add(puzzle["id"])
        out.append(puzzle)
        if progress:
            progress(f"puzzle {len(out)}/{count}: {puzzle['id']} {puzzle['kind']} "
                     f"rating {puzzle['rating']} (hand {n + 1})")
    return out


def fair_view(puzzle: dict[str, Any]) -> dict[str, Any]:
    """What the solver is shown before answering: the view and what kind of puzzle it is,
    never the answer, the values or the reason."""
    return {"id": puzzle["id"], "kind": puzzle["kind"], "variant": puzzle["variant"],
            "view": puzzle["view"]}
