"""The examples run end to end with tiny settings (their real runs take minutes)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from scopa.match import Match
from scopa.view import PlayerView

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_learning_example_trains_plots_and_plays_the_arena(tmp_path):
    out = tmp_path / "curve.png"
    result = load("learn").main([
        "--hands", "16", "--batch", "2", "--k", "2", "--deals", "1", "--jobs", "1",
        "--out", str(out),
    ])
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [len(points) for points in result["curve"].values()] == [4, 4]
    assert set(result["strength"]) == {"random", "beginner"}


def test_learned_policy_plays_legal_moves_as_a_bot():
    learn = load("learn")
    from scopa import Rules
    from scopa.rl.policy_bot import PolicyBot

    rules = Rules.preset("quindici")  # sums to 15: many captures with a choice
    policy = learn.FeaturePolicy(learn.Layout(rules), 0.1, learn.np.random.default_rng(0))
    bot = PolicyBot(policy.sample, rules, 0)
    for seed in range(3):
        game = Match(rules, hand_seed=f"bot-{seed}").hand
        while not game.hand_over:
            game.play(bot.choose(PlayerView.of(game, game.to_move)))  # raises if illegal


def test_openspiel_search_example_runs():
    results = load("openspiel_search").main(["--hands", "1", "--simulations", "3"])
    assert set(results) == {"ismcts", "mcts"}
