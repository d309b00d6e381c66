"""Bots: every bot sees only a PlayerView and returns a legal Move.

``make_bot(name, seed)`` builds a bot by name or difficulty level.
"""

from .base import Bot, Limit, RandomBot, make_bot, register_bot

__all__ = ["Bot", "Limit", "RandomBot", "make_bot", "register_bot"]
