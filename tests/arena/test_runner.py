"""run_arena: reproducible from its seed whatever the number of jobs; a full report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from scopa.arena import run_arena
from scopa.protocol import BotProtocolError
from scopa.rules import Rules

RULES = Rules.preset("scopa")


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


def test_broken_external_bot_stops_a_parallel_arena() -> None:
    fake = Path(__file__).parents[1] / "protocol" / "fake_bot.py"
    cmd = f"cmd:{sys.executable} {fake} nonsense"
    with pytest.raises(BotProtocolError, match="not JSON"):
        run_arena(["random", cmd], RULES, deals=40, jobs=2, seed=1, matches=0)
