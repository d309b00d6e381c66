"""OpenSpiel's own searches on Scopa: ISMCTS, and MCTS on sampled worlds, against random.

Run: ``.venv/bin/python examples/openspiel_search.py [--hands 6] [--simulations 100]``

ISMCTS (``open_spiel.python.algorithms.ismcts``) searches information sets directly,
drawing worlds with the game's ``resample_from_infostate`` (our view sampler). Plain MCTS
(``open_spiel.python.algorithms.mcts``) needs a full state, so it is run on one world
resampled from the seat's information state at every decision: it never sees a hidden
card of the real deal. Each hand is played twice with the seats swapped; the output is the
searcher's mean point margin per hand.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import scopa.rl.openspiel  # noqa: F401  (registers python_scopa)


class DeterminizedMCTS:
    """MCTS on a world resampled from the seat's information state at every decision."""

    def __init__(self, game: pyspiel.Game, simulations: int, seed: int) -> None:
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        self.bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
        self.sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)

    def step(self, state: pyspiel.State) -> int:
        world = state.resample_from_infostate(state.current_player(), self.sampler)
        return int(self.bot.step(world))


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def step(self, state: pyspiel.State) -> int:
        return int(self.rng.choice(state.legal_actions()))


def play(game: pyspiel.Game, players: list, rng: random.Random) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(players[state.current_player()].step(state))
    return list(state.returns())


def searcher(kind: str, game: pyspiel.Game, simulations: int, seed: int):
    if kind == "ismcts":
        evaluator = mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(seed)
        )
        return ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=simulations,
            random_state=np.random.RandomState(seed),
        )
    return DeterminizedMCTS(game, simulations, seed)


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--variant", default="scopa")
    args = ap.parse_args(argv)
    game = pyspiel.load_game("python_scopa", {"variant": args.variant})
    results = {}
    for kind in ("ismcts", "mcts"):
        start = time.perf_counter()
        margins = []
        for hand in range(args.hands):
            for seat in (0, 1):
                players = [RandomPlayer(hand * 2 + seat), RandomPlayer(hand * 2 + seat)]
                players[seat] = searcher(kind, game, args.simulations, hand)
                # the same deal from both seats: the chance rng restarts for each
                returns = play(game, players, random.Random(hand))
                margins.append(returns[seat])
        mean = sum(margins) / len(margins)
        results[kind] = mean
        print(
            f"{kind:7s} vs random: {mean:+.2f} points a hand over {len(margins)} hands "
            f"({args.simulations} simulations a move, {time.perf_counter() - start:.0f} s)"
        )
    return results


if __name__ == "__main__":
    main()
