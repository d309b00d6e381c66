"""The public path taken apart: ``load_position`` alone, and the ``legal_moves`` / ``play``
/ ``hand_result`` loop alone (2-player Scopa, CPU microseconds a deal, median and minimum
of 5 runs of 3,000 deals). Run as ``PYTHONPATH=<tree>/src python <this script>``."""

import random
import time

import scopa
from scopa.match import Match
from scopa.notation import dump_position, load_position
from scopa.rules import Rules

RULES = Rules.preset("scopa")
POSITIONS = [dump_position(Match(RULES, seed=f"bench-{i}").hand) for i in range(50)]


def load(n: int) -> float:
    t = time.process_time()
    for i in range(n):
        load_position(POSITIONS[i % 50])
    return (time.process_time() - t) / n * 1e6


def play(n: int) -> float:
    rand = random.Random(1).random
    hands = [load_position(POSITIONS[i % 50]) for i in range(n)]
    t = time.process_time()
    for g in hands:
        while not g.hand_over:
            moves = g.legal_moves()
            g.play(moves[int(rand() * len(moves))])
        g.hand_result()
    return (time.process_time() - t) / n * 1e6


load(500)
play(500)
a = sorted(load(3000) for _ in range(5))
b = sorted(play(3000) for _ in range(5))
tree = scopa.__file__.split("/src/")[0]
print(f"{tree}: load {a[2]:.1f} us (min {a[0]:.1f}), play loop {b[2]:.1f} us (min {b[0]:.1f})")
