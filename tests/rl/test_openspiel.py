"""python_scopa passes OpenSpiel's random simulation test for every preset; its chance
nodes are the shuffle conditioned on a deal that is not void; OpenSpiel's ISMCTS runs."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import scopa.rl.openspiel as so
from scopa import VARIANTS, Rules
from scopa.cards import RANK


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_sim_test_passes(variant):
    game = pyspiel.load_game("python_scopa", {"variant": variant})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_sim_test_passes_for_other_player_counts(players):
    game = pyspiel.load_game("python_scopa", {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_parameters_reach_the_rules():
    game = pyspiel.load_game(
        "python_scopa",
        {"variant": "scopa", "players": 6, "teams": 3, "options": json.dumps({"target": 21})},
    )
    assert game.num_players() == 6
    assert game.rules == Rules.preset("scopa", players=6, teams=3, target=21)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    with pytest.raises(ValueError):
        so.rules_from_params({"options": "[1]"})


def test_void_deals_are_conditioned_out_exactly():
    rules = Rules.preset("scopa")
    # P(three or four kings among the 4 table cards) by counting
    void = sum(
        1 for table in itertools.combinations(range(40), 4)
        if sum(RANK[c] == 10 for c in table) >= 3
    ) / (40 * 39 * 38 * 37 / 24)
    assert so._not_void(rules, []) == pytest.approx(1 - void)
    # two kings already on the table: the last table card may not be a king
    kings = [c for c in range(40) if RANK[c] == 10]
    others = [c for c in range(40) if RANK[c] != 10]
    state = pyspiel.load_game("python_scopa").new_initial_state()
    for c in others[:6] + kings[:2] + others[6:7]:
        state.apply_action(c)
    outcomes = dict(state.chance_outcomes())
    assert not set(outcomes) & set(kings)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    # Escoba never voids a deal: uniform
    escoba = pyspiel.load_game("python_scopa", {"variant": "escoba"}).new_initial_state()
    assert {p for _, p in escoba.chance_outcomes()} == {1 / 40}


def test_ismcts_and_mcts_play_a_hand():
    game = pyspiel.load_game("python_scopa")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=5, random_state=rng)
    plain = mcts.MCTSBot(game, 2.0, 5, evaluator, random_state=rng)
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            world = state.resample_from_infostate(1, sampler)
            state.apply_action(plain.step(world))
    assert sum(state.returns()) == 0.0


def test_resampling_while_dealing_keeps_only_what_the_player_saw():
    game = pyspiel.load_game("python_scopa")
    state = game.new_initial_state()
    for c in range(39):  # hands 0..5, table 6..9, the rest is stock
        state.apply_action(c)
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    decks = [state.resample_from_infostate(0, sampler).history() for _ in range(20)]
    mine_and_table = [0, 2, 4, 6, 7, 8, 9]
    assert all([d[i] for i in mine_and_table] == mine_and_table for d in decks)
    assert len({tuple(d[10:]) for d in decks}) > 1  # the stock is hidden: it is redrawn
    assert len({(d[1], d[3], d[5]) for d in decks}) > 1  # so is the other hand


def test_resampling_mid_move_keeps_the_played_card_with_its_player():
    game = pyspiel.load_game("python_scopa", {"variant": "quindici"})
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    rng = np.random.RandomState(2)
    for _ in range(100):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            if state.turn is not None:  # a card is down, its capture still to choose
                mover = state.current_player()
                for p in range(game.num_players()):
                    for _ in range(5):
                        other = state.resample_from_infostate(p, sampler)
                        assert other.information_state_string(p) == (
                            state.information_state_string(p))
                        assert other.game.hands[mover] >> state.turn.card & 1
                        assert other.legal_actions() == state.legal_actions()
                return
            state.apply_action(int(rng.choice(state.legal_actions())))
    raise AssertionError("no move with a choice of captures")
