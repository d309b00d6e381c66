"""How much each level loses a play, as the review measures it: the distribution behind the
review's marks (``scopa.bots.review``: inaccuracy, mistake, blunder).

Each level plays ``--hands`` two-player hands against itself (the same deals for every
level: hand seed ``losses-<n>``), every hand is reviewed at ``--simulations`` a play, and
the losses of the plays that were a choice (more than one legal play) are summed up per
level: percentiles and the share of plays at or above each candidate threshold. Usage:

    .venv/bin/python bench/review_losses.py --hands 30 --simulations 1000
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from scopa import Rules
from scopa.bots import make_bot
from scopa.bots.review import BLUNDER, INACCURACY, MISTAKE, review_record
from scopa.match import Match
from scopa.record import game_record
from scopa.view import PlayerView

LEVELS = ("beginner", "intermediate", "expert", "champion")
CANDIDATES = (0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.5)


def hand_record(level: str, n: int) -> dict[str, object]:
    """One hand of ``level`` against itself on deal ``n``, as a game record."""
    game = Match(Rules.preset(), seed=f"losses-{n}")
    bots = [make_bot(level, seed=f"{n}/{seat}") for seat in (0, 1)]
    h = game.hand
    while not h.hand_over:
        h.play(bots[h.to_move].choose(PlayerView.of(h, h.to_move)))
    return game_record(game, players=[level, level])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--json", help="write every level's losses here")
    args = parser.parse_args()
    out: dict[str, list[float]] = {}
    for level in args.levels.split(","):
        start = time.process_time()
        losses: list[float] = []
        for n in range(args.hands):
            review = review_record(hand_record(level, n), args.simulations, seed=n)
            losses += [p.loss for p in review.plays if p.choices > 1]
        out[level] = losses
        print(f"{level}: {len(losses)} choices, mean loss {statistics.fmean(losses):.3f}, "
              f"p50 {percentile(losses, .5):.3f} p80 {percentile(losses, .8):.3f} "
              f"p90 {percentile(losses, .9):.3f} p95 {percentile(losses, .95):.3f} "
              f"p99 {percentile(losses, .99):.3f} ({time.process_time() - start:.0f} CPU s)")
        print("  share at or above: " + "  ".join(
            f"{c}: {sum(x >= c for x in losses) / len(losses):.1%}" for c in CANDIDATES))
    print(f"marks now: inaccuracy {INACCURACY}, mistake {MISTAKE}, blunder {BLUNDER}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"simulations": args.simulations, "hands": args.hands,
                       "losses": out}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
