"""Fit the learned value between rounds (``scopa.bots.round_value``) for a heads-up variant.

1. Self-play: the ``heuristic`` bot plays both seats (a share ``--eps`` of plays is random,
   so the positions vary); every position just after a round is dealt is recorded with the
   hand's final point margin, both from the side of the player who leads that round.
   Chunks of hands run on ``--jobs`` local processes, or on a Ray cluster (``--ray
   ADDRESS``, ``scopa.arena.executor``); each chunk's seed is derived from its first hand,
   so the positions are the same wherever they are played. ``--data FILE`` keeps them (and
   reads them back when the file exists); ``--epochs 0`` stops there.
2. Fit: a network with one hidden layer, mean squared error, Adam; each epoch permutes the
   three suits other than coins (they play alike in every variant), 5% of the positions
   are held out to report the fit.
3. Write the network as JSON (``--out``; by default the file the search loads).

Fitting needs PyTorch and NumPy, which the game does not: ``pip install -e '.[train]'``
(self-play alone needs NumPy; ``--ray`` needs ``'.[ray]'``).
Example: ``python scripts/train_value.py --variant scopa --hands 1000000``.
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
from scopa.bots.round_value import (
    FORMAT,
    INPUTS,
    boundary_inputs,
    features,
    net_path,
    self_play_boundaries,
)
from scopa.rules import Rules

if TYPE_CHECKING:
    import torch

Record = tuple[tuple[int, int, int, int, int], int]


def self_play(args: tuple[str, str, int, int, float]) -> list[Record]:
    """Positions between rounds of ``count`` heuristic self-play hands, with final margins."""
    variant, seed, start, count, eps = args
    rules = Rules.preset(variant)
    rng = random.Random(f"{seed}-{start}")
    out: list[Record] = []
    for i in range(start, start + count):
        for g, margin in self_play_boundaries(rules, f"{seed}-{i}", rng, eps):
            out.append((boundary_inputs(g), margin))
    return out


def generate(
    variant: str, hands: int, jobs: int | None, eps: float, seed: str, ray: str | None = None,
    chunk: int = 2000,
) -> list[Record]:
    """The positions of ``hands`` self-play hands, in hand order, played in chunks of
    ``chunk`` hands on local processes or on the Ray cluster at ``ray``."""
    tasks = [(variant, seed, k, min(chunk, hands - k), eps) for k in range(0, hands, chunk)]
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
            return [(tuple(x), y) for x, y in json.load(f)]
    data = generate(args.variant, args.hands, args.jobs, args.eps, args.seed, args.ray,
                    args.chunk)
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
    xs = [x for x, _ in records]
    blocks = [bits([x[k] for x in xs])[:, cols] for k in (1, 2, 0)]
    sweeps = np.array([[x[3]] for x in xs], dtype=np.float32)
    last = np.eye(3, dtype=np.float32)[[x[4] for x in xs]]
    return np.concatenate([*blocks, sweeps, last], axis=1)


def fit(data: list[Record], hidden: int, epochs: int, seed: int) -> tuple[torch.nn.Module, dict]:
    import torch

    torch.manual_seed(seed)
    random.Random(seed).shuffle(data)
    held = len(data) // 20
    xv = torch.tensor(encode(data[:held]))
    yv = torch.tensor([y for _, y in data[:held]], dtype=torch.float32)
    train = data[held:]
    y = torch.tensor([y for _, y in train], dtype=torch.float32)
    net = torch.nn.Sequential(
        torch.nn.Linear(INPUTS, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1)
    )
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    orders = list(itertools.permutations((1, 2, 3)))
    mse = float("nan")
    for epoch in range(epochs):
        started = time.time()
        x = torch.tensor(encode(train, orders[epoch % len(orders)]))
        perm = torch.randperm(len(y))
        for k in range(0, len(y), 1024):
            idx = perm[k : k + 1024]
            loss = ((net(x[idx]).squeeze(-1) - y[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        with torch.no_grad():
            mse = ((net(xv).squeeze(-1) - yv) ** 2).mean().item()
        print(f"epoch {epoch}: held-out mse {mse:.4f} ({time.time() - started:.0f} s)", flush=True)
    var = yv.var().item()
    return net, {"held_out_mse": round(mse, 4), "held_out_r2": round(1 - mse / var, 4)}


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
    if not np.array_equal(encode(sample), np.array([features(*x) for x, _ in sample])):
        raise SystemExit("encode() disagrees with round_value.features()")
    net, fit_report = fit(data, a.hidden, a.epochs, seed=0)
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
            "policy": "heuristic self-play",
            "seed": a.seed,
            "hidden": a.hidden,
            "epochs": a.epochs,
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
