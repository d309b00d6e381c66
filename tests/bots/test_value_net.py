"""A search given its own round value network (a self-play generation under trial): it is
used in place of the shipped one, only where that one applies, and a bad file is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scopa.bots import Limit, SearchBot
from scopa.bots.round_value import RoundValue, net_for
from scopa.bots.search import round_value_for
from scopa.match import Match
from scopa.rules import Rules
from scopa.view import PlayerView

SCOPA = Rules.preset("scopa")
CHAMPION = {"algorithm": "minimax", "default_limit": Limit(simulations=40)}


def shipped() -> RoundValue:
    net = net_for(SCOPA)
    assert net is not None
    return net


def flipped(net: RoundValue) -> RoundValue:
    """The shipped network with its sign flipped: it prizes what the real one fears."""
    return RoundValue(net.w1, net.b1, tuple(-w for w in net.w2), -net.b2, {"flipped": True})


class Spy(RoundValue):
    """A network that counts the boundaries the search asks it to value."""

    def __init__(self, net: RoundValue) -> None:
        super().__init__(net.w1, net.b1, net.w2, net.b2, net.meta)
        self.calls = 0

    def of(self, game, side, cache=None):  # type: ignore[no-untyped-def]
        self.calls += 1
        return super().of(game, side, cache)


def first_views(hands: int) -> list:
    return [PlayerView.of(Match(SCOPA, hand_seed=f"net-{i}").hand, 0) for i in range(hands)]


def test_the_given_network_replaces_the_shipped_one_only_where_that_applies() -> None:
    mine = flipped(shipped())
    assert round_value_for(SCOPA, (0, 0), True, mine) is mine
    assert round_value_for(SCOPA, (0, 0), True) is shipped()
    assert round_value_for(SCOPA, (9, 2), True, mine) is None  # near the target: play out
    assert round_value_for(Rules.preset("scopa", players=4), (0, 0), True, mine) is None


def test_the_search_asks_the_given_network() -> None:
    spy = Spy(shipped())
    bot = SearchBot(1, value_net=spy, **CHAMPION)
    bot.choose(first_views(1)[0])
    assert spy.calls > 0


def test_a_different_network_plays_differently() -> None:
    views = first_views(12)
    plain = [SearchBot(7, **CHAMPION).choose(v) for v in views]
    same = [SearchBot(7, value_net=shipped(), **CHAMPION).choose(v) for v in views]
    worse = [SearchBot(7, value_net=flipped(shipped()), **CHAMPION).choose(v) for v in views]
    assert same == plain
    assert worse != plain


def test_a_shift_of_the_value_changes_no_move() -> None:
    # every leaf of one round search is the same boundary, led by the same player heads-up:
    # a generation that mostly moves the value's level (docs/notes, values from self-play)
    # plays as its parent does
    net = shipped()
    shifted = RoundValue(net.w1, net.b1, net.w2, net.b2 - 0.5)
    views = first_views(12)
    plain = [SearchBot(7, **CHAMPION).choose(v) for v in views]
    assert [SearchBot(7, value_net=shifted, **CHAMPION).choose(v) for v in views] == plain


def test_a_network_file_is_read(tmp_path: Path) -> None:
    net = shipped()
    data = {
        "format": 1,
        "w1": [list(r) for r in net.w1],
        "b1": list(net.b1),
        "w2": [-w for w in net.w2],
        "b2": -net.b2,
        "meta": {"generation": "test"},
    }
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    bot = SearchBot(1, value_net=path, **CHAMPION)
    assert bot.value_net is not None and bot.value_net.meta == {"generation": "test"}
    assert SearchBot(1, value_net=str(path), **CHAMPION).value_net is bot.value_net


def test_a_bad_network_file_is_refused_when_the_bot_is_made(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": 1, "b1": [0.0], "w1": [[0.0]], "w2": [1.0], "b2": 0}))
    with pytest.raises(ValueError, match=r"bad\.json: w1 row 0"):
        SearchBot(1, value_net=path)
    path.write_text("{nope")
    with pytest.raises(ValueError, match="not JSON"):
        SearchBot(1, value_net=path)


def test_champion_self_play_values_each_round_and_the_last_exactly() -> None:
    pytest.importorskip("numpy")  # the training script's own need, not the game's
    import importlib.util
    import random

    path = Path(__file__).parents[2] / "scripts" / "train_value.py"
    spec = importlib.util.spec_from_file_location("train_value", path)
    assert spec is not None and spec.loader is not None
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    records = train.champion_hand(SCOPA, "selfplay", random.Random(0), 0.0, 20, 20, None)
    assert len(records) == 5  # rounds two to six, each just dealt
    margins = {m for _, m, _ in records}
    assert len(margins) == 1  # heads-up the same player leads every round
    # the last round hides nothing: its search value is the exact outcome, and both play it
    assert records[-1][2] == pytest.approx(records[-1][1])
    assert any(v != records[-1][1] for _, _, v in records[:-1])
