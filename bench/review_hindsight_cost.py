"""What the review's hindsight costs next to its fair judgement, in CPU seconds (one core).

Reviews one match record play by play and times each part apart (``time.process_time``):
the fair judgement from the mover's view (``review.review_play``) and the hindsight on the
true position (``hindsight.hindsight``), both at ``--simulations``; it also counts the
plays whose hindsight was solved exactly and how often the two opinions differ. Usage:

    .venv/bin/python bench/review_hindsight_cost.py match.json --simulations 1000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from scopa.bots.hindsight import hindsight
from scopa.bots.review import _seed, decisions, review_play
from scopa.record import load_record


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("record", type=Path)
    ap.add_argument("--simulations", type=int, default=1000)
    ap.add_argument("--seed", default="0")
    args = ap.parse_args()
    rec = load_record(args.record.read_text())
    fair = seen = 0.0
    plays = exact = differ = 0
    for d in decisions(rec):
        t0 = time.process_time()
        judged = review_play(d.view, d.move, d.hand, d.index, args.simulations, args.seed)
        t1 = time.process_time()
        if judged is None:
            continue
        h = hindsight(d.state, d.move, args.simulations,
                      _seed(args.seed, d.hand, d.index) + "/hindsight")
        t2 = time.process_time()
        fair += t1 - t0
        seen += t2 - t1
        plays += 1
        exact += h.exact
        differ += judged.choices > 1 and h.best != judged.best
    print(json.dumps({"plays": plays, "simulations": args.simulations,
                      "fair_cpu_s": round(fair, 2), "hindsight_cpu_s": round(seen, 2),
                      "hindsight_exact_plays": exact, "best_differs": differ}))


if __name__ == "__main__":
    main()
