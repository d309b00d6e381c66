"""Reinforcement-learning interfaces to the engine (extra ``rl``: numpy, gymnasium,
pettingzoo, open_spiel): a PettingZoo AEC environment (``env``), a Gymnasium single-agent
environment against our bots (``SingleAgentEnv``), and an OpenSpiel game registered by
``import scopa.rl.openspiel``. All share one fixed action space (``actions``) and one
encoding of a seat's view (``encoding``). See docs/rl.md.
"""

from .actions import NUM_ACTIONS, TAKE, IllegalActionError, Turn, legal_actions, move_actions
from .aec import env, raw_env
from .encoding import Layout
from .single import SingleAgentEnv

__all__ = [
    "NUM_ACTIONS",
    "TAKE",
    "IllegalActionError",
    "Layout",
    "SingleAgentEnv",
    "Turn",
    "env",
    "legal_actions",
    "move_actions",
    "raw_env",
]
