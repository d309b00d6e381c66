"""Bots: every fair bot sees only a PlayerView and returns a legal Move.

``make_bot(name, seed)`` builds a bot by name (``random``, ``greedy``, ``heuristic``,
``search``, ``oracle``, ``learned``, the sparring bot ``alphabeta``) or difficulty level
(``beginner``, ``intermediate``, ``expert``, ``champion``); ``bot.choose(view, limit)``
picks a move. The omniscient ``oracle`` is hosted with ``bot.choose_full(game, limit)``
instead. See docs/bots.md.
"""

from .abpimc import SETTINGS as _ALPHABETA
from .abpimc import AlphaBetaBot, AlphaBetaFactory
from .base import Bot, Limit, RandomBot, bot_names, make_bot, register_bot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .learned import LearnedBot
from .levels import LEVELS, LevelBot, level_factory
from .search import OracleBot, SearchBot

register_bot("greedy", GreedyBot)
register_bot("heuristic", HeuristicBot)
register_bot("search", SearchBot)
register_bot("oracle", OracleBot)
register_bot("learned", LearnedBot)
for _name, (_worlds, _depth) in _ALPHABETA.items():
    register_bot(_name, AlphaBetaFactory(_worlds, _depth))
for _level in LEVELS:
    register_bot(_level, level_factory(_level))

__all__ = [
    "AlphaBetaBot",
    "Bot",
    "Limit",
    "RandomBot",
    "GreedyBot",
    "HeuristicBot",
    "LearnedBot",
    "SearchBot",
    "OracleBot",
    "LevelBot",
    "LEVELS",
    "bot_names",
    "make_bot",
    "register_bot",
]
