"""How strong and how fast the bots are: duplicate deals through the arena.

Every figure is a point margin per deal (the same deck played from each seat arrangement, so
the luck of the deal cancels) with its standard error, measured with ``scopa.arena``:

- the ladder: each level against the one below (2-player Scopa, and Scopone Scientifico);
- ``champion`` (search, 200 ms a move at most) against ``heuristic``;
- ``champion`` against ``oracle`` at the same budget (the price of not seeing the cards);
- ``pimc`` against ``ismcts`` at equal time (which search to keep);
- ``champion`` against the same search playing every rollout to the end of the hand
  (``champion-playout``, no learned value between rounds), and that one against
  ``heuristic`` (what the learned value adds);
- ``champion`` against itself treating the opponent as perfect where nothing is hidden
  (``champion-nomodel``: no last-round tie-break by a good player's likely replies), what
  that costs or gains against a strong player;
- time per move of each level, median and 99th percentile, and its ratio to ``heuristic``
  (the baseline measured in the same run).

    .venv/bin/python bench/strength.py                   # everything, 400 deals a match-up
    .venv/bin/python bench/strength.py --deals 60 --only ladder2 --jobs 2
    .venv/bin/python bench/strength.py --json out.json

Sections: ladder2, champion2, oracle2, algorithms2, learned2, endgame2, ladder4, champion4,
ladder-cirulla (2-player Cirulla, declarations by choice).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from scopa import Rules
from scopa.arena import run_arena
from scopa.bots import Limit, SearchBot, register_bot
from scopa.bots.levels import LEVELS

CHAMPION = LEVELS["champion"].limit


class _Algo:
    """A picklable factory for a search bot with a given algorithm and budget."""

    def __init__(self, algorithm: str, simulations: int) -> None:
        self.algorithm = algorithm
        self.simulations = simulations

    def __call__(self, seed: int | str | None = None) -> SearchBot:
        return SearchBot(
            seed, algorithm=self.algorithm, default_limit=Limit(simulations=self.simulations)
        )


class _Playout:
    """A picklable factory for the champion's search without the learned round value."""

    def __call__(self, seed: int | str | None = None) -> SearchBot:
        return SearchBot(seed, default_limit=CHAMPION, learned=False)


class _NoModel:
    """A picklable factory for the champion treating the opponent as perfect where nothing
    is hidden (no last-round tie-break, no ``model_value``)."""

    def __call__(self, seed: int | str | None = None) -> SearchBot:
        return SearchBot(seed, default_limit=CHAMPION, model_ties=False)


def _register_variants() -> None:
    # PIMC spends about half the time per simulation that ISMCTS does (measured below too).
    register_bot("pimc-1200", _Algo("pimc", 1200))
    register_bot("ismcts-600", _Algo("ismcts", 600))
    register_bot("champion-playout", _Playout())
    register_bot("champion-nomodel", _NoModel())


SECTIONS: dict[str, list[tuple[list[str], str, Limit | None]]] = {
    "ladder2": [
        (["random", "beginner"], "scopa", None),
        (["beginner", "intermediate"], "scopa", None),
        (["intermediate", "expert"], "scopa", None),
        (["expert", "champion"], "scopa", None),
    ],
    "champion2": [(["heuristic", "champion"], "scopa", None)],
    "oracle2": [(["champion", "oracle"], "scopa", CHAMPION)],
    "algorithms2": [(["pimc-1200", "ismcts-600"], "scopa", None)],
    "learned2": [
        (["heuristic", "champion-playout"], "scopa", None),
        (["champion-playout", "champion"], "scopa", None),
    ],
    "endgame2": [(["champion-nomodel", "champion"], "scopa", None)],
    "ladder4": [
        (["random", "beginner"], "scopone-scientifico", None),
        (["beginner", "intermediate"], "scopone-scientifico", None),
        (["intermediate", "expert"], "scopone-scientifico", None),
        (["expert", "champion"], "scopone-scientifico", None),
    ],
    "champion4": [(["heuristic", "champion"], "scopone-scientifico", None)],
    "ladder-cirulla": [
        (["random", "beginner"], "cirulla", None),
        (["beginner", "intermediate"], "cirulla", None),
        (["intermediate", "expert"], "cirulla", None),
    ],
}


def _line(res: Any) -> dict[str, Any]:
    a, b = res.bots
    return {
        "bots": [a.name, b.name],
        "variant": res.rules["variant"],
        "deals": res.deals,
        # margin of the second (stronger-meant) bot over the first, per deal
        "margin": b.margin,
        "margin_se": b.margin_se,
        "move_ms": {x.name: [1000 * x.move_median, 1000 * x.move_p99] for x in res.bots},
        "seconds": res.seconds,
        # the second bot's margin on each deal, for paired comparisons between runs
        "deal_margins": [d[1] for d in res.deal_margins],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", default="strength")
    p.add_argument("--only", nargs="*", choices=sorted(SECTIONS), default=None)
    p.add_argument("--json", default=None, help="also write the figures to this file")
    args = p.parse_args(argv)
    _register_variants()
    lines = []
    times: dict[str, list[float]] = {}
    for section in args.only or list(SECTIONS):
        for bots, variant, limit in SECTIONS[section]:
            rules = Rules.preset(variant)
            start = time.perf_counter()
            res = run_arena(
                bots, rules, deals=args.deals, jobs=args.jobs, seed=args.seed,
                matches=0, limit=limit,
            )
            line = _line(res)
            line["section"] = section
            lines.append(line)
            for name, (med, p99) in line["move_ms"].items():
                times.setdefault(f"{name} ({variant})", [med, p99])
            print(
                f"[{section}] {bots[1]} vs {bots[0]} ({variant}, {res.deals} deals): "
                f"{line['margin']:+.3f} ± {line['margin_se']:.3f} points per deal "
                f"({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    print("\ntime per move (ms): median, p99, median ratio to heuristic in the same variant")
    for key, (med, p99) in sorted(times.items()):
        variant = key.split("(")[1]
        base = times.get(f"heuristic ({variant}") or times.get(f"intermediate ({variant}")
        ratio = f"{med / base[0]:.0f}x" if base and base[0] > 0 else "-"
        print(f"  {key:38s} {med:8.2f} {p99:8.2f}  {ratio}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "lines": lines, "times_ms": times}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
