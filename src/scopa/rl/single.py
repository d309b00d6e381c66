"""The Gymnasium environment: one learning seat against our bots or bot-protocol programs.

``SingleAgentEnv(opponents=["expert"], variant="scopa", players=None, seat=None, ...)``:
every other seat is played by a bot spec as the arena takes it (a level or bot name, or
``cmd:<program>`` speaking the bot protocol); one spec fills every other seat, or give one
per other seat in play order after the learner. ``seat=None`` draws the learner's seat at
each reset; ``reset(options={"deal": seed})`` plays the deal of that seed. Observations,
actions and rewards are those of the PettingZoo environment (see ``aec``), for the
learner's seat; ``action_masks()`` gives the mask as booleans for
maskable algorithms. An illegal action changes nothing and earns ``illegal_reward``
(default -1, with ``info["illegal_action"]`` saying why; ``illegal_reward=None`` raises
``IllegalActionError`` instead). A step runs the bots until the learner is on turn again or the
episode ends, and its reward sums what the learner earned meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..arena.play import notify_bots
from ..arena.specs import bot_factory
from ..bots.base import Bot, RandomBot
from ..view import PlayerView
from .actions import NUM_ACTIONS, IllegalActionError
from .aec import deal_seed, make_rules, observation_space
from .episode import Episode
from .render import render_text


class SingleAgentEnv(gym.Env[dict[str, np.ndarray], int]):
    """One seat learns; the others are bots. See the module docstring."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        opponents: Sequence[str] = ("random",),
        variant: str = "scopa",
        players: int | None = None,
        *,
        seat: int | None = None,
        episode: str = "hand",
        reward: str = "hand",
        render_mode: str | None = None,
        timeout: float = 10.0,
        illegal_reward: float | None = -1.0,
        **options: Any,
    ) -> None:
        if isinstance(opponents, str) or not opponents:
            raise ValueError('opponents must be a non-empty list of bot specs, e.g. ["expert"]')
        if players is None and len(opponents) > 1:
            players = len(opponents) + 1
        self.rules = make_rules(variant, players, options)
        n = self.rules.players
        if len(opponents) not in (1, n - 1):
            raise ValueError(f"give one opponent spec, or {n - 1} (one per other seat)")
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or None")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.specs = list(opponents) * (n - 1) if len(opponents) == 1 else list(opponents)
        self._factories = {spec: bot_factory(spec, timeout) for spec in set(self.specs)}
        self.fixed_seat = seat
        self.illegal_reward = illegal_reward
        self.seat = 0 if seat is None else seat
        self.episode = Episode(self.rules, episode, reward)
        self.observation_space = observation_space(self.episode)  # type: ignore[assignment]
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        #: the bot at every seat (None at the learner's)
        self.bots: list[Bot | None] = []

    # -- gymnasium API ----------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        deal = deal_seed(options)  # checked before anything changes
        super().reset(seed=seed)
        self._release()
        rng = self.np_random
        n = self.rules.players
        self.seat = int(rng.integers(n)) if self.fixed_seat is None else self.fixed_seat
        others = [s for s in range(n) if s != self.seat]
        self.bots = [None] * n
        for spec, s in zip(self.specs, others, strict=True):
            self.bots[s] = self._factories[spec](int(rng.integers(2**62)))
        drawn = f"{int(rng.integers(2**62)):016x}"
        self.episode.reset(deal or drawn)
        self._bots_play()
        return self._obs(), {"seat": self.seat}

    def step(
        self, action: int
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        ep = self.episode
        if ep.done:
            raise ValueError("the episode is over: call reset()")
        try:
            reward = ep.act(action)[self.seat]
        except IllegalActionError as e:
            if self.illegal_reward is None:
                raise
            return self._obs(), self.illegal_reward, False, False, {"illegal_action": str(e)}
        info: dict[str, Any] = {}
        self._hand_over(info)
        reward += self._bots_play(info)
        return self._obs(), float(reward), ep.terminated, ep.truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (all False once the episode is over)."""
        return self.episode.mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        ep = self.episode
        names = ["you" if s == self.seat else f"bot {s}" for s in range(self.rules.players)]
        return render_text(PlayerView.of(ep.game.hand, self.seat), ep.turn, names)

    def close(self) -> None:
        self._release()
        for factory in self._factories.values():
            close = getattr(factory, "close", None)
            if close is not None:
                close()

    # -- the bots' turns --------------------------------------------------------------
    def _obs(self) -> dict[str, np.ndarray]:
        ep = self.episode
        mask = ep.mask() if not ep.done else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": ep.observe(self.seat), "action_mask": mask}

    def _bots_play(self, info: dict[str, Any] | None = None) -> float:
        """Let the bots move until the learner is on turn or the episode ends; return the
        learner's reward from their moves."""
        ep = self.episode
        earned = 0.0
        while not ep.done and ep.to_move != self.seat:
            seat = ep.to_move
            bot = self.bots[seat]
            assert bot is not None
            if type(bot) is RandomBot:  # its choice needs the legal moves only
                move = bot.pick(ep.game.hand.legal_moves())
            else:
                move = bot.choose(PlayerView.of(ep.game.hand, seat))
            earned += ep.play(move)[self.seat]
            self._hand_over(info)
        return earned

    def _hand_over(self, info: dict[str, Any] | None) -> None:
        """After a move: pass a finished hand's result to the bots (and to ``info``)."""
        end = self.episode.hand_end
        if end is None:
            return
        notify_bots([b for b in self.bots if b is not None], end.result, end.scores,
                    end.winner, end.last)
        if info is not None:
            info.setdefault("hand_results", []).append(end.result)

    def _release(self) -> None:
        for spec, bot in zip(self._seat_specs(), self.bots, strict=False):
            if bot is None or spec is None:
                continue
            release = getattr(self._factories[spec], "release", None)
            if release is not None:
                release(bot)
        self.bots = []

    def _seat_specs(self) -> list[str | None]:
        n = self.rules.players
        specs = iter(self.specs)
        return [None if s == self.seat else next(specs) for s in range(n)]
