"""run_arena: reproducible from its seed whatever the number of jobs; a full report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from scopa.arena import run_arena
from scopa.protocol import BotProtocolError
from scopa.rules import Rules

RULES = Rules.preset("scopa")
FAKE = Path(__file__).parents[1] / "protocol" / "fake_bot.py"
#: two outside programs whose command lines agree for far longer than 40 characters
SHARED = f"{sys.executable} {FAKE} good --comment {'a-long-shared-prefix-' * 3}"


def _stable(result: object) -> dict[str, object]:
    """The result without wall-clock figures."""
    d = result.to_dict()  # type: ignore[attr-defined]
    d.pop("seconds")
    d.pop("jobs")
    for b in d["bots"]:
        for key in ("move_median", "move_p99"):
            b.pop(key)
    return d


def test_same_seed_same_result_serial_and_parallel() -> None:
    a = run_arena(["random", "greedy"], RULES, deals=12, jobs=1, seed=5, matches=2)
    b = run_arena(["random", "greedy"], RULES, deals=12, jobs=2, seed=5, matches=2)
    assert _stable(a) == _stable(b)


def test_other_seed_other_deals() -> None:
    a = run_arena(["random", "random"], RULES, deals=10, seed=1, matches=0)
    b = run_arena(["random", "random"], RULES, deals=10, seed=2, matches=0)
    assert a.deal_margins != b.deal_margins


def test_report_fields() -> None:
    calls: list[tuple[int, int]] = []
    r = run_arena(["random", "greedy"], RULES, deals=20, seed=3, matches=2,
                  progress=lambda p: calls.append((p.done, p.total)))
    assert calls == [(i, 22) for i in range(23)]  # the plan, then one per deal or match
    assert [b.name for b in r.bots] == ["random", "greedy"]
    assert [b.command for b in r.bots] == [None, None]
    assert r.bots[0].margin == pytest.approx(-r.bots[1].margin)
    assert r.bots[0].margin == pytest.approx(sum(d[0] for d in r.deal_margins) / 20)
    for b in r.bots:
        assert b.margin_se > 0
        assert b.win_rate is not None and 0 <= b.win_rate <= 1
        assert b.deals_won + b.deals_drawn + b.deals_lost == 20
        assert b.moves > 0 and 0 < b.move_median <= b.move_p99
        assert b.rating_sigma > 0
    json.dumps(r.to_dict())


def test_ratings_are_fitted_to_the_deals_whatever_their_order() -> None:
    from scopa.arena.stats import fit_ratings

    r = run_arena(["greedy", "random"], RULES, deals=30, seed=4)
    fitted = fit_ratings(r.deal_margins, 2)
    assert fitted == fit_ratings(r.deal_margins[::-1], 2)
    assert [(b.rating_mu, b.rating_sigma) for b in r.bots] == fitted
    assert r.bots[0].rating_mu > r.bots[1].rating_mu  # greedy: better margin, more deals


def test_deal_records_always_and_match_figures_only_when_played() -> None:
    r = run_arena(["greedy", "random"], RULES, deals=30, seed=4)
    assert r.matches == 0  # matches are opt-in
    for b, sign in zip(r.bots, (1, -1), strict=True):
        margins = [sign * d[0] for d in r.deal_margins]
        assert b.deals_won == sum(m > 0 for m in margins)
        assert b.deals_lost == sum(m < 0 for m in margins)
        assert b.deals_drawn == sum(m == 0 for m in margins)
        assert b.win_rate is None and b.win_rate_se is None
    d = r.to_dict()["bots"][0]
    assert d["win_rate"] is None and d["win_rate_se"] is None
    assert r.bots[0].deals_won == r.bots[1].deals_lost


def test_progress_starts_with_the_plan_and_tracks_the_margin() -> None:
    seen: list[Any] = []
    r = run_arena(["greedy", "random"], Rules.preset("scopone"), deals=6, seed=2, matches=1,
                  progress=seen.append)
    plan = seen[0].plan
    assert (seen[0].done, plan.deals, plan.matches, plan.seatings) == (0, 6, 1, 2)
    assert plan.names == ["greedy", "random"]
    assert "6 duplicate deals x 2 seatings (12 hands)" in plan.describe()
    assert [p.deals_done for p in seen] == [0, 1, 2, 3, 4, 5, 6, 6]
    assert seen[-1].matches_done == 1
    assert seen[-1].margins[0] == pytest.approx((r.bots[0].margin, r.bots[0].margin_se))
    assert "margin greedy" in seen[-1].line() and "matches 1/1" in seen[-1].line()


def test_greedy_beats_random_over_enough_deals() -> None:
    # a behaviour check of the measurement, with a wide margin: greedy is much stronger
    r = run_arena(["greedy", "random"], RULES, deals=60, seed=9, matches=0)
    assert r.bots[0].margin > 2 * r.bots[0].margin_se


@pytest.mark.parametrize("variant,players", [("scopone-scientifico", 4), ("scopa", 3),
                                             ("scopa", 6), ("quindici", 2)])
def test_any_variant_and_player_count(variant: str, players: int) -> None:
    rules = Rules.preset(variant, players=players)
    r = run_arena(["random", "greedy", "random"], rules, deals=3, seed=0, matches=1)
    assert len(r.bots) == 3 and len(r.deal_margins) == 3
    assert len(r.arrangements) == max(3, rules.teams)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_arena(["random", "nosuchbot"], RULES, deals=1)
    with pytest.raises(ValueError, match="at least two"):
        run_arena(["random"], RULES, deals=1)
    with pytest.raises(ValueError, match="deals"):
        run_arena(["random", "random"], RULES, deals=0)


def test_external_bot_in_the_arena() -> None:
    cmd = f"cmd:{sys.executable} -m scopa.protocol random"
    r = run_arena(["greedy", cmd], RULES, deals=4, seed=1, matches=0)
    assert r.bots[1].moves == 4 * 2 * 18


def test_outside_bots_are_named_by_their_ready_names() -> None:
    specs = [f"cmd:{SHARED} --name alpha", f"cmd:{SHARED} --name beta"]
    r = run_arena(specs, RULES, deals=2, seed=1)
    assert [b.name for b in r.bots] == ["alpha", "beta"]
    assert [b.command for b in r.bots] == [s[len("cmd:"):] for s in specs]


@pytest.mark.parametrize("jobs", [1, 2])
def test_colliding_names_are_made_unique(jobs: int) -> None:
    specs = [f"cmd:{SHARED} --name greedy", "greedy", f"cmd:{SHARED} --name greedy",
             f"cmd:{SHARED} --name ''"]
    r = run_arena(specs, RULES, deals=2, seed=1, jobs=jobs)
    names = [b.name for b in r.bots]
    assert names[:3] == ["greedy", "greedy#2", "greedy#3"]
    # gave no name: its command, with file names for paths, both ends kept
    assert names[3].startswith("cmd:python fake_bot")
    assert names[3].endswith("--name ") and len(names[3]) == 40
    assert r.bots[1].command is None


def test_broken_external_bot_stops_a_parallel_arena() -> None:
    fake = Path(__file__).parents[1] / "protocol" / "fake_bot.py"
    cmd = f"cmd:{sys.executable} {fake} nonsense"
    with pytest.raises(BotProtocolError, match="not JSON"):
        run_arena(["random", cmd], RULES, deals=40, jobs=2, seed=1, matches=0)


def test_cirulla_deals_in_the_arena() -> None:
    """Cirulla's declaration moves go through the arena like any play (4 players in pairs)."""
    res = run_arena(["greedy", "heuristic"], Rules.preset("cirulla", players=4), deals=2,
                    jobs=1, seed=13, matches=0)
    assert res.deals == 2 and res.rules["variant"] == "cirulla"
