"""Why a move is good or bad, as structured messages (``scopa.messages``): what it takes,
what it leaves (the sweep risk), the prizes still unseen, and how its expected margin
compares with the best move's. The words live in the shared catalogue, so the terminal and
the browser say the same thing in English and Italian.

Only what the mover may see is used: the table, its hand, and which cards are unseen.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import COINS, RANK, RANK_MASK, SETTEBELLO, cards_of
from ..meaning import meaning_of
from ..messages import Message, card, cards, items, message, rank, ranks, sentence
from ..moves import DECLARE, Move
from ..rules import Rules
from ..view import PlayerView
from .inference import sweeping_ranks

#: margins closer than this (in points) are "about as good"
TIE = 0.05
#: upper bounds of the words for a margin, in points
AMOUNTS = (
    (0.2, "amount.slight"),
    (0.375, "amount.quarter"),
    (0.625, "amount.half"),
    (0.875, "amount.threeQuarters"),
    (1.25, "amount.one"),
    (1.75, "amount.oneHalf"),
)


def is_last_play(view: PlayerView) -> bool:
    """This play ends the hand (a sweep on it does not score, by default)."""
    return view.stock_size == 0 and sum(view.hand_sizes) == 1


def sweep_counts_now(rules: Rules, card: int, capture: int, last_play: bool) -> bool:
    """Whether taking the whole table with ``card`` scores a scopa under these rules
    (``last_play``: the play ends the hand): the rules' own answer."""
    return meaning_of(rules).sweep_scores(RANK[card], capture, last_play)


def sweep_scores(view: PlayerView, move: Move) -> bool:
    """Whether this move sweeps the table and scores a scopa for it."""
    if not move.capture or move.capture != view.table:
        return False
    return sweep_counts_now(view.rules, move.card, move.capture, is_last_play(view))


def describe(view: PlayerView, move: Move) -> Message:
    """The move as an instruction: "Take the 3 of swords with the 3 of cups"."""
    if move.is_declaration:
        if move.card == DECLARE:
            return message("move.declare", n=meaning_of(view.rules).declaration(view.hand))
        return message("move.pass")
    if not move.capture:
        return message("move.lay", card=card(move.card))
    taken = cards(cards_of(move.capture))
    if move.capture == view.table:
        key = "move.sweep" if sweep_scores(view, move) else "move.clear"
        return message(key, card=card(move.card), cards=taken)
    return message("move.take", card=card(move.card), cards=taken)


def doing(move: Move) -> Message:
    """The move as a phrase to compare with: "laying the king of cups"."""
    if move.is_declaration:
        return message("doing.declare" if move.card == DECLARE else "doing.pass")
    if not move.capture:
        return message("doing.lay", card=card(move.card))
    return message("doing.take", card=card(move.card), cards=cards(cards_of(move.capture)))


def reasons(view: PlayerView, move: Move) -> list[Message]:
    """What the move wins and what it leaves behind, one message a reason."""
    if move.is_declaration:
        points = meaning_of(view.rules).declaration(view.hand)
        return [message("why.declare" if move.card == DECLARE else "why.pass", n=points)]
    out: list[Message] = []
    if move.capture:
        won = cards_of(move.capture) + [move.card]
        if move.capture == view.table:
            out.append(message("why.sweep" if sweep_scores(view, move) else "why.clear"))
        if SETTEBELLO in won:
            out.append(message("why.settebello"))
        sevens = sum(1 for c in won if RANK[c] == 7)
        if sevens and won.count(SETTEBELLO) < sevens:
            out.append(message("why.sevens", n=sevens))
        coins = sum(1 for c in won if COINS >> c & 1)
        if coins:
            out.append(message("why.coins", n=coins))
        out.append(message("why.pile", n=len(won)))
    else:
        out.append(message("why.lays", card=card(move.card)))
    out.extend(_leaves(view, move))
    return out


def _leaves(view: PlayerView, move: Move) -> list[Message]:
    """What the table left behind offers the next players."""
    cards_left = sum(view.hand_sizes) + view.stock_size
    if cards_left <= 1:  # the hand's last play: the last taker gets what is left
        return []
    after = view.table & ~move.capture if move.capture else view.table | 1 << move.card
    if not after:
        return [message("why.empty")]
    unseen = view.unseen()
    total = sum(RANK[c] for c in cards_of(after))
    out: list[Message] = []
    swept = sweeping_ranks(view.rules, after)
    if cards_left == 2 and not meaning_of(view.rules).last_play_sweeps:
        pass  # the next play is the hand's last: a sweep there does not score
    elif not swept:
        out.append(message("why.safe", total=total))
    else:
        for r in swept:
            left = (unseen & RANK_MASK[r]).bit_count()
            if left:
                out.append(message("why.risk", total=total, n=left, rank=rank(r), ranks=ranks(r)))
            else:
                out.append(message("why.riskGone", total=total, rank=rank(r)))
    sevens = after & RANK_MASK[7]  # laid or left there: a prize for the next seven
    left = (unseen & RANK_MASK[7]).bit_count()
    if sevens and left:
        out.append(message("why.exposes", cards=cards(cards_of(sevens)), n=left))
    return out


def still_to_come(view: PlayerView) -> Message | None:
    """The prizes the seat has not seen yet (settebello, sevens, coins), or None."""
    unseen = view.unseen()
    parts: list[Message] = []
    sevens = (unseen & RANK_MASK[7]).bit_count()
    if unseen >> SETTEBELLO & 1:
        parts.append(message("still.settebello"))
        if sevens > 1:
            parts.append(message("still.otherSevens", n=sevens - 1))
    elif sevens:
        parts.append(message("still.sevens", n=sevens))
    coins = (unseen & COINS).bit_count()
    if coins:
        parts.append(message("still.coins", n=coins))
    return message("still.intro", items=items(parts)) if parts else None


def amount(points: float) -> Message:
    """A positive margin in words: "about half a point"."""
    for bound, key in AMOUNTS:
        if points < bound:
            return message(key)
    return message("amount.n", n=round(points))


def expectation(value: float) -> Message:
    """The expected margin of the rest of the hand in words."""
    if value >= TIE:
        return message("expect.ahead", amount=amount(value))
    if value <= -TIE:
        return message("expect.behind", amount=amount(-value))
    return message("expect.level")


def verdict(ranked: Sequence[tuple[Move, float]], i: int) -> list[Message]:
    """How move ``i`` of ``ranked`` (best first, with expected margins) compares with the
    best one, in words; for the best move also what to expect from the rest of the hand."""
    best = ranked[0][1]
    if i == 0:
        out = [_best_against(ranked)]
        out.append(expectation(best))
        return out
    gap = best - ranked[i][1]
    if gap < TIE:
        return [message("compare.tie")]
    return [message("compare.worse", amount=amount(gap))]


def _best_against(ranked: Sequence[tuple[Move, float]]) -> Message:
    if len(ranked) == 1:
        return message("compare.only")
    (_, best), (second_move, second) = ranked[0], ranked[1]
    gap = best - second
    loses = best <= -TIE  # every move loses: say so plainly
    if gap < TIE:
        key = "compare.bestLosesTie" if loses else "compare.bestTie"
        return message(key, move=doing(second_move))
    key = "compare.bestLoses" if loses else "compare.best"
    return message(key, amount=amount(gap), move=doing(second_move))


def explain(view: PlayerView, move: Move, value: float | None = None) -> str:
    """The reasons for ``move`` as English sentences (with the expectation, given its
    expected margin ``value``)."""
    said = reasons(view, move)
    if value is not None:
        said.append(expectation(value))
    return " ".join(sentence(m) for m in said)
