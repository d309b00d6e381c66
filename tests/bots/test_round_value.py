"""The learned value between rounds: file checks, the fast sum against the plain network,
its sense on real hands, and the search's use of it."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from scopa.bots import Limit, SearchBot
from scopa.bots.rollout import sound_playout
from scopa.bots.round_value import (
    NETS_DIR,
    boundary_inputs,
    features,
    load_net,
    net_for,
    net_path,
    parse_net,
    self_play_boundaries,
)
from scopa.bots.search import round_value_for
from scopa.hand import Hand
from scopa.match import Match
from scopa.rules import Rules
from scopa.view import PlayerView

SCOPA = Rules.preset("scopa")


def boundaries(rules: Rules, hands: int, seed: str) -> list[tuple[Hand, int]]:
    """Positions just after each new round is dealt in heuristic self-play, with the hand's
    final margin for the player who leads that round."""
    out = []
    for i in range(hands):
        out += self_play_boundaries(rules, f"{seed}-{i}", random.Random(i))
    return out


@pytest.fixture(scope="module")
def net():
    found = net_for(SCOPA)
    assert found is not None, f"no network shipped at {net_path('scopa')}"
    return found


SHIPPED = sorted(p.stem for p in NETS_DIR.glob("*.json"))


def test_a_network_ships_for_scopa() -> None:
    assert "scopa" in SHIPPED


@pytest.mark.parametrize("variant", SHIPPED)
def test_every_shipped_network_loads_and_is_its_fast_sum(variant: str) -> None:
    rules = Rules.preset(variant)
    found = net_for(rules)
    assert found is not None and found.meta["variant"] == variant
    for g, _ in boundaries(rules, 4, "sum"):
        x = boundary_inputs(g)
        assert found.value(*x) == pytest.approx(found.reference(features(*x)), abs=1e-9)


def test_values_are_antisymmetric_between_the_two_players(net) -> None:
    for g, _ in boundaries(SCOPA, 3, "anti"):
        assert net.of(g, g.to_move) == pytest.approx(-net.of(g, 1 - g.to_move))


def test_the_value_foretells_the_margin(net) -> None:
    # A network with its inputs scrambled or its sign flipped fails this; the fitted one
    # explains about 40% of the variance of the final margin on its own positions.
    pairs = boundaries(SCOPA, 80, "sense")
    xs = [net.of(g, g.to_move) for g, _ in pairs]
    ys = [m for _, m in pairs]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    vx = sum((x - mx) ** 2 for x in xs)
    vy = sum((y - my) ** 2 for y in ys)
    assert cov / (vx * vy) ** 0.5 > 0.45


def test_a_sweep_ahead_is_worth_about_a_point(net) -> None:
    g, _ = boundaries(SCOPA, 1, "sweep")[0]
    table, lead, other, diff, last = boundary_inputs(g)
    gain = net.value(table, lead, other, diff + 1, last) - net.value(table, lead, other, diff, last)
    assert 0.7 < gain < 1.3


def test_features_layout() -> None:
    x = features(1 << 6, 1 << 0, 1 << 39, -2, 1)
    assert len(x) == 124 and sum(x[:120]) == 3
    assert x[0] == 1 and x[40 + 39] == 1 and x[80 + 6] == 1
    assert x[120] == -2 and x[121:] == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="last"):
        features(0, 0, 0, 0, 3)


def test_networks_only_for_heads_up_presets() -> None:
    assert net_for(replace(SCOPA, target=21)) is not None
    assert net_for(Rules.preset("scopa", players=4)) is None
    assert net_for(Rules.preset("scopone-scientifico")) is None
    assert net_for(replace(SCOPA, ace_takes_all=True)) is None  # not the preset it was fitted to


def test_match_aware_search_plays_out_near_the_target() -> None:
    assert round_value_for(SCOPA, (0, 0), True) is not None
    assert round_value_for(SCOPA, (9, 2), True) is None
    assert round_value_for(SCOPA, (9, 2), False) is not None


def test_round_only_rollouts_stop_when_the_next_round_is_dealt() -> None:
    g = Match(SCOPA, hand_seed="stop").hand
    for k in range(6):
        start, last = g.round, not g.stock
        sound_playout(g, random.Random(k), round_only=True)
        if last:
            assert g.hand_over
            return
        assert g.round == start + 1 and not g.hand_over
        assert [c.bit_count() for c in g.hands] == [3, 3]
    raise AssertionError("the hand did not end after six rounds")


@pytest.mark.parametrize("learned", [True, False])
def test_search_with_and_without_the_learned_value_plays_legally(learned: bool) -> None:
    g = Match(SCOPA, hand_seed="legal").hand
    bot = SearchBot(3, default_limit=Limit(simulations=60), learned=learned)
    while not g.hand_over:
        view = PlayerView.of(g, g.to_move)
        move = bot.choose(view)
        assert move.code in view.legal_codes()
        g.play(move)


def write(tmp_path: Path, data: object) -> Path:
    p = tmp_path / "net.json"
    p.write_text(json.dumps(data))
    return p


def good(hidden: int = 2) -> dict:
    return {
        "format": 1,
        "w1": [[0.01 * i for i in range(124)] for _ in range(hidden)],
        "b1": [0.0] * hidden,
        "w2": [1.0] * hidden,
        "b2": 0.5,
    }


def test_a_good_file_loads(tmp_path: Path) -> None:
    net = load_net(write(tmp_path, good()))
    assert net.value(0, 0, 0, 0, 2) == pytest.approx(net.reference(features(0, 0, 0, 0, 2)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=2), "format"),
        (lambda d: d["w1"].pop(), "w1 must hold 2 rows"),
        (lambda d: d["w1"][1].pop(), "w1 row 1"),
        (lambda d: d.update(w2=[1.0]), "w2"),
        (lambda d: d.update(b2="x"), "b2"),
        (lambda d: d["b1"].__setitem__(0, float("nan")), "finite"),
        (lambda d: d.update(b1=[]), "b1"),
        (lambda d: d.update(meta=[]), "meta"),
    ],
)
def test_a_broken_file_is_refused_with_a_reason(tmp_path: Path, change, message: str) -> None:
    data = good()
    change(data)
    with pytest.raises(ValueError, match=message):
        load_net(write(tmp_path, data))


def test_not_json_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "net.json"
    p.write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        load_net(p)
    with pytest.raises(ValueError, match="JSON object"):
        parse_net([1, 2])


def test_only_the_champion_level_uses_the_learned_value() -> None:
    from scopa.bots import make_bot

    assert make_bot("expert", 1).inner.learned is False
    assert make_bot("champion", 1).inner.learned is True
