"""The PettingZoo AEC environment: every seat an agent, any variant and player count.

``scopa.rl.env(variant="scopa", players=None, episode="hand", reward="hand", **options)``;
``options`` are rules options (``teams=3``, ``target=21``...), ``players=None`` takes the
variant's own count. Agents ``player_0``... sit in play order; sides are ``seat % teams``.
Each observation is ``{"observation": float32 vector of the seat's view,
"action_mask": int8[83]}`` (the mask is all zeros for an agent not on turn); actions are the
fixed space of ``scopa.rl.actions``. ``reset(options={"deal": seed})`` plays the deal of
that seed (the engine's ``Match(hand_seed=seed)``, the same in every environment). An
illegal action raises ``IllegalActionError`` and changes nothing.
``infos[agent]["hand_result"]`` holds the score sheet of a hand that just ended.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..rules import Rules
from ..view import PlayerView
from .actions import NUM_ACTIONS
from .episode import Episode
from .render import render_text


def make_rules(variant: str, players: int | None, options: dict[str, Any]) -> Rules:
    """The rules of an environment: a preset, its player count unless given, options."""
    if players is not None:
        options = {**options, "players": players}
    return Rules.preset(variant, **options)


def deal_seed(options: dict[str, Any] | None) -> str | None:
    """The deal asked for by ``reset(options={"deal": seed})``: the hand seed (the match
    seed with ``episode="match"``) to play that exact deal again, as the arena's
    duplicate deals do; None to draw one."""
    if not options or "deal" not in options:  # other options are not ours (api_test)
        return None
    deal = options["deal"]
    if not isinstance(deal, str | int) or isinstance(deal, bool):
        raise ValueError(f"options['deal'] is a seed (a string or an integer), got {deal!r}")
    return str(deal)


def observation_space(episode: Episode) -> spaces.Dict:
    """``{"observation": Box[0, 1], "action_mask": Box{0, 1} int8[83]}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (episode.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's naming
    """Scopa for PettingZoo without the order-checking wrappers (see ``env``)."""

    metadata: dict[str, Any] = {
        "name": "scopa_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "scopa",
        players: int | None = None,
        *,
        episode: str = "hand",
        reward: str = "hand",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.rules = make_rules(variant, players, options)
        self.episode = Episode(self.rules, episode, reward)
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = observation_space(self.episode)
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        deal = deal_seed(options)  # checked before anything changes
        if seed is not None:
            self._rng = random.Random(seed)
        self.episode.reset(deal or f"{self._rng.getrandbits(64):016x}")
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.episode.to_move]
        #: the last step ended a hand: its rewards and result are still in the dicts
        self._hand_ended = False

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        ep = self.episode
        on_turn = agent == self.agent_selection and not (ep.terminated or ep.truncated)
        mask = ep.mask() if on_turn else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": ep.observe(self._seat[agent]), "action_mask": mask}

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection  # AECEnv.last, a call fewer: it runs every step
        return (
            self.observe(agent) if observe else None, self._cumulative_rewards[agent],
            self.terminations[agent], self.truncations[agent], self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self.episode
        rewards = ep.act(action)
        self._cumulative_rewards[agent] = 0.0
        if ep.hand_end is not None:
            self.rewards = dict(zip(self.possible_agents, rewards, strict=True))
            self._accumulate_rewards()
            self.infos = {a: {"hand_result": ep.hand_end.result} for a in self.agents}
            self._hand_ended = True
        elif self._hand_ended:  # rewards come only when a hand ends
            self._hand_ended = False  # it ended on the step before: clear its rewards, result
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
            self.infos = {a: {} for a in self.agents}
        if ep.terminated or ep.truncated:
            flags = self.terminations if ep.terminated else self.truncations
            for a in self.agents:
                flags[a] = True
            nxt = self.possible_agents.index(agent) + 1
            self.agent_selection = self.possible_agents[nxt % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[ep.game.hand.to_move]
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        ep = self.episode
        return render_text(PlayerView.of(ep.game.hand, ep.to_move), ep.turn, self.possible_agents)

    def close(self) -> None:
        pass


class OrderChecks(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, with the attributes every step reads (``agents``,
    ``agent_selection``, ``last``) reached directly. The base wrapper finds them by
    ``__getattr__``, which Python calls only after a failed lookup: eight of those a step
    cost more than an engine move. The checks are the same: nothing before ``reset``."""

    _has_updated: bool  # the base wrapper's flag: a step (or reset) since the last turn

    def _env(self, name: str) -> raw_env:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        env: raw_env = self.env
        return env

    @property
    def agents(self) -> list[str]:
        return self._env("agents").agents

    @property
    def agent_selection(self) -> str:
        return self._env("agent_selection").agent_selection

    def agent_iter(self, max_iter: int = 2**63) -> _TurnsIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _TurnsIterable(self, max_iter)

    def next_turn(self) -> str | None:
        """The agent ``agent_iter`` yields next (None: no agent left), checking that the
        previous one stepped."""
        env: raw_env = self.env
        if not env.agents:
            return None
        if not self._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        self._has_updated = False
        return env.agent_selection

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:  # the usual case, straight through
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        env: raw_env = self.env
        out: tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]
        out = env.last(observe)
        return out


class _TurnsIterable(wrappers.order_enforcing.AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Turns:
        return _Turns(self.env, self.max_iter)


class _Turns(wrappers.order_enforcing.AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's turn iterator with its checks (a step between turns), reading the
    environment's agents directly (see ``OrderChecks``)."""

    def __next__(self) -> str:
        if self.iters_til_term <= 0:
            raise StopIteration
        agent: str | None = self.env.next_turn()
        if agent is None:
            raise StopIteration
        self.iters_til_term -= 1
        return agent


def env(
    variant: str = "scopa", players: int | None = None, **kwargs: Any
) -> AECEnv:
    """The Scopa AEC environment wrapped in PettingZoo's order checks (the environment
    checks actions itself: an out-of-range or illegal one raises ``IllegalActionError``)."""
    return OrderChecks(raw_env(variant, players, **kwargs))
