"""Fit the learned value between rounds (``scopa.bots.round_value``) for a heads-up variant.

1. Self-play: the ``heuristic`` bot plays both seats (a share ``--eps`` of plays is random,
   so the positions vary); every position just after a round is dealt is recorded with the
   hand's final point margin, both from the side of the player who leads that round.
   With ``--policy champion`` the champion's search plays instead (``--simulations`` a
   move, valuing round ends with ``--net``, by default the shipped network: expert
   iteration, issue 32), and each position also gets the search's own value of it: the
   leader's root value at the round's first move (the best move's mean over its worlds,
   each searched to the round's end and valued there by the network), a lower-variance
   target than the final margin. ``--target`` picks what is fitted: ``margin``,
   ``search``, or ``mix`` (``--lam`` of the margin plus the rest of the search value).
   Chunks of hands run on ``--jobs`` local processes, or on a Ray cluster (``--ray
   ADDRESS``, ``scopa.arena.executor``); each chunk's seed is derived from its first hand,
   so the positions are the same wherever they are played. ``--data FILE`` keeps them (and
   reads them back when the file exists); ``--epochs 0`` stops there.
2. Fit: a network with one hidden layer, mean squared error, Adam; each epoch permutes the
   three suits other than coins (they play alike in every variant), the last 5% of the
   hands played are held out to report the fit. ``--init FILE`` starts from that network's
   weights (fine-tuning, with ``--lr``) instead of at random.
3. Write the network as JSON (``--out``; by default the file the search loads).

Fitting needs PyTorch and NumPy, which the game does not: ``pip install -e '.[train]'``
(self-play alone needs NumPy; ``--ray`` needs ``'.[ray]'``).
Examples: ``python scripts/train_value.py --variant scopa --hands 1000000``;
``python scripts/train_value.py --policy champion --simulations 500 --hands 3000
--data g1.json --target search --init src/scopa/bots/nets/scopa.json --lr 3e-4 --epochs 6
--out bench/nets/generations/scopa-g1.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import time
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np

from scopa.arena.executor import open_executor
from scopa.bots.base import Limit
from scopa.bots.round_value import (
    FORMAT,
    INPUTS,
    boundary_inputs,
    features,
    given_net,
    load_net,
    net_path,
    self_play_boundaries,
)
from scopa.bots.search import SearchBot, best, exact_heads_up, search_view
from scopa.match import Match
from scopa.rules import Rules
from scopa.scoring import hand_totals
from scopa.view import PlayerView

if TYPE_CHECKING:
    import torch

Inputs = tuple[int, int, int, int, int]
#: a position's inputs, the hand's final margin for its leader, and (champion self-play) the
#: leader's search value of it
Record = tuple[Inputs, int] | tuple[Inputs, int, float]
#: (variant, seed, first hand, hands, random share, policy, simulations, network file)
Task = tuple[str, str, int, int, float, str, int, int, str | None]


def champion_hand(
    rules: Rules, hand_seed: str, rng: random.Random, eps: float, sims: int, value_sims: int,
    net: str | None,
) -> list[Record]:
    """One hand of champion self-play (``SearchBot(algorithm="minimax")`` on ``sims``
    simulations a move, valuing round ends by ``net``): each position just after a round is
    dealt, with the hand's final margin and the leader's root search value there on
    ``value_sims`` simulations, both for the leader. The leader plays the best move of that
    same search (what its ``choose`` does at a round's first move heads-up, where the prior
    is off), so the value costs only its extra simulations; once nothing is hidden its
    ``choose`` plays, breaking exact ties as the level does."""
    value_net = given_net(net) if net else None
    limit = Limit(simulations=sims)
    value_limit = Limit(simulations=value_sims)
    bots = [
        SearchBot(f"{hand_seed}-{s}", algorithm="minimax", default_limit=limit,
                  value_net=value_net)
        for s in range(2)
    ]
    g = Match(rules, hand_seed=hand_seed).hand
    seen: list[tuple[Inputs, int, float]] = []
    rnd = g.round
    fresh = False
    while not g.hand_over:
        bot = bots[g.to_move]
        view = PlayerView.of(g, g.to_move)
        top = None
        if fresh:  # a round just dealt: value it by the search (a random play too)
            stats = search_view(view, value_limit, bot.rng, algorithm="minimax",
                                match_aware=True, value_net=bot.value_net)
            top = best(stats)
            seen.append((boundary_inputs(g), g.to_move, top.mean))
        if eps and rng.random() < eps:
            codes = g.legal_codes()
            g.play_code(codes[rng.randrange(len(codes))])
        elif top is not None and not exact_heads_up(view):
            g.play_code(top.code)
        else:
            g.play(bot.choose(view))
        fresh = not g.hand_over and g.round != rnd
        rnd = g.round
    totals = hand_totals(rules, g.captured, g.scope, g.declared)
    return [(x, totals[lead] - totals[1 - lead], v) for x, lead, v in seen]


def self_play(args: Task) -> list[Record]:
    """Positions between rounds of ``count`` self-play hands, with final margins (and, for
    the champion, its search values)."""
    variant, seed, start, count, eps, policy, sims, value_sims, net = args
    rules = Rules.preset(variant)
    rng = random.Random(f"{seed}-{start}")
    out: list[Record] = []
    for i in range(start, start + count):
        if policy == "champion":
            out += champion_hand(rules, f"{seed}-{i}", rng, eps, sims, value_sims, net)
            continue
        for g, margin in self_play_boundaries(rules, f"{seed}-{i}", rng, eps):
            out.append((boundary_inputs(g), margin))
    return out


def generate(
    variant: str, hands: int, jobs: int | None, eps: float, seed: str, ray: str | None = None,
    chunk: int = 2000, policy: str = "heuristic", sims: int = 500, value_sims: int = 2000,
    net: str | None = None,
) -> list[Record]:
    """The positions of ``hands`` self-play hands, in hand order, played in chunks of
    ``chunk`` hands on local processes or on the Ray cluster at ``ray``."""
    tasks: list[Task] = [
        (variant, seed, k, min(chunk, hands - k), eps, policy, sims, value_sims, net)
        for k in range(0, hands, chunk)
    ]
    data: list[Record] = []
    with open_executor(jobs, ray) as ex:
        print(f"self-play: {hands} hands in {len(tasks)} chunks on {ex.where}", flush=True)
        for part in ex.ordered(self_play, tasks):
            data.extend(part)
    return data


def load_or_generate(args: Any) -> list[Record]:
    """The self-play positions: from ``--data`` when that file exists, else played (and
    written there when ``--data`` is given)."""
    if args.data and os.path.exists(args.data):
        with open(args.data) as f:
            return [(tuple(x), *rest) for x, *rest in json.load(f)]  # type: ignore[misc]
    data = generate(args.variant, args.hands, args.jobs, args.eps, args.seed, args.ray,
                    args.chunk, args.policy, args.simulations, args.value_simulations,
                    args.net)
    if args.data:
        with open(args.data, "w") as f:
            json.dump(data, f)
    return data


def bits(masks: list[int]) -> np.ndarray:
    a = np.array(masks, dtype=np.uint64)
    return ((a[:, None] >> np.arange(40, dtype=np.uint64)) & np.uint64(1)).astype(np.float32)


def encode(records: list[Record], suit_order: tuple[int, int, int] = (1, 2, 3)) -> np.ndarray:
    """``round_value.features`` for many positions at once, the non-coin suits reordered."""
    cols = list(range(10)) + [i for s in suit_order for i in range(10 * s, 10 * s + 10)]
    xs = [r[0] for r in records]
    blocks = [bits([x[k] for x in xs])[:, cols] for k in (1, 2, 0)]
    sweeps = np.array([[x[3]] for x in xs], dtype=np.float32)
    last = np.eye(3, dtype=np.float32)[[x[4] for x in xs]]
    return np.concatenate([*blocks, sweeps, last], axis=1)


TARGETS = ("margin", "search", "mix")


def targets(data: list[Record], target: str, lam: float) -> list[float]:
    """What is fitted for each position: the final margin, the search value, or ``lam``
    of the first plus the rest of the second."""
    if target == "margin":
        return [float(r[1]) for r in data]
    if any(len(r) < 3 for r in data):
        raise SystemExit(f"--target {target} needs champion self-play (--policy champion)")
    search = [float(r[2]) for r in data]  # type: ignore[misc]
    if target == "search":
        return search
    return [lam * r[1] + (1 - lam) * v for r, v in zip(data, search, strict=True)]


def _net(hidden: int, init: str | None) -> torch.nn.Module:
    """A fresh network, or one holding the weights of the network file ``init``."""
    import torch

    net = torch.nn.Sequential(
        torch.nn.Linear(INPUTS, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1)
    )
    if init:
        start = load_net(init)
        if len(start.b1) != hidden:
            raise SystemExit(f"{init} has {len(start.b1)} hidden units, not --hidden {hidden}")
        with torch.no_grad():
            net[0].weight.copy_(torch.tensor(start.w1))
            net[0].bias.copy_(torch.tensor(start.b1))
            net[2].weight.copy_(torch.tensor([start.w2]))
            net[2].bias.fill_(start.b2)
    return net


def _scores(net: torch.nn.Module, x: torch.Tensor, ys: dict[str, torch.Tensor]) -> dict:
    """Held-out mean squared error and R² of ``net`` against each target in ``ys``."""
    import torch

    with torch.no_grad():
        out = net(x).squeeze(-1)
    report = {}
    for name, y in ys.items():
        mse = ((out - y) ** 2).mean().item()
        var = y.var().item()
        r2 = round(1 - mse / var, 4) if var > 0 else None  # one held-out hand's margins
        report[name] = {"mse": round(mse, 4), "r2": r2}
    return report


def fit(
    data: list[Record], ys: list[float], hidden: int, epochs: int, seed: int,
    init: str | None = None, lr: float = 2e-3,
) -> tuple[torch.nn.Module, dict]:
    """Fit (or, from ``init``, fine-tune) on all but the last 5% of the positions (hand
    order: the held-out hands share no hand with the fitted ones); report the held-out fit
    against the fitted target, the margin and (champion data) the search value, before
    and after."""
    import torch

    torch.manual_seed(seed)
    held = max(1, len(data) // 20)
    held_data = data[-held:]
    xv = torch.tensor(encode(held_data))
    yv = torch.tensor(ys[-held:], dtype=torch.float32)
    checks = {"target": yv, "margin": torch.tensor([float(r[1]) for r in held_data])}
    if all(len(r) == 3 for r in held_data):
        checks["search"] = torch.tensor([float(r[2]) for r in held_data])  # type: ignore[misc]
    train = list(zip(data[:-held], ys[:-held], strict=True))
    random.Random(seed).shuffle(train)
    records = [r for r, _ in train]
    y = torch.tensor([t for _, t in train], dtype=torch.float32)
    net = _net(hidden, init)
    before = _scores(net, xv, checks)
    print(f"before: held-out {before}", flush=True)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, max(1, epochs))
    orders = list(itertools.permutations((1, 2, 3)))
    for epoch in range(epochs):
        started = time.time()
        x = torch.tensor(encode(records, orders[epoch % len(orders)]))
        perm = torch.randperm(len(y))
        for k in range(0, len(y), 1024):
            idx = perm[k : k + 1024]
            loss = ((net(x[idx]).squeeze(-1) - y[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        mse = _scores(net, xv, {"target": yv})["target"]["mse"]
        print(f"epoch {epoch}: held-out mse {mse:.4f} ({time.time() - started:.0f} s)", flush=True)
    after = _scores(net, xv, checks)
    print(f"after: held-out {after}", flush=True)
    return net, {
        "held_out_mse": after["target"]["mse"],
        "held_out_r2": after["target"]["r2"],
        "held_out_positions": held,
        "held_out_before": before,
        "held_out_after": after,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="scopa")
    p.add_argument("--hands", type=int, default=1_000_000)
    p.add_argument("--jobs", type=int, default=None,
                   help="local processes (default 2); with --ray, chunks at once (default: "
                        "the cluster's CPUs)")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="play the self-play chunks on the Ray cluster at ADDRESS")
    p.add_argument("--chunk", type=int, default=2000,
                   help="hands a task (each chunk seeds its random plays from its first "
                        "hand: another size gives other positions)")
    p.add_argument("--data", default=None, help="keep the self-play positions in this file "
                   "(and read them from it when it exists)")
    p.add_argument("--eps", type=float, default=0.05, help="share of random plays")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--seed", default="value")
    p.add_argument("--out", default=None, help="default: the file the search loads")
    p.add_argument("--policy", choices=("heuristic", "champion"), default="heuristic",
                   help="who plays the self-play hands")
    p.add_argument("--simulations", type=int, default=500,
                   help="--policy champion: its simulations a move (a round search counts 2.5)")
    p.add_argument("--value-simulations", type=int, default=2000,
                   help="--policy champion: simulations of the search that values each "
                        "round's first position (the champion level's 2000 by default)")
    p.add_argument("--net", default=None,
                   help="--policy champion: the network its search values round ends by "
                        "(default the shipped one)")
    p.add_argument("--target", choices=TARGETS, default="margin",
                   help="what is fitted: the final margin, the champion's search value at "
                        "the round's first move, or --lam of the first and the rest of the "
                        "second")
    p.add_argument("--lam", type=float, default=0.5, help="--target mix: the margin's share")
    p.add_argument("--init", default=None,
                   help="start from this network file's weights (fine-tuning)")
    p.add_argument("--lr", type=float, default=2e-3, help="Adam's learning rate")
    p.add_argument("--note", default=None, help="a sentence for the file's meta")
    a = p.parse_args()
    if a.jobs is None and a.ray is None:
        a.jobs = 2
    started = time.time()
    data = load_or_generate(a)
    print(f"{len(data)} positions from {a.hands} hands ({time.time() - started:.0f} s)")
    if a.epochs == 0:
        return
    import torch

    torch.set_num_threads(a.jobs or 2)
    sample = data[:200]
    if not np.array_equal(encode(sample), np.array([features(*r[0]) for r in sample])):
        raise SystemExit("encode() disagrees with round_value.features()")
    ys = targets(data, a.target, a.lam)
    net, fit_report = fit(data, ys, a.hidden, a.epochs, seed=0, init=a.init, lr=a.lr)
    first, second = net[0], net[2]

    def rounded(t: torch.Tensor) -> list:
        """Six significant digits: the file stays small, the value moves by about 1e-6."""
        text = json.dumps(t.detach().tolist())
        return json.loads(text, parse_float=lambda s: float(f"{float(s):.6g}"))

    out = {
        "format": FORMAT,
        "w1": rounded(first.weight),
        "b1": rounded(first.bias),
        "w2": rounded(second.weight[0]),
        "b2": rounded(second.bias)[0],
        "meta": {
            "variant": a.variant,
            "players": 2,
            "hands": a.hands,
            "positions": len(data),
            "random_share": a.eps,
            "policy": "heuristic self-play" if a.policy == "heuristic" else (
                f"champion self-play (minimax search, {a.simulations} simulations a move, "
                f"{a.value_simulations} at each round's first move, whose root value is the "
                f"search target; round ends valued by {a.net or 'the shipped network'})"
            ),
            "seed": a.seed,
            "hidden": a.hidden,
            "epochs": a.epochs,
            "target": a.target if a.target != "mix" else f"mix, margin share {a.lam}",
            "init": a.init,
            "lr": a.lr,
            **({"note": a.note} if a.note else {}),
            **fit_report,
            "trained": date.today().isoformat(),
        },
    }
    path = a.out or net_path(a.variant)
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"wrote {path}: {fit_report} ({time.time() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
