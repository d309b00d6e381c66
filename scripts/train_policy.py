"""Fit the ``learned`` bot's move scorer (``scopa.bots.learned``) to the expert's choices.

1. Self-play: the ``expert`` level plays every seat of ``--deals`` hands (on ``--workers``
   local processes, or on a Ray cluster with ``--ray ADDRESS``: ``scopa.arena.executor``);
   at each of its decisions the inputs of every legal move are recorded with the move it
   chose. Each hand's seeds come from its number, so the decisions are the same wherever
   the hands are played.
2. Fit: the scores of a decision's legal moves are a softmax policy; cross-entropy against
   the expert's move, Adam. A share of the decisions is held out to report how often the
   fitted policy's best move is the expert's.
3. Write the network as JSON (``--out``; by default the file the bot loads).

Needs PyTorch and NumPy, which the game does not: ``pip install -e '.[train]'``
(``--ray`` needs ``'.[ray]'``).
Example: ``python scripts/train_policy.py --deals 200 --workers 2``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from datetime import date
from typing import Any

import numpy as np

from scopa import Rules
from scopa.arena.executor import open_executor
from scopa.bots import make_bot
from scopa.bots.learned import INPUTS, MoveScorer, dense, move_inputs, net_path
from scopa.match import Match
from scopa.view import PlayerView

Decision = tuple[list[list[float]], int]


def self_play(args: tuple[str, str, str]) -> list[Decision]:
    """One hand of ``level`` self-play: every decision's dense move inputs and choice."""
    variant, level, seed = args
    rules = Rules.preset(variant)
    game = Match(rules, hand_seed=seed).hand
    bots = [make_bot(level, f"{seed}-{s}") for s in range(rules.players)]
    out: list[Decision] = []
    while not game.hand_over:
        view = PlayerView.of(game, game.to_move)
        moves = view.legal_moves()
        move = bots[game.to_move].choose(view)
        if len(moves) > 1 and not view.deciding:
            out.append(([dense(*move_inputs(view, m)) for m in moves], moves.index(move)))
        game.play(move)
    return out


def batches(data: list[Decision], size: int, rng: random.Random):  # type: ignore[no-untyped-def]  # noqa: ANN201
    import torch

    order = list(range(len(data)))
    rng.shuffle(order)
    for at in range(0, len(order), size):
        chunk = [data[i] for i in order[at : at + size]]
        width = max(len(moves) for moves, _ in chunk)
        x = np.zeros((len(chunk), width, INPUTS), np.float32)
        mask = np.zeros((len(chunk), width), bool)
        y = np.zeros(len(chunk), np.int64)
        for k, (moves, chosen) in enumerate(chunk):
            x[k, : len(moves)] = moves
            mask[k, : len(moves)] = True
            y[k] = chosen
        yield torch.from_numpy(x), torch.from_numpy(mask), torch.from_numpy(y)


def fit(data: list[Decision], hidden: int, epochs: int, seed: int) -> tuple[Any, float]:
    """The fitted network and its agreement with the expert on the held-out decisions."""
    import torch

    rng = random.Random(seed)
    torch.manual_seed(seed)
    rng.shuffle(data)
    held = max(1, len(data) // 10)
    test, train = data[:held], data[held:]
    net = torch.nn.Sequential(
        torch.nn.Linear(INPUTS, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1)
    )
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-5)
    for epoch in range(epochs):
        total = 0.0
        for x, mask, y in batches(train, 128, rng):
            logits = net(x).squeeze(-1).masked_fill(~mask, -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(y)
        if epoch % 5 == 4 or epoch == epochs - 1:
            print(f"epoch {epoch + 1}: train loss {total / len(train):.3f}, "
                  f"held-out agreement {agreement(net, test):.3f}")
    return net, agreement(net, test)


def agreement(net: Any, data: list[Decision]) -> float:
    import torch

    hits = 0
    with torch.no_grad():
        for x, mask, y in batches(data, 512, random.Random(0)):
            logits = net(x).squeeze(-1).masked_fill(~mask, -1e9)
            hits += int((logits.argmax(-1) == y).sum())
    return hits / len(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="scopa")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--workers", type=int, default=None,
                    help="local processes (default 2); with --ray, hands at once (default: "
                         "the cluster's CPUs)")
    ap.add_argument("--ray", default=None, metavar="ADDRESS",
                    help="play the self-play hands on the Ray cluster at ADDRESS")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--data", default=None, help="keep the self-play decisions in this file "
                    "(and read them from it when it exists)")
    args = ap.parse_args()
    start = time.perf_counter()
    if args.data and os.path.exists(args.data):
        with open(args.data) as f:
            data = [(moves, chosen) for moves, chosen in json.load(f)]
    else:
        jobs = [(args.variant, args.level, f"policy-{args.seed}-{h}") for h in range(args.deals)]
        workers = args.workers or (None if args.ray else 2)
        with open_executor(workers, args.ray) as ex:
            print(f"self-play: {args.deals} hands on {ex.where}", flush=True)
            data = [d for hand in ex.ordered(self_play, jobs) for d in hand]
        if args.data:
            with open(args.data, "w") as f:
                json.dump(data, f)
    print(f"{len(data)} decisions from {args.deals} hands of {args.level} self-play "
          f"in {time.perf_counter() - start:.0f} s")
    if args.epochs == 0:
        return
    net, agree = fit(data, args.hidden, args.epochs, args.seed)
    first, _, second = net
    scorer = MoveScorer(
        first.weight.detach().tolist(), first.bias.detach().tolist(),
        second.weight.detach()[0].tolist(), float(second.bias.detach()[0]),
        {"variant": args.variant, "level": args.level, "deals": args.deals,
         "decisions": len(data), "hidden": args.hidden, "epochs": args.epochs,
         "held_out_agreement": round(agree, 3), "date": date.today().isoformat()},
    )
    out = args.out or str(net_path(args.variant))
    data_out = scorer.to_dict()
    # four decimals are plenty for play and keep the shipped file small
    for key in ("w1",):
        data_out[key] = [[round(v, 4) for v in row] for row in data_out[key]]
    data_out["b1"] = [round(v, 4) for v in data_out["b1"]]
    data_out["w2"] = [round(v, 4) for v in data_out["w2"]]
    with open(out, "w") as f:
        json.dump(data_out, f, separators=(",", ":"))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
