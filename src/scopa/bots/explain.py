"""Plain-English explanations of a move: what it takes, sweeps made or left, and why.

Only what the mover may see is used: the table, its hand, and which cards are unseen.
"""

from __future__ import annotations

from ..cards import RANK, RANK_MASK, RANK_NAMES, SETTEBELLO, card_name, cards_of
from ..game import DECLARE, Move
from ..meaning import meaning_of
from ..rules import Rules
from ..view import PlayerView
from .inference import sweeping_ranks


def rank_word(rank: int) -> str:
    """``7`` or ``knave``: how a rank is said in a sentence."""
    return RANK_NAMES.get(rank, str(rank))


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _the(cards: list[int]) -> str:
    return _join(["the " + card_name(c) for c in cards])


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


def explain(view: PlayerView, move: Move, value: float | None = None) -> str:
    """One or two sentences about ``move`` for the seat of ``view``."""
    if move.is_declaration:
        points = meaning_of(view.rules).declaration(view.hand)
        if move.card == DECLARE:
            sentence = f"Declare your hand for {points} points; everyone will see it."
        else:
            sentence = f"Keep your hand hidden and give up its {points} points."
        if value is not None:
            sentence += f" Expected margin {value:+.2f} points for the rest of the hand."
        return sentence
    parts: list[str] = []
    mine = "your " + card_name(move.card)
    if move.capture:
        taken = cards_of(move.capture)
        text = f"{mine} takes {_the(taken)}"
        if move.capture == view.table:
            if sweep_scores(view, move):
                text += " and sweeps the table (scopa)"
            else:
                text += " and clears the table (no scopa on this play)"
        parts.append(text)
        if SETTEBELLO in taken or move.card == SETTEBELLO:
            parts.append("wins the settebello")
        sevens = sum(1 for c in taken + [move.card] if RANK[c] == 7)
        if sevens and not (SETTEBELLO in taken or move.card == SETTEBELLO):
            parts.append(f"{sevens} seven{'s' if sevens > 1 else ''} for the primiera")
        after = view.table & ~move.capture
    else:
        parts.append(f"{mine} is laid on the table")
        after = view.table | 1 << move.card
    parts.extend(_risks(view, move, after))
    sentence = "; ".join(parts) + "."
    if value is not None:
        sentence += f" Expected margin {value:+.2f} points for the rest of the hand."
    return sentence[0].upper() + sentence[1:]


def _risks(view: PlayerView, move: Move, after: int) -> list[str]:
    """What the table left behind offers the next players."""
    if not after:
        return []
    cards_left = sum(view.hand_sizes) + view.stock_size
    if cards_left <= 1:
        return []
    unseen = view.unseen()
    out = []
    total = sum(RANK[c] for c in cards_of(after))
    # the next play is the hand's last: a sweep there scores only if the rules say so
    ranks = sweeping_ranks(view.rules, after)
    if cards_left == 2 and not meaning_of(view.rules).last_play_sweeps:
        ranks = []  # the next play ends the hand, where a sweep does not score
    for r in ranks:
        left = (unseen & RANK_MASK[r]).bit_count()
        what = f"leaves {total} on the table"
        if left:
            out.append(
                f"{what}: an unseen {rank_word(r)} would sweep ({left} still unseen)"
            )
        else:
            out.append(f"{what}, but no {rank_word(r)} is left unseen to sweep it")
    if not move.capture and RANK[move.card] == 7:
        left = (unseen & RANK_MASK[7]).bit_count()
        if left:
            prize = "the settebello" if move.card == SETTEBELLO else "a seven"
            out.append(f"offers {prize} to {left} unseen seven{'s' if left > 1 else ''}")
    return out
