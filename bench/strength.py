"""How strong and how fast the bots are: duplicate deals through the arena.

Every figure is a point margin per deal (the same deck played from each seat arrangement, so
the luck of the deal cancels) with its standard error, measured with ``scopa.arena``:

- the pool (``pool2``, ``pool4``): every level against every bot of a sparring pool that is
  not us (``alphabeta`` at three settings, the frozen ``champion-2026-12``), all on the same
  deals, with both sides' time per move and openskill ratings fitted to every pairing at
  once;
- equal time (``equal2``, ``equal4``): each level against ``alphabeta`` (depth 5, as many
  worlds as fit) given the level's own median time per move, measured in the same run
  (from the pool section, else a short calibration against ``alphabeta``); with
  ``--cpu-equal``, equal CPU instead, which a loaded machine does not skew: ``alphabeta``
  at depth 5 with a fixed world count costing the level's CPU time (``process_time``,
  ``bench/cpu_equal.py``) over the same positions (every decision with a choice in
  ``--calibrate`` heuristic self-play hands), at least ``--min-worlds``, so play is also
  independent of the load;
- no opponent assumed (``opponent2``): the champion with and without each part that models
  the opponent (last-round tie-break, learned round value, world weights from the play
  model) against ``alphabeta`` on the same deals, with paired differences;
- the ladder: each level against the one below (2-player Scopa, and Scopone Scientifico);
- ``champion`` (search, 200 ms a move at most) against ``heuristic``;
- ``champion`` against ``oracle`` at the same budget (the price of not seeing the cards);
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

    .venv/bin/python bench/strength.py --only pool2 equal2 opponent2 --deals 400
    .venv/bin/python bench/strength.py --ray 10.0.0.5:6379    # on a Ray cluster's CPUs

Sections: pool2, pool4, equal2, equal4, opponent2,
ladder2, champion2, oracle2, learned2, endgame2, ladder4, champion4,
ladder-cirulla (2-player Cirulla, declarations by choice).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from typing import Any

from scopa import Rules
from scopa.arena import run_arena
from scopa.arena.executor import open_executor
from scopa.arena.stats import fit_subset_ratings
from scopa.bots import Bot, Limit, SearchBot, make_bot, register_bot
from scopa.bots.abpimc import DEFAULT_DEPTH, DEFAULT_WORLDS, AlphaBetaFactory
from scopa.bots.levels import LEVELS, LevelBot

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_equal import (  # noqa: E402
    alphabeta_world_cost,
    cpu_per_move,
    nearest_rank,
    sample_views,
    worlds_costing,
)
from paired import paired  # noqa: E402

CHAMPION = LEVELS["champion"].limit
#: the champion level's own search options (its variants below differ in one part only)
CHAMPION_OPTIONS = dict(LEVELS["champion"].options)


class _Playout:
    """A picklable factory for the champion's search without the learned round value."""

    def __init__(self, limit: Limit = CHAMPION) -> None:
        self.limit = limit

    def __call__(self, seed: int | str | None = None) -> SearchBot:
        return SearchBot(seed, default_limit=self.limit, **{**CHAMPION_OPTIONS, "learned": False})


class _NoModel:
    """A picklable factory for the champion treating the opponent as perfect where nothing
    is hidden (no last-round tie-break, no ``model_value``)."""

    def __init__(self, limit: Limit = CHAMPION) -> None:
        self.limit = limit

    def __call__(self, seed: int | str | None = None) -> SearchBot:
        return SearchBot(seed, default_limit=self.limit,
                         **{**CHAMPION_OPTIONS, "model_ties": False})


class _Uniform:
    """A picklable factory for the champion drawing uniform worlds (no play model)."""

    def __init__(self, limit: Limit = CHAMPION) -> None:
        self.limit = limit

    def __call__(self, seed: int | str | None = None) -> SearchBot:
        return SearchBot(seed, default_limit=self.limit, **{**CHAMPION_OPTIONS, "clues": "none"})


class _Counted:
    """A picklable factory for a level on a simulation count with no clock: a loaded
    machine then gives the same play, only slower (the clock cap keeps people from
    waiting; on a quiet core the count runs out first)."""

    def __init__(self, level: str, simulations: int, heads_up: int | None = None) -> None:
        self.level = level
        self.simulations = simulations
        self.heads_up = heads_up

    def __call__(self, seed: int | str | None = None) -> Bot:
        if self.heads_up is not None and self.heads_up != self.simulations:
            return _PerTable(LevelBot(self.level, seed), self.heads_up, self.simulations)
        return _Fixed(LevelBot(self.level, seed), Limit(simulations=self.simulations))


class _PerTable(Bot):
    """A level's counts with no clock: ``heads_up`` simulations at two players, else
    ``simulations`` (``Level.heads_up``)."""

    def __init__(self, inner: Bot, heads_up: int, simulations: int) -> None:
        super().__init__(None)
        self.inner = inner
        self.limits = {2: Limit(simulations=heads_up)}
        self.other = Limit(simulations=simulations)

    def choose(self, view: Any, limit: Limit | None = None) -> Any:
        return self.inner.choose(view, self.limits.get(view.rules.players, self.other))


class _Fixed(Bot):
    """A bot on a fixed budget, whatever limit the host passes."""

    def __init__(self, inner: Bot, limit: Limit) -> None:
        super().__init__(None)
        self.inner = inner
        self.limit = limit

    def choose(self, view: Any, limit: Limit | None = None) -> Any:
        return self.inner.choose(view, self.limit)


def _register_variants(champion: Limit = CHAMPION) -> None:
    register_bot("champion-playout", _Playout(champion))
    register_bot("champion-nomodel", _NoModel(champion))
    register_bot("champion-uniform", _Uniform(champion))


#: the sparring pool: bots that are not our search (``bots/abpimc.py``, issue 17) and the
#: champion frozen at a commit (``arena/frozen.py``)
POOL2 = ["alphabeta-4x3", "alphabeta", "alphabeta-24x7", "champion-2026-12"]
#: four seats: without ``alphabeta-24x7``, far too slow with ten cards in every hand (one
#: Scopone Scientifico hand did not finish in a minute)
POOL4 = ["alphabeta-4x3", "alphabeta", "champion-2026-12"]
PLAYING_LEVELS = list(LEVELS)
#: sections where each level meets each pool bot: (variant, pool)
POOL_SECTIONS = {"pool2": ("scopa", POOL2), "pool4": ("scopone-scientifico", POOL4)}
#: sections where each level meets alphabeta at the level's median time
EQUAL_SECTIONS = {"equal2": "scopa", "equal4": "scopone-scientifico"}
#: the champion without each part that models the opponent, against alphabeta
OPPONENT_PARTS = ["champion", "champion-nomodel", "champion-playout", "champion-uniform"]


SECTIONS: dict[str, list[tuple[list[str], str, Limit | None]]] = {
    # filled in at run time (``_pool_sections``, ``_equal_time``)
    **{name: [] for name in [*POOL_SECTIONS, *EQUAL_SECTIONS, "opponent2"]},
    "ladder2": [
        (["random", "beginner"], "scopa", None),
        (["beginner", "intermediate"], "scopa", None),
        (["intermediate", "expert"], "scopa", None),
        (["expert", "champion"], "scopa", None),
    ],
    "champion2": [(["heuristic", "champion"], "scopa", None)],
    "oracle2": [(["champion", "oracle"], "scopa", CHAMPION)],
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


def _run(
    bots: list[str], variant: str, limit: Limit | None, section: str, args: Any
) -> dict[str, Any]:
    """One match-up on the run's deals, printed and returned as a report line."""
    start = time.perf_counter()
    res = run_arena(
        bots, Rules.preset(variant), deals=args.deals, jobs=args.jobs, seed=args.seed,
        matches=0, limit=limit, ray=args.ray,
    )
    line = _line(res)
    line["section"] = section
    (a, (a_med, _)), (b, (b_med, _)) = line["move_ms"].items()
    print(
        f"[{section}] {bots[1]} vs {bots[0]} ({variant}, {res.deals} deals): "
        f"{line['margin']:+.3f} ± {line['margin_se']:.3f} points per deal; "
        f"median ms a move {b} {b_med:.1f}, {a} {a_med:.1f} "
        f"({time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    return line


def _median_ms(level: str, variant: str, lines: list[dict[str, Any]], args: Any) -> float:
    """A level's median time per move in ``variant``: from this run's lines, else from a
    short calibration against alphabeta."""
    seen = [ln["move_ms"][level][0] for ln in lines
            if ln["variant"] == variant and level in ln["move_ms"]]
    if seen:
        return statistics.median(seen)
    res = run_arena(["alphabeta", level], Rules.preset(variant), deals=args.calibrate,
                    jobs=args.jobs, seed=f"{args.seed}:calibrate", matches=0, ray=args.ray)
    return 1000 * next(b.move_median for b in res.bots if b.name == level)


def _p99(xs: list[float]) -> float:
    return nearest_rank(xs, 0.99)


def _equal_cpu(section: str, lines: list[dict[str, Any]], args: Any) -> None:
    """Each level against alphabeta (depth 5) with the world count whose CPU matches the
    level's over the same positions (``cpu_equal.py``: every decision with a choice in
    ``--calibrate`` heuristic self-play hands; total CPU, so every move's thinking counts),
    at least ``--min-worlds``."""
    variant = EQUAL_SECTIONS[section]
    views = sample_views(variant, args.calibrate, f"{args.seed}:cpu")
    spent, per_world = alphabeta_world_cost(views, DEFAULT_DEPTH, DEFAULT_WORLDS)
    base = [1000 * t for t in spent]
    print(f"[{section}] CPU ms a move over {len(views)} positions (median, p99, mean): "
          f"alphabeta {statistics.median(base):.2f} {_p99(base):.2f} "
          f"{statistics.mean(base):.2f}", flush=True)
    for level in PLAYING_LEVELS:
        cpu = [1000 * t for t in cpu_per_move(lambda level=level: make_bot(level, 0), views)]
        fair = worlds_costing(statistics.fmean(cpu) / 1000, per_world)
        worlds = max(fair, args.min_worlds)
        name = f"alphabeta-{worlds}x{DEFAULT_DEPTH}"
        print(f"[{section}] CPU ms a move, {level}: {statistics.median(cpu):.2f} "
              f"{_p99(cpu):.2f} {statistics.mean(cpu):.2f}: alphabeta costs that with "
              f"{fair} worlds, plays {worlds}", flush=True)
        register_bot(name, AlphaBetaFactory(worlds, DEFAULT_DEPTH))
        line = _run([name, level], variant, None, section, args)
        line["cpu_ms"] = {level: [statistics.median(cpu), _p99(cpu), statistics.mean(cpu)],
                          "alphabeta": [statistics.median(base), _p99(base),
                                        statistics.mean(base)],
                          "alphabeta_worlds_equal": fair}
        lines.append(line)


def _equal_time(section: str, lines: list[dict[str, Any]], args: Any) -> None:
    """Each level against alphabeta (depth 5, worlds until the time is up) given the
    level's median time per move."""
    if args.cpu_equal:
        _equal_cpu(section, lines, args)
        return
    variant = EQUAL_SECTIONS[section]
    for level in PLAYING_LEVELS:
        ms = _median_ms(level, variant, lines, args)
        name = f"alphabeta-{ms:.1f}ms"
        register_bot(name, AlphaBetaFactory(1 << 30, DEFAULT_DEPTH, ms / 1000))
        lines.append(_run([name, level], variant, None, section, args))


def _ratings(section: str, lines: list[dict[str, Any]]) -> list[tuple[str, float, float]]:
    """openskill ratings fitted to every pairing of a section at once (same deals)."""
    mine = [ln for ln in lines if ln["section"] == section]
    names = sorted({n for ln in mine for n in ln["bots"]})
    index = {n: i for i, n in enumerate(names)}
    games = []
    for ln in mine:
        a, b = (index[n] for n in ln["bots"])
        games += [{a: -m, b: m} for m in ln["deal_margins"]]
    fitted = fit_subset_ratings(games, len(names))
    return sorted(((n, mu, sigma) for n, (mu, sigma) in zip(names, fitted, strict=True)),
                  key=lambda r: -r[1])


def _ratings_from(paths: list[str]) -> int:
    """Pool ratings over the lines of several saved runs, cut to their common deals."""
    lines: list[dict[str, Any]] = []
    for path in paths:
        with open(path) as f:
            lines += json.load(f)["lines"]
    deals = min(len(ln["deal_margins"]) for ln in lines)
    for ln in lines:
        ln["deal_margins"] = ln["deal_margins"][:deals]
    for section in POOL_SECTIONS:
        if any(ln["section"] == section for ln in lines):
            print(f"[{section}] openskill ratings over every pairing, {deals} deals (mu, sigma):")
            for name, mu, sigma in _ratings(section, lines):
                print(f"  {name:22s} {mu:6.2f} {sigma:5.2f}")
    return 0


def _opponent_report(lines: list[dict[str, Any]]) -> None:
    """Each opponent-modelling part: the champion with it minus without, paired."""
    by = {ln["bots"][1]: ln for ln in lines if ln["section"] == "opponent2"}
    full = next((ln for name, ln in by.items() if name.partition("@")[0] == "champion"), None)
    if full is None:
        return
    print("\nagainst alphabeta, champion minus the champion without a part (paired):")
    for part, ln in by.items():
        if ln is full:
            continue
        try:
            mean, se, _ = paired(ln["deal_margins"], full["deal_margins"])
        except ValueError as err:
            print(f"  {part:20s} {err}")
            continue
        print(f"  {part:20s} {mean:+.3f} ± {se:.3f} points per deal (positive: the part helps)")


def _pool_sections(args: Any) -> Limit:
    """Fill in the pool and opponent sections for this run's levels and clock setting;
    return the champion's budget (the opponent section's variants get it too)."""
    champion, frozen = CHAMPION, "champion-2026-12"
    names = {lv: lv for lv in PLAYING_LEVELS}
    if args.no_clock:
        for lv in PLAYING_LEVELS:
            sims = LEVELS[lv].limit.simulations
            heads_up = LEVELS[lv].limit_for(2).simulations
            if lv == "champion" and args.champion_sims:
                sims = heads_up = args.champion_sims
            if sims is not None:
                names[lv] = f"{lv}@{sims}" if heads_up == sims else f"{lv}@{heads_up}/{sims}"
                register_bot(names[lv], _Counted(lv, sims, heads_up))
        count = args.champion_sims or CHAMPION.simulations
        champion, frozen = Limit(simulations=count), f"champion-2026-12@{count}"
    elif args.champion_sims:
        raise SystemExit("--champion-sims needs --no-clock")
    PLAYING_LEVELS[:] = [names[lv] for lv in PLAYING_LEVELS]
    for name, (variant, pool) in POOL_SECTIONS.items():
        pool = [frozen if b == "champion-2026-12" else b for b in pool
                if args.pool is None or b in args.pool]
        SECTIONS[name] = [([b, lv], variant, None) for lv in PLAYING_LEVELS for b in pool]
    parts = [names.get("champion", "champion"), *(args.parts or OPPONENT_PARTS[1:])]
    SECTIONS["opponent2"] = [(["alphabeta", part], "scopa", None) for part in parts]
    return champion


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--jobs", type=int, default=None,
                   help="worker processes (default 1); with --ray, tasks at once (default: "
                        "the cluster's CPUs)")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="play the deals on the Ray cluster at ADDRESS (scopa.arena.executor)")
    p.add_argument("--seed", default="strength")
    p.add_argument("--only", nargs="*", choices=sorted(SECTIONS), default=None)
    p.add_argument("--levels", nargs="*", choices=PLAYING_LEVELS, default=None,
                   help="only these levels in the pool and equal-time sections")
    p.add_argument("--pool", nargs="*", default=None,
                   help="only these pool bots in the pool sections (names as in POOL2)")
    p.add_argument("--parts", nargs="*", choices=OPPONENT_PARTS[1:], default=None,
                   help="only these variants in opponent2 (besides the champion)")
    p.add_argument("--calibrate", type=int, default=4,
                   help="deals to time a level on when no earlier section did (with "
                        "--cpu-equal: self-play hands to measure CPU a move on)")
    p.add_argument("--cpu-equal", action="store_true",
                   help="equal sections: alphabeta gets a world count costing the level's "
                        "CPU a move (process_time) instead of its wall-clock median")
    p.add_argument("--no-clock", action="store_true",
                   help="search levels and the frozen champion play their simulation "
                        "counts with no clock cap (figures then do not depend on the load)")
    p.add_argument("--champion-sims", type=int, default=None,
                   help="with --no-clock: the champion's (and the frozen one's) simulations "
                        "a move, for a reduced-scale run (default its level's 2000)")
    p.add_argument("--min-worlds", type=int, default=1,
                   help="with --cpu-equal: alphabeta's fewest worlds (12: the floors' "
                        "yardstick, even when the level costs less)")
    p.add_argument("--json", default=None, help="also write the figures to this file")
    p.add_argument("--ratings-from", nargs="*", default=None, metavar="JSON",
                   help="play nothing: fit the pool ratings over the lines of earlier runs "
                        "(same --seed; a shorter run's deals are the longer one's first)")
    args = p.parse_args(argv)
    if args.ratings_from:
        return _ratings_from(args.ratings_from)
    if args.levels:
        PLAYING_LEVELS[:] = args.levels
    _register_variants(_pool_sections(args))
    with contextlib.ExitStack() as stack:
        if args.ray:  # one connection for every match-up (each run_arena call reuses it)
            stack.enter_context(open_executor(args.jobs, args.ray))
        return _sections(args)


def _sections(args: Any) -> int:
    """Play the sections asked for, print and save the figures."""
    lines: list[dict[str, Any]] = []
    times: dict[str, list[float]] = {}
    ratings: dict[str, list[tuple[str, float, float]]] = {}
    for section in args.only or list(SECTIONS):
        if section in EQUAL_SECTIONS:
            _equal_time(section, lines, args)
        for bots, variant, limit in SECTIONS[section]:
            lines.append(_run(bots, variant, limit, section, args))
            _save(args, lines, {})  # a long run killed early keeps what it measured
        if section in POOL_SECTIONS:
            ratings[section] = _ratings(section, lines)
            print(f"\n[{section}] openskill ratings over every pairing (mu, sigma):")
            for name, mu, sigma in ratings[section]:
                print(f"  {name:22s} {mu:6.2f} {sigma:5.2f}")
        if section == "opponent2":
            _opponent_report(lines)
    for line in lines:
        for name, (med, p99) in line["move_ms"].items():
            times.setdefault(f"{name} ({line['variant']})", [med, p99])
    print("\ntime per move (ms): median, p99, median ratio to heuristic in the same variant")
    for key, (med, p99) in sorted(times.items()):
        variant = key.split("(")[1]
        base = times.get(f"heuristic ({variant}") or times.get(f"intermediate ({variant}")
        ratio = f"{med / base[0]:.0f}x" if base and base[0] > 0 else "-"
        print(f"  {key:38s} {med:8.2f} {p99:8.2f}  {ratio}")
    _save(args, lines, ratings, times)
    return 0


def _save(
    args: Any, lines: list[dict[str, Any]], ratings: dict[str, Any],
    times: dict[str, list[float]] | None = None,
) -> None:
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "lines": lines, "times_ms": times or {},
                       "ratings": ratings}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
