"""Every bot plays only legal moves over whole hands, in every variant and player count."""

from __future__ import annotations

import pytest

from scopa.bots import Limit, bot_names, make_bot
from scopa.match import Match
from scopa.view import PlayerView

from .helpers import all_rules, choose, rules_id

FAIR_AND_ORACLE = ["random", "greedy", "heuristic", "search", "oracle"]
LEVELS = ["beginner", "intermediate", "expert", "champion"]


def test_every_name_is_registered() -> None:
    for name in FAIR_AND_ORACLE + LEVELS:
        assert name in bot_names()


@pytest.mark.parametrize("rules", all_rules(), ids=rules_id)
@pytest.mark.parametrize("name", FAIR_AND_ORACLE)
def test_whole_hand_only_legal_moves(rules, name) -> None:  # type: ignore[no-untyped-def]
    game = Match(rules, seed=f"legal-{name}-{rules_id(rules)}").hand
    bots = [make_bot(name, seat) for seat in range(rules.players)]
    plays = 0
    while not game.hand_over:
        legal = game.legal_moves()
        move = choose(bots[game.to_move], game)
        assert move in legal
        game.play(move)
        plays += not move.is_declaration  # Cirulla's declare / pass moves no card
    assert plays == 40 - rules.table_cards


@pytest.mark.parametrize("level", LEVELS)
def test_levels_play_legal_moves(level: str) -> None:
    game = Match.new("scopone-scientifico", seed=f"level-{level}").hand
    bots = [make_bot(level, seat) for seat in range(4)]
    for _ in range(8):  # a few plays each: levels only pick their budget
        move = choose(bots[game.to_move], game)
        assert move in game.legal_moves()
        game.play(move)


def test_not_my_turn_is_refused() -> None:
    game = Match.new("scopa", seed=1).hand
    other = PlayerView.of(game, (game.to_move + 1) % 2)
    for name in ["random", "greedy", "heuristic", "search", "champion"]:
        with pytest.raises(ValueError):
            make_bot(name, 0).choose(other)


def test_finished_hand_is_refused() -> None:
    game = Match.new("scopa", seed=2).hand
    while not game.hand_over:
        game.play(game.legal_moves()[0])
    with pytest.raises(ValueError):
        make_bot("search", 0).choose(PlayerView.of(game, 0))
    with pytest.raises(ValueError):
        make_bot("oracle", 0).choose_full(game)  # type: ignore[attr-defined]


def test_oracle_refuses_a_view() -> None:
    game = Match.new("scopa", seed=3).hand
    bot = make_bot("oracle", 0)
    assert bot.omniscient
    with pytest.raises(TypeError):
        bot.choose(PlayerView.of(game, game.to_move))


def test_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster", 0)
    from scopa.bots import SearchBot

    with pytest.raises(ValueError, match="rollout"):
        SearchBot(0, rollout="psychic")



@pytest.mark.parametrize(
    ("variant", "uses_prior"), [("scopa", False), ("scopone-scientifico", True)]
)
def test_search_prior_depends_on_the_table(  # type: ignore[no-untyped-def]
    monkeypatch, variant: str, uses_prior: bool
) -> None:
    # heads-up the search decides alone; at four it adds the heuristic's judgement (search.py)
    import scopa.bots.search as search

    calls = []

    def spy(view, move):  # type: ignore[no-untyped-def]
        calls.append(move)
        return 0.0

    monkeypatch.setattr(search, "heuristic_score", spy)
    game = Match.new(variant, seed="prior").hand
    while len(game.legal_codes()) < 2:
        game.play(game.legal_moves()[0])
    make_bot("search", 1).choose(PlayerView.of(game, game.to_move), Limit(simulations=20))
    assert bool(calls) == uses_prior
    make_bot("expert", 1).choose(PlayerView.of(game, game.to_move), Limit(simulations=20))
    assert bool(calls) == uses_prior
