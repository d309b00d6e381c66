"""How much of the champion's search value at a round boundary no public value can explain.

The self-play target of ``scripts/train_value.py --target search`` is the leader's root
search value at a round's first move. The learned value sees only public facts, so the
part of the target that changes with the leader's own hand (and with the search's
sampled worlds) is out of its reach whatever the data. This estimates that floor: for
positions just after a round is dealt (heuristic self-play, rounds two to six), the
leader's hand is redealt from the unseen cards ``--redeals`` times and searched each time;
the mean within-position variance is the mean squared error a perfect public value would
still make. Two searches of the true hand with different worlds give the search's own
noise, part of that floor.

    .venv/bin/python bench/value_floor.py --hands 12 --redeals 8 --simulations 800 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from scopa import Rules
from scopa.arena.executor import open_executor
from scopa.bots.base import Limit
from scopa.bots.round_value import given_net, self_play_boundaries
from scopa.bots.search import best, search_view
from scopa.cards import cards_of, mask_of
from scopa.hand import Hand
from scopa.view import PlayerView


def redealt(g: Hand, rng: random.Random) -> Hand:
    """``g`` with the unseen cards (both hands and the stock) dealt again at random."""
    lead = g.to_move
    pool = cards_of(g.hands[0] | g.hands[1]) + list(g.stock)
    rng.shuffle(pool)
    k = g.hands[lead].bit_count()
    x = g.copy()
    x.hands[lead] = mask_of(pool[:k])
    x.hands[1 - lead] = mask_of(pool[k : 2 * k])
    x.stock = pool[2 * k :]
    return x


def value(g: Hand, sims: int, seed: str, net: str | None) -> float:
    """The leader's root search value (the champion's search, as the self-play target)."""
    stats = search_view(
        PlayerView.of(g, g.to_move),
        Limit(simulations=sims),
        random.Random(seed),
        algorithm="minimax",
        match_aware=True,
        value_net=given_net(net) if net else None,
    )
    return best(stats).mean


def one_hand(args: tuple[int, int, int, str | None]) -> list[tuple[int, float, float]]:
    """Per boundary of one hand: round, variance over redeals, and the squared difference
    of two searches of the true hand."""
    hand, redeals, sims, net = args
    rules = Rules.preset("scopa")
    rng = random.Random(f"floor-{hand}")
    out = []
    for g, _ in self_play_boundaries(rules, f"floor-{hand}", rng):
        vals = [value(redealt(g, rng), sims, f"{hand}-{g.round}-{k}", net) for k in range(redeals)]
        twice = [value(g, sims, f"{hand}-{g.round}-same-{k}", net) for k in range(2)]
        out.append((g.round, statistics.variance(vals), (twice[0] - twice[1]) ** 2))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=12)
    p.add_argument("--redeals", type=int, default=8)
    p.add_argument("--simulations", type=int, default=800)
    p.add_argument("--net", default=None, help="the network the search uses (default shipped)")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    tasks = [(h, args.redeals, args.simulations, args.net) for h in range(args.hands)]
    with open_executor(args.jobs) as ex:
        rows = [r for part in ex.ordered(one_hand, tasks) for r in part]
    for rnd in sorted({r for r, _, _ in rows}):
        mine = [(v, d) for r, v, d in rows if r == rnd]
        print(
            f"round {rnd + 1}: {len(mine)} positions, variance over redeals of the leader's "
            f"hand {statistics.fmean(v for v, _ in mine):.3f}, search noise "
            f"{statistics.fmean(d for _, d in mine) / 2:.3f}"
        )
    within = [v for _, v, _ in rows]
    noise = [d / 2 for _, _, d in rows]
    se = statistics.stdev(within) / len(within) ** 0.5
    print(
        f"all {len(rows)} positions: floor (mean variance over redeals) "
        f"{statistics.fmean(within):.3f} ± {se:.3f}, of which search noise "
        f"{statistics.fmean(noise):.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
