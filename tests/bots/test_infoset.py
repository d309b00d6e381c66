"""The round search over an information set (``infoset``): the same as the per-world round
search when only one world is possible, never above it, below it where a plan needs cards
we cannot see, the same as a plain world-by-world reference, and a fair, legal,
reproducible bot."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from scopa import Rules
from scopa.bots import Bot, Limit, SearchBot
from scopa.bots.exact import Leaf
from scopa.bots.infoset import infoset_evaluate, infoset_values
from scopa.bots.minimax import round_leaf, round_minimax
from scopa.bots.round_value import net_for
from scopa.bots.worlds import WorldSampler
from scopa.hand import Hand
from scopa.match import Match
from scopa.view import PlayerView

from .helpers import midgame, play_hand

LIMIT = Limit(simulations=60)


def _positions(count: int, prefix: str) -> list[Hand]:
    """Heads-up positions with a round still to deal and a choice to make."""
    out = []
    i = 0
    while len(out) < count:
        game = midgame(f"{prefix}-{i}", i % 29)
        i += 1
        if game.stock and len(game.legal_codes()) > 1:
            out.append(game)
    return out


def _worlds(game: Hand, n: int, seed: int) -> list[Hand]:
    sampler = WorldSampler(PlayerView.of(game, game.to_move), random.Random(seed), clues=False)
    return [sampler.draw() for _ in range(n)]


def _leaf(game: Hand) -> Leaf:
    net = net_for(game.rules)
    assert net is not None
    return round_leaf(game.to_move, net, False, "net")


def _reference(
    worlds: Sequence[Hand], weights: Sequence[float], side: int, leaf: Leaf, until: int
) -> list[float]:
    """The same search written plainly, every world its own full game: our play shared by
    the worlds still possible, the opponent's chosen in each world from its own cards."""
    first = worlds[0]
    if first.hand_over or first.round >= until:
        return [leaf(g) for g in worlds]
    if first.to_move == side:
        best: list[float] | None = None
        best_sum = float("-inf")
        for code in first.legal_codes():
            children = []
            for g in worlds:
                h = g.copy()
                h.play_code(code)
                children.append(h)
            vec = _reference(children, weights, side, leaf, until)
            s = sum(w * v for w, v in zip(weights, vec, strict=True))
            if s > best_sum + 1e-12:
                best, best_sum = vec, s
        assert best is not None
        return best
    by_code: dict[int, list[int]] = {}
    for k, g in enumerate(worlds):
        for code in g.legal_codes():
            by_code.setdefault(code, []).append(k)
    worst = [float("inf")] * len(worlds)
    for code, ks in by_code.items():
        children = []
        for k in ks:
            h = worlds[k].copy()
            h.play_code(code)
            children.append(h)
        vec = _reference(children, [weights[k] for k in ks], side, leaf, until)
        for k, v in zip(ks, vec, strict=True):
            worst[k] = min(worst[k], v)
    return worst


def test_one_world_is_the_round_minimax() -> None:
    """With the opponent's hand known, one decision per information set is one per world."""
    for game in _positions(6, "is-one"):
        seat = game.to_move
        leaf = _leaf(game)
        codes = game.legal_codes()
        got = infoset_values([game], codes, seat, leaf, game.round + 1)
        for code, (total, weight) in zip(codes, got, strict=True):
            h = game.copy()
            h.play_code(code)
            assert weight == 1
            assert total == pytest.approx(round_minimax(h, seat, game.round, leaf, "net"))


def test_the_same_as_a_plain_world_by_world_search() -> None:
    """The one representative game with the union of the possible hands gives what a
    search over every world's own game gives."""
    for n, game in enumerate(_positions(8, "is-ref")):
        seat = game.to_move
        leaf = _leaf(game)
        worlds = _worlds(game, 12, n)
        # the reference weighs each distinct opponent hand by how often it was drawn
        distinct: dict[int, Hand] = {}
        weight: dict[int, float] = {}
        for w in worlds:
            key = w.hands[1 - seat]
            distinct.setdefault(key, w)
            weight[key] = weight.get(key, 0.0) + 1
        keys = list(distinct)
        for code, (total, tw) in zip(
            game.legal_codes(),
            infoset_values(worlds, game.legal_codes(), seat, leaf, game.round + 1),
            strict=True,
        ):
            children = []
            for key in keys:
                h = distinct[key].copy()
                h.play_code(code)
                children.append(h)
            ws = [weight[k] for k in keys]
            vec = _reference(children, ws, seat, leaf, game.round + 1)
            assert tw == len(worlds)
            assert total == pytest.approx(sum(w * v for w, v in zip(ws, vec, strict=True)))


def test_never_above_the_worlds_searched_apart_and_below_where_a_plan_needs_sight() -> None:
    """Knowing the cards can only help: a world's value with one decision for the worlds
    we cannot tell apart is at most its round minimax; somewhere it is less."""
    below = 0
    for n, game in enumerate(_positions(12, "is-fusion")):
        seat = game.to_move
        leaf = _leaf(game)
        worlds = _worlds(game, 16, n)
        codes = game.legal_codes()
        for code, (total, _) in zip(
            codes, infoset_values(worlds, codes, seat, leaf, game.round + 1), strict=True
        ):
            apart = 0.0
            for w in worlds:
                h = w.copy()
                h.play_code(code)
                apart += round_minimax(h, seat, w.round, leaf, "net")
            assert total <= apart + 1e-9
            below += total < apart - 1e-6
    assert below > 0


def test_the_budget_buys_worlds() -> None:
    game = _positions(1, "is-budget")[0]
    seat = game.to_move
    codes = game.legal_codes()
    drawn = []
    sampler = WorldSampler(PlayerView.of(game, seat), random.Random(3), clues=False)

    def draw() -> Hand:
        drawn.append(1)
        return sampler.draw()

    stats = infoset_evaluate(
        draw, codes, seat, Limit(simulations=10 * len(codes) * 2.5), _leaf(game)
    )
    assert len(drawn) == 10
    assert [st.code for st in stats] == codes
    assert all(st.count == 10 for st in stats)
    drawn.clear()
    infoset_evaluate(draw, codes, seat, Limit(simulations=1), _leaf(game))
    assert len(drawn) == 1  # at least one world


def test_bad_input_is_refused() -> None:
    game = _positions(1, "is-bad")[0]
    seat = game.to_move
    with pytest.raises(ValueError, match="at least one world"):
        infoset_values([], game.legal_codes(), seat, _leaf(game), game.round + 1)
    with pytest.raises(ValueError, match="side to move"):
        infoset_values([game], game.legal_codes(), 1 - seat, _leaf(game), game.round + 1)


def test_whole_hands_only_legal_moves_and_reproducible() -> None:
    def play(seed: int) -> list[object]:
        game = Match(Rules.preset("scopa"), seed="is-hands").hand
        bots: list[Bot] = [SearchBot(seed * 10 + s, algorithm="infoset") for s in range(2)]
        return play_hand(game, bots, LIMIT)

    assert play(1) == play(1)


def test_states_sharing_a_view_get_the_same_choice() -> None:
    for i, game in enumerate(_positions(5, "is-fair")):
        seat = game.to_move
        view = PlayerView.of(game, seat)
        other = view.sample(random.Random(i))
        assert PlayerView.of(other, seat) == view
        a = SearchBot(5, algorithm="infoset").choose(PlayerView.of(game, seat), LIMIT)
        b = SearchBot(5, algorithm="infoset").choose(PlayerView.of(other, seat), LIMIT)
        assert a == b


@pytest.mark.parametrize("variant,players", [("scopa", 3), ("scopone-scientifico", 4)])
def test_without_a_round_value_it_plays_rollouts(variant: str, players: int) -> None:
    game = Match(Rules.preset(variant, players=players), seed="is-other").hand
    view = PlayerView.of(game, game.to_move)
    move = SearchBot(1, algorithm="infoset").choose(view, Limit(simulations=8))
    assert move in game.legal_moves()
