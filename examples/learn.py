"""A policy learns Scopa against our random and beginner bots, then plays in our arena.

Run: ``.venv/bin/python examples/learn.py [--hands 4000] [--out learning_curve.png]``
(numpy and matplotlib, both in the ``rl`` extra; a few minutes on two cores).

The policy is a softmax over the legal actions of ``scopa.rl.SingleAgentEnv`` whose logits
are linear in a few features of each action read off the observation vector (docs/rl.md):
for "play card c", whether it captures (the table holds c's rank, or cards adding up to
it), what it would take (a coin of its rank, the settebello, the whole table: a sweep) and
what c is (rank, coin, seven, settebello), and for a laid card whether it leaves the table
open to a sweep; for "take table card t", what t is. The features are shared by the four
suits, so 33 weights are learned, not thousands.

Training is REINFORCE with a leave-one-out baseline (RLOO): each deal is played ``--k``
times from the same seed (same cards, same seat, same bot seeds), and each play's
advantage is its margin minus the mean margin of the others, so the luck of the deal
cancels. Half the deals are against ``random``, half against ``beginner`` (the greedy
bot). The learning curve (mean margin per batch against each) goes to a PNG; the greedy
policy then plays duplicate deals against both bots in our arena, as a ``PolicyBot``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from scopa import Rules
from scopa.arena import run_arena
from scopa.bots import register_bot
from scopa.rl import NUM_ACTIONS, Layout, SingleAgentEnv
from scopa.rl.policy_bot import PolicyBot

OPPONENTS = ("random", "beginner")


class Adam:
    """Adam ascent on one weight array."""

    def __init__(self, shape: tuple[int, ...], lr: float) -> None:
        self.w = np.zeros(shape)
        self.m = np.zeros(shape)
        self.v = np.zeros(shape)
        self.t = 0
        self.lr = lr

    def step(self, grad: np.ndarray) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad**2
        m_hat = self.m / (1 - 0.9**self.t)
        v_hat = self.v / (1 - 0.999**self.t)
        self.w += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


#: per card: its rank (one-hot), coin, seven, settebello
_CARD = np.array(
    [[float(c % 10 == r) for r in range(10)] + [float(c < 10), float(c % 10 == 6), float(c == 6)]
     for c in range(40)]
)
_RANK = np.arange(40) % 10
CAPTURE, LAY, TAKE_F = 6, _CARD.shape[1] + 1, _CARD.shape[1]
FEATURES = CAPTURE + LAY + TAKE_F


class FeaturePolicy:
    """logits = Phi(x) theta over the legal actions (see the module docstring)."""

    def __init__(self, layout: Layout, lr: float, rng: np.random.Generator) -> None:
        self.table = slice(*layout.sections["table"])
        self.table_ranks = slice(*layout.sections["table_ranks"])
        self.rng = rng
        self.theta = Adam((FEATURES,), lr)

    def features(self, obs: np.ndarray) -> np.ndarray:
        phi = np.zeros((NUM_ACTIONS, FEATURES))
        table = obs[self.table].reshape(4, 10)
        counts = obs[self.table_ranks] * 4
        same = counts[_RANK]  # table cards of each card's rank
        sums = 1  # bit s: some table cards add up to s
        for rank in range(10):
            for _ in range(int(round(counts[rank]))):
                sums |= sums << (rank + 1)
        by_sum = np.array([sums >> (r + 1) & 1 for r in range(10)], dtype=bool)[_RANK]
        takes = (same > 0) | by_sum
        on_table = counts.sum()
        total = (counts * np.arange(1, 11)).sum()
        cap = phi[:40, :CAPTURE]
        cap[:, 0] = takes
        cap[:, 1] = takes * table[0, _RANK]  # a coin of that rank to take
        cap[:, 2] = takes * (_RANK == 6) * table[0, 6]  # the settebello to take
        cap[:, 3] = takes * ((on_table == 1) | (total == _RANK + 1))  # the whole table: a sweep
        cap[:, 4] = takes * _CARD[:, 10]  # the card played is a coin
        cap[:, 5] = takes * _CARD[:, 12]  # ... the settebello
        lay = phi[:40, CAPTURE : CAPTURE + LAY]
        lay[:, :-1] = _CARD * ~takes[:, None]
        lay[:, -1] = ~takes * (total + _RANK + 1 <= 10)  # leaves a table one card can sweep
        phi[40:, CAPTURE + LAY :] = _CARD
        return phi

    def probs(self, obs: np.ndarray, mask: np.ndarray, phi: np.ndarray | None = None):
        phi = self.features(obs) if phi is None else phi
        logits = np.where(mask > 0, phi @ self.theta.w, -np.inf)
        e = np.exp(logits - logits.max())
        return e / e.sum()

    def sample(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.rng.choice(NUM_ACTIONS, p=self.probs(obs, mask)))

    def greedy(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(self.probs(obs, mask)))

    def update(self, groups: list[list[tuple[list, float]]]) -> None:
        """One Adam step on the RLOO gradient: per deal, every play's margin minus the mean
        of the other plays of the same deal, on every decision of the play."""
        grad = np.zeros(FEATURES)
        count = 0
        for plays in groups:
            k = len(plays)
            total = sum(m for _, m in plays)
            for steps, margin in plays:
                advantage = margin - (total - margin) / (k - 1)
                for obs, mask, action in steps:
                    phi = self.features(obs)
                    d = -self.probs(obs, mask, phi)
                    d[action] += 1.0
                    grad += advantage * (d @ phi)
                    count += 1
        self.theta.step(grad / max(1, count))


def play_hand(env: SingleAgentEnv, policy: FeaturePolicy, seed: int) -> tuple[list, float]:
    """One hand with the sampling policy: its (obs, mask, action) steps and its margin."""
    obs, _ = env.reset(seed=seed)
    steps = []
    total = 0.0
    done = False
    while not done:
        action = policy.sample(obs["observation"], obs["action_mask"])
        steps.append((obs["observation"], obs["action_mask"], action))
        obs, reward, term, trunc, _ = env.step(action)
        total += reward
        done = term or trunc
    return steps, total


def train(hands: int, deals: int, k: int, seed: int, lr: float) -> tuple[FeaturePolicy, dict]:
    """``deals`` deals a batch, each played ``k`` times, until ``hands`` hands are played."""
    envs = {name: SingleAgentEnv([name]) for name in OPPONENTS}
    policy = FeaturePolicy(Layout(envs["random"].rules), lr, np.random.default_rng(seed))
    curve: dict[str, list[tuple[int, float]]] = {name: [] for name in OPPONENTS}
    played = 0
    batch = 0
    while played < hands:
        groups, names = [], []
        for i in range(deals):
            name = OPPONENTS[i % len(OPPONENTS)]
            deal_seed = seed * 10**7 + batch * deals + i
            groups.append([play_hand(envs[name], policy, deal_seed) for _ in range(k)])
            names.append(name)
        played += deals * k
        batch += 1
        policy.update(groups)
        for name in OPPONENTS:
            margins = [m for n, g in zip(names, groups, strict=True) if n == name for _, m in g]
            curve[name].append((played, float(np.mean(margins))))
    for env in envs.values():
        env.close()
    return policy, curve


def plot(curve: dict, out: str, window: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for name, points in curve.items():
        x = np.array([p[0] for p in points])
        y = np.array([p[1] for p in points])
        k = max(1, min(window, len(y)))
        smooth = np.convolve(y, np.ones(k) / k, mode="valid")
        ax.plot(x, y, alpha=0.25)
        ax.plot(x[k - 1 :], smooth, label=f"against {name} (mean of {k} batches)")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("hands played")
    ax.set_ylabel("point margin per hand")
    ax.set_title("Feature softmax policy, REINFORCE (RLOO), 2-player Scopa")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4000, help="training hands")
    ap.add_argument("--batch", type=int, default=8, help="deals a batch")
    ap.add_argument("--k", type=int, default=4, help="plays of each deal")
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=200, help="arena deals per opponent")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="learning_curve.png")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    start = time.perf_counter()
    policy, curve = train(args.hands, args.batch, args.k, args.seed, args.lr)
    print(f"trained on {args.hands} hands in {time.perf_counter() - start:.0f} s")
    for name, points in curve.items():
        k = max(1, len(points) // 5)
        first = np.mean([p[1] for p in points[:k]])
        last = np.mean([p[1] for p in points[-k:]])
        print(f"  against {name}: {first:+.2f} a hand over the first fifth, {last:+.2f} last")
    plot(curve, args.out, window=max(1, len(curve["random"]) // 20))
    print(f"learning curve: {args.out}")
    rules = Rules.preset("scopa")
    register_bot("learned", lambda seed: PolicyBot(policy.greedy, rules, seed))
    strength = {}
    for name in OPPONENTS:
        res = run_arena(["learned", name], rules, deals=args.deals, jobs=args.jobs,
                        seed=args.seed, matches=0)
        me = res.bots[0]
        strength[name] = (me.margin, me.margin_se)
        print(f"arena, greedy policy against {name}: {me.margin:+.2f} +- {me.margin_se:.2f} "
              f"points a deal over {args.deals} duplicate deals")
    return {"curve": curve, "strength": strength}


if __name__ == "__main__":
    main()
