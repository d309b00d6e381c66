"""A learned model of where the unseen cards are: P(card ``c`` is in the opponent's hand).

Issue 32 ("bots that read the table"). Heads-up (2-player tables only), from one seat's
``PlayerView`` at its turn, every unseen card is either in the opponent's hand or in the
stock. For each unseen card the model reads public facts only (the view holds nothing
else): the card's rank and suit, the opponent's plays this round (hands are refilled
between rounds, so earlier rounds say nothing about the cards held now), judged by the
play model (``play_model.play_clues``: how much better the card's best play looked than
the play made), missed sweeps, cards laid while the card's rank lay on the table, and the
counts (hand size, cards unseen, stock, round). A logistic regression over those features
(optionally with a small hidden ReLU layer beside it) gives a logit per card;
``scripts/train_card_model.py`` fits it on games of a diverse pool of players and writes it
as JSON in ``nets/cards/`` (plain numbers: inference runs in plain Python, the game needs
no NumPy).

Normalisation: the logits are shifted by one constant so that the probabilities sum to the
opponent's hand size (``marginals``), which keeps each in (0, 1); the same logits define a
distribution over whole hands (conditional Bernoulli: P(H) proportional to the product of
the odds of its cards, over hands of the right size), ``layout_log_likelihood``.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from math import exp, lgamma, log
from pathlib import Path
from typing import Any

from ..cards import NUM_CARDS, RANK, RANK_MASK, SETTEBELLO, SUIT, cards_of
from ..moves import is_card_play
from ..view import PlayerView
from .inference import missed_sweeps, round_plays, tables_before
from .play_model import BETA, clue_weight, play_clues

FORMAT = 1
NETS_DIR = Path(__file__).parent / "nets" / "cards"

FEATURES: tuple[str, ...] = (
    "bias",
    "prior_logit",  # log(k / (U - k)): the uniform odds
    *(f"rank{r}" for r in range(1, 11)),
    "coins",
    "settebello",
    "opp_plays",  # the opponent's plays this round
    "clue_weight",  # play model: the smallest weight of the card over the clues (1: none)
    "shortfall",  # play model: how much better its best play looked, in points, capped at 1
    "clued",  # clues in which the card's weight is below 1
    "missed_sweep",  # the opponent could have swept with this rank and did not
    "laid_past",  # the opponent laid a card (no capture) while this rank was on the table
    "took_past",  # it captured with another rank while this rank was on the table
    "rank_played",  # the opponent played a card of this rank this round
    "on_table",  # this rank is on the table now
    "round",  # round of dealing / 6
    "stock",  # stock left / 40
    "hand_size",  # the opponent's hand size / 3
)
WIDTH = len(FEATURES)


def applies(view: PlayerView) -> bool:
    """Whether the model reads this view: a 2-player table where the opponent holds cards
    some of which are hidden in the stock too (otherwise nothing is uncertain)."""
    if view.rules.players != 2 or view.seat < 0 or view.shown:
        return False
    return view.hand_sizes[1 - view.seat] > 0 and view.stock_size > 0


def card_features(view: PlayerView) -> tuple[list[int], list[list[float]]]:
    """The unseen cards (ascending) and each one's feature row (``FEATURES``). Reads only
    ``view``: its own hand, the table, the piles, the counts and the public history."""
    opp = 1 - view.seat
    unseen = cards_of(view.unseen())
    k = view.hand_sizes[opp]
    u = len(unseen)
    prior = log(k / (u - k)) if 0 < k < u else 0.0
    tables = tables_before(view)
    plays = [i for i in round_plays(view) if view.history[i][0] == opp]
    weight = [1.0] * NUM_CARDS
    clued = [0] * NUM_CARDS
    for clue in play_clues(view):
        if clue.seat != opp:
            continue
        for c, w in enumerate(clue.weights):
            if w < weight[c]:
                weight[c] = w
            if w < 0.999:
                clued[c] += 1
    missed = [0] * 11
    for seat, r in missed_sweeps(view):
        if seat == opp:
            missed[r] += 1
    laid = [0] * 11
    took = [0] * 11
    played = [0] * 11
    for i in plays:
        code = view.history[i][1]
        if not is_card_play(code):
            continue
        c0 = code & 63
        played[RANK[c0]] += 1
        table = tables[i]
        for r in range(1, 11):
            if table & RANK_MASK[r] and r != RANK[c0]:
                if code >> 6:
                    took[r] += 1
                else:
                    laid[r] += 1
    rows = []
    for c in unseen:
        r = RANK[c]
        w = weight[c]
        x = [0.0] * WIDTH
        x[0] = 1.0
        x[1] = prior
        x[1 + r] = 1.0
        x[12] = 1.0 if SUIT[c] == 0 else 0.0
        x[13] = 1.0 if c == SETTEBELLO else 0.0
        x[14] = len(plays) / 3
        x[15] = w
        x[16] = min(1.0, -log(max(w, 1e-12)) / BETA)
        x[17] = clued[c] / 3
        x[18] = float(missed[r])
        x[19] = float(laid[r])
        x[20] = float(took[r])
        x[21] = float(played[r])
        x[22] = 1.0 if view.table & RANK_MASK[r] else 0.0
        x[23] = view.round / 6
        x[24] = view.stock_size / NUM_CARDS
        x[25] = k / 3
        rows.append(x)
    return unseen, rows


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + exp(-z))
    e = exp(z)
    return e / (1.0 + e)


def normalise(logits: list[float], k: int) -> list[float]:
    """Probabilities ``sigmoid(z + b)`` with the one shift ``b`` that makes them sum to
    ``k`` (bisection; 0 < k < len(logits)), so each stays in (0, 1)."""
    n = len(logits)
    if k <= 0:
        return [0.0] * n
    if k >= n:
        return [1.0] * n
    lo, hi = -60.0, 60.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if sum(_sigmoid(z + mid) for z in logits) < k:
            lo = mid
        else:
            hi = mid
    b = (lo + hi) / 2
    return [_sigmoid(z + b) for z in logits]


class CardModel:
    """A fitted model: ``logit = w . x``, plus, when it has a hidden layer,
    ``w2 . relu(w1 x + b1)`` (``w1``: one row of ``WIDTH`` weights per hidden unit)."""

    __slots__ = ("w", "w1", "b1", "w2", "meta")

    def __init__(
        self,
        w: list[float],
        meta: dict[str, Any] | None = None,
        w1: list[list[float]] | None = None,
        b1: list[float] | None = None,
        w2: list[float] | None = None,
    ) -> None:
        if len(w) != WIDTH:
            raise ValueError(f"a card model needs {WIDTH} weights, not {len(w)}")
        w1, b1, w2 = w1 or [], b1 or [], w2 or []
        if len(b1) != len(w1) or len(w2) != len(w1) or any(len(r) != WIDTH for r in w1):
            raise ValueError("the card model's hidden layer does not match its inputs")
        self.w = tuple(float(v) for v in w)
        self.w1 = tuple(tuple(float(v) for v in r) for r in w1)
        self.b1 = tuple(float(v) for v in b1)
        self.w2 = tuple(float(v) for v in w2)
        self.meta = meta or {}

    def logit(self, x: list[float]) -> float:
        z = sum(a * b for a, b in zip(self.w, x, strict=True))
        for row, b, v in zip(self.w1, self.b1, self.w2, strict=True):
            a = b + sum(p * q for p, q in zip(row, x, strict=True))
            if a > 0.0:
                z += v * a
        return z

    def logits(self, rows: list[list[float]]) -> list[float]:
        return [self.logit(x) for x in rows]

    def marginals(self, view: PlayerView) -> dict[int, float]:
        """P(card in the opponent's hand) for each unseen card, summing to its hand size."""
        unseen, rows = card_features(view)
        k = view.hand_sizes[1 - view.seat]
        return dict(zip(unseen, normalise(self.logits(rows), k), strict=True))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CardModel:
        if data.get("format") != FORMAT or list(data.get("features", [])) != list(FEATURES):
            raise ValueError(f"a card model of format {FORMAT} with these features is needed")
        return cls(data["w"], data.get("meta"), data.get("w1"), data.get("b1"), data.get("w2"))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "features": list(FEATURES), "w": list(self.w)}
        if self.w1:
            out |= {"w1": [list(r) for r in self.w1], "b1": list(self.b1),
                    "w2": list(self.w2)}
        return out | {"meta": self.meta}


def model_path(variant: str) -> Path:
    return NETS_DIR / f"{variant}.json"


@cache
def model_for(variant: str) -> CardModel:
    """The shipped model of a variant (the Scopa one for a variant without its own)."""
    path = model_path(variant)
    if not path.exists():
        path = model_path("scopa")
    return CardModel.from_dict(json.loads(path.read_text()))


def _log_esp(logits: list[float], k: int) -> float:
    """log of the k-th elementary symmetric polynomial of exp(logits) (stable DP)."""
    top = max(logits)
    e = [0.0] * (k + 1)
    e[0] = 1.0
    for z in logits:
        v = exp(z - top)
        for j in range(k, 0, -1):
            e[j] += v * e[j - 1]
    return log(e[k]) + k * top


def layout_log_likelihood(logits: list[float], held: list[bool]) -> float:
    """log P(the opponent holds exactly the cards marked ``held``) under the conditional
    Bernoulli distribution of the logits (hands of the true size only)."""
    k = sum(held)
    return sum(z for z, h in zip(logits, held, strict=True) if h) - _log_esp(logits, k)


def uniform_layout_log_likelihood(u: int, k: int) -> float:
    """log(1 / C(u, k)): every hand of ``k`` of the ``u`` unseen cards alike."""
    return -(lgamma(u + 1) - lgamma(k + 1) - lgamma(u - k + 1))


def clue_posterior(view: PlayerView, unseen: list[int], held: list[bool],
                   beta: float = BETA) -> tuple[list[float], float]:
    """The play model's weighting (``worlds.WorldSampler``'s target, clue kind ``plays``)
    worked out exactly over every hand the opponent may hold: each unseen card's marginal
    and the log probability of the true hand ``held``. Heads-up the clues only concern the
    opponent, so a world's weight depends on its hand alone. ``beta``: the play model's
    sharpness (its own by default; smaller is a tempered verdict)."""
    opp = 1 - view.seat
    k = view.hand_sizes[opp]
    clues = [c for c in play_clues(view, beta) if c.seat == opp]
    total = 0.0
    mass = [0.0] * len(unseen)
    true_w = 0.0
    hands = [0, 0]
    true_set = tuple(i for i, h in enumerate(held) if h)
    for combo in combinations(range(len(unseen)), k):
        m = 0
        for i in combo:
            m |= 1 << unseen[i]
        hands[opp] = m
        w = clue_weight(hands, clues) if clues else 1.0
        total += w
        for i in combo:
            mass[i] += w
        if combo == true_set:
            true_w = w
    return [v / total for v in mass], log(max(true_w, 1e-300) / total)
