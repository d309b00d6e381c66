"""Fit and measure the learned card-location model (``scopa.bots.card_model``, issue 32).

1. Games: heads-up Scopa hands between members of a pool of players; at every turn of
   either seat where something is hidden (``card_model.applies``) the features of each
   unseen card are recorded from that seat's view, with where the card truly is (the
   opponent's hand or the stock). The training pool and the test pool share no player:
   the test measures the model on opponents it never saw.
2. Fit: logistic regression (NumPy, Newton steps with a small L2 penalty).
3. Measure on the test hands, per decision point: the per-card log-likelihood of the true
   locations (sum over unseen cards of log p(true location), every method's probabilities
   summing to the opponent's hand size), and the log-likelihood of the true hand as a
   whole, for uniform, the play model's clue weighting (worked out exactly over every hand
   the opponent may hold) and the learned model.
4. Write the model as JSON (``--out``; by default the file ``model_for`` loads).

Needs NumPy (the ``rl`` or ``train`` extra); the game does not.
Example: ``python scripts/train_card_model.py --train-deals 300 --test-deals 60``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from datetime import date
from math import log
from typing import Any

import numpy as np

from scopa.bots import make_bot
from scopa.bots.base import Bot, Limit
from scopa.bots.card_model import (
    FEATURES,
    CardModel,
    applies,
    card_features,
    clue_posterior,
    layout_log_likelihood,
    model_path,
    normalise,
    uniform_layout_log_likelihood,
)
from scopa.match import Match
from scopa.moves import Move
from scopa.view import PlayerView


class Noisy(Bot):
    """A bot that plays a uniformly random legal move with probability ``eps``."""

    def __init__(self, base: Bot, eps: float, seed: str) -> None:
        super().__init__(seed)
        self.base, self.eps, self.coin = base, eps, random.Random(f"noise-{seed}")

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        if self.coin.random() < self.eps:
            return self.coin.choice(view.legal_moves())
        return self.base.choose(view, limit)


#: name -> (registered bot, epsilon)
TRAIN_POOL = {
    "random": ("random", 0.0),
    "beginner": ("beginner", 0.0),
    "intermediate": ("intermediate", 0.0),
    "heuristic-eps0.25": ("heuristic", 0.25),
    "greedy-eps0.25": ("greedy", 0.25),
    "alphabeta-4x3": ("alphabeta-4x3", 0.0),
    "learned": ("learned", 0.0),
}
TEST_POOL = {
    "expert": ("expert", 0.0),
    "alphabeta": ("alphabeta", 0.0),
    "learned-eps0.1": ("learned", 0.1),
}
#: the play model's home ground, for reference: the heuristic bot it models exactly (in the
#: training pool, so not a held-out figure for the learned model)
HOME_POOL = {"intermediate": ("intermediate", 0.0)}


def player(spec: tuple[str, float], seed: str) -> Bot:
    name, eps = spec
    bot = make_bot(name, seed)
    return Noisy(bot, eps, seed) if eps else bot


Point = dict[str, Any]


#: tempered play models measured beside the play model's own sharpness (``--betas``)
BETAS: list[float] = []


def play_hand(pool: dict[str, tuple[str, float]], seed: str, exact: bool) -> list[Point]:
    """One hand between two members of ``pool`` drawn by ``seed``; every decision point's
    features and truth (and with ``exact`` the play model's posterior)."""
    rng = random.Random(seed)
    names = [rng.choice(sorted(pool)) for _ in range(2)]
    bots = [player(pool[n], f"{seed}-{s}") for s, n in enumerate(names)]
    game = Match.new("scopa", seed=seed).hand
    out: list[Point] = []
    while not game.hand_over:
        seat = game.to_move
        view = PlayerView.of(game, seat)
        if applies(view):
            opp = 1 - seat
            unseen, rows = card_features(view)
            held = [bool(game.hands[opp] >> c & 1) for c in unseen]
            point: Point = {"opp": names[opp], "x": rows, "y": held,
                            "k": view.hand_sizes[opp], "hand": seed}
            if exact:
                point["clue_p"], point["clue_ll"] = clue_posterior(view, unseen, held)
                for beta in BETAS:
                    point[f"clue_p_{beta:g}"], point[f"clue_ll_{beta:g}"] = clue_posterior(
                        view, unseen, held, beta)
            out.append(point)
        game.play(bots[seat].choose(view))
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float, steps: int) -> np.ndarray:
    """Logistic regression by Newton's method (L2 on every weight but the bias)."""
    w = np.zeros(x.shape[1])
    reg = np.full(x.shape[1], l2)
    reg[0] = 0.0
    for step in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + reg * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(reg + 1e-9)
        w -= np.linalg.solve(hess, grad)
        nll = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        print(f"  newton step {step + 1}: train loss per card {nll:.4f}")
    return w


def fit_hidden(x: np.ndarray, y: np.ndarray, w: np.ndarray, hidden: int, epochs: int,
               seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A hidden ReLU layer beside the fitted linear part (started from it), Adam on
    minibatches of the cross-entropy; returns (w, w1, b1, w2)."""
    rng = np.random.default_rng(seed)
    params = [w.copy(), rng.normal(0.0, 0.1, (hidden, x.shape[1])), np.zeros(hidden),
              np.zeros(hidden)]
    m = [np.zeros_like(q) for q in params]
    v = [np.zeros_like(q) for q in params]
    t = 0
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        total = 0.0
        for at in range(0, len(y), 4096):
            idx = order[at : at + 4096]
            xb, yb = x[idx], y[idx]
            wl, w1, b1, w2 = params
            a = xb @ w1.T + b1
            h = np.maximum(a, 0.0)
            p = 1.0 / (1.0 + np.exp(-(xb @ wl + h @ w2)))
            total -= float(np.sum(yb * np.log(p + 1e-12) + (1 - yb) * np.log(1 - p + 1e-12)))
            g = (p - yb) / len(yb)
            gh = np.outer(g, w2) * (a > 0)
            grads = [xb.T @ g, gh.T @ xb + 1e-4 * w1, gh.sum(0), h.T @ g]
            t += 1
            for i, gr in enumerate(grads):
                m[i] = 0.9 * m[i] + 0.1 * gr
                v[i] = 0.999 * v[i] + 0.001 * gr * gr
                params[i] -= 1e-3 * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
        print(f"  epoch {epoch + 1}: train loss per card {total / len(y):.4f}", flush=True)
    return params[0], params[1], params[2], params[3]


def card_ll(p: list[float], held: list[bool]) -> float:
    """Sum over the unseen cards of log p(true location)."""
    eps = 1e-9
    return sum(log(max(q, eps)) if h else log(max(1 - q, eps)) for q, h in zip(p, held,
                                                                                strict=True))


def measure(points: list[Point], model: CardModel) -> dict[str, dict[str, float]]:
    """Mean per-point log-likelihoods by method, overall and by opponent."""
    groups: dict[str, list[Point]] = {"all": points}
    for pt in points:
        groups.setdefault(pt["opp"], []).append(pt)
    table: dict[str, dict[str, float]] = {}
    for name, pts in groups.items():
        sums = {k: 0.0 for k in ("uniform_card", "clues_card", "learned_card",
                                 "uniform_hand", "clues_hand", "learned_hand")}
        for pt in pts:
            held, k, n = pt["y"], pt["k"], len(pt["y"])
            sums["uniform_card"] += card_ll([k / n] * n, held)
            sums["clues_card"] += card_ll(pt["clue_p"], held)
            z = model.logits(pt["x"])
            sums["learned_card"] += card_ll(normalise(z, k), held)
            sums["uniform_hand"] += uniform_layout_log_likelihood(n, k)
            sums["clues_hand"] += pt["clue_ll"]
            sums["learned_hand"] += layout_log_likelihood(z, held)
        table[name] = {k: v / len(pts) for k, v in sums.items()} | {"points": len(pts)}
    return table


def tempered(points: list[Point]) -> None:
    """The play model at each ``--betas`` sharpness: mean per-card and whole-hand
    log-likelihood per point, and the hand one paired against uniform."""
    for beta in BETAS:
        key = f"{beta:g}"
        if not points or f"clue_ll_{key}" not in points[0]:
            continue
        card = sum(card_ll(pt[f"clue_p_{key}"], pt["y"]) for pt in points) / len(points)
        hand = sum(pt[f"clue_ll_{key}"] for pt in points) / len(points)
        shifted = [pt | {"clue_ll": pt[f"clue_ll_{key}"]} for pt in points]
        mean, se = paired_by_hand(shifted, None, "clues", "uniform")
        print(f"  beta {key:>4}: card {card:.3f}, hand {hand:.3f}, hand - uniform "
              f"{mean:+.4f} ± {se:.4f}")


def paired_by_hand(points: list[Point], model: CardModel | None, a: str,
                   b: str) -> tuple[float, float]:
    """Mean per point of hand log-likelihood ``a`` minus ``b`` and its standard error,
    hands as the independent units (a hand's points are not independent)."""
    per: dict[str, list[float]] = {}
    for pt in points:
        held, k, n = pt["y"], pt["k"], len(pt["y"])
        values = {"uniform": uniform_layout_log_likelihood(n, k), "clues": pt["clue_ll"]}
        if model is not None:
            values["learned"] = layout_log_likelihood(model.logits(pt["x"]), held)
        d = per.setdefault(pt["hand"], [0.0, 0.0])
        d[0] += values[a] - values[b]
        d[1] += 1
    means = [d / m for d, m in per.values()]
    mean = sum(d for d, _ in per.values()) / sum(m for _, m in per.values())
    var = sum((x - mean) ** 2 for x in means) / max(1, len(means) - 1)
    return mean, (var / len(means)) ** 0.5


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train-deals", type=int, default=300)
    ap.add_argument("--test-deals", type=int, default=60)
    ap.add_argument("--home-deals", type=int, default=60,
                    help="hands between heuristic players, the play model's home ground")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--hidden", type=int, default=0,
                    help="hidden ReLU units beside the linear part (0: logistic only)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--betas", type=float, nargs="*", default=[],
                    help="also measure the play model at these sharpnesses (its own: "
                         "play_model.BETA)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--data", default=None, help="keep the recorded points in this JSON "
                    "file (and read them from it when it exists)")
    args = ap.parse_args()
    BETAS[:] = args.betas
    start = time.perf_counter()
    try:
        with open(args.data or "") as f:
            train, test, home = json.load(f)
        print(f"read {args.data}")
    except (FileNotFoundError, OSError):
        train = [pt for h in range(args.train_deals)
                 for pt in play_hand(TRAIN_POOL, f"cards-train-{args.seed}-{h}", False)]
        print(f"{len(train)} training points from {args.train_deals} hands "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
        test = [pt for h in range(args.test_deals)
                for pt in play_hand(TEST_POOL, f"cards-test-{args.seed}-{h}", True)]
        print(f"{len(test)} test points from {args.test_deals} hands "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
        home = [pt for h in range(args.home_deals)
                for pt in play_hand(HOME_POOL, f"cards-home-{args.seed}-{h}", True)]
        print(f"{len(home)} reference points from {args.home_deals} hands "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
        if args.data:
            with open(args.data, "w") as f:
                json.dump([train, test, home], f)
    x = np.array([row for pt in train for row in pt["x"]], float)
    y = np.array([h for pt in train for h in pt["y"]], float)
    print(f"fit on {len(y)} cards ({len(train)} points)")
    w = fit(x, y, args.l2, args.steps)
    meta = {"variant": "scopa", "train_pool": sorted(TRAIN_POOL),
            "train_deals": args.train_deals, "points": len(train), "cards": len(y),
            "l2": args.l2, "hidden": args.hidden, "date": date.today().isoformat()}
    if args.hidden:
        w, w1, b1, w2 = fit_hidden(x, y, w, args.hidden, args.epochs, args.seed)
        meta["epochs"] = args.epochs
        model = CardModel([round(float(v), 5) for v in w], meta,
                          [[round(float(v), 5) for v in r] for r in w1],
                          [round(float(v), 5) for v in b1], [round(float(v), 5) for v in w2])
    else:
        model = CardModel([round(float(v), 5) for v in w], meta)
    table = measure(test, model)
    model.meta["test"] = {"pool": sorted(TEST_POOL), "deals": args.test_deals,
                          "all": {k: round(v, 4) for k, v in table["all"].items()}}
    if home:
        table["home: " + ",".join(HOME_POOL)] = measure(home, model)["all"]
    print("\nmean log-likelihood per decision point (test pool, held out; then the play "
          "model's home ground, in the training pool):")
    print(f"{'opponent':<16}{'points':>7}  {'card: unif':>10}{'clues':>9}{'learned':>9}"
          f"  {'hand: unif':>10}{'clues':>9}{'learned':>9}")
    for name, row in table.items():
        print(f"{name:<16}{row['points']:>7.0f}  {row['uniform_card']:>10.3f}"
              f"{row['clues_card']:>9.3f}{row['learned_card']:>9.3f}  "
              f"{row['uniform_hand']:>10.3f}{row['clues_hand']:>9.3f}{row['learned_hand']:>9.3f}")
    print("\nhand log-likelihood per point, paired, hands as units (mean ± s.e.):")
    for label, pts in (("held out", test), ("home", home)):
        for a, b in (("learned", "uniform"), ("clues", "uniform"), ("learned", "clues")):
            if pts:
                mean, se = paired_by_hand(pts, model, a, b)
                print(f"  {label:9s} {a} - {b}: {mean:+.4f} ± {se:.4f}")
    if BETAS:
        for label, pts in (("held out", test), ("home", home)):
            print(f"\ntempered play model, {label}:")
            tempered(pts)
    print("\nweights:", ", ".join(f"{n} {v:+.3f}" for n, v in zip(FEATURES, w, strict=True)))
    out = args.out or str(model_path("scopa"))
    if out != "-":
        model_path("scopa").parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w") as f:
            json.dump(model.to_dict(), f, indent=1)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
