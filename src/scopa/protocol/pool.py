"""A factory of external bots for the arena that reuses running programs.

Starting a program per game would cost more than the game; the pool hands out an idle
program (told to start a new match with the new seed) or starts one, and takes it back
when the game is over. A program that failed is never reused.
"""

from __future__ import annotations

from .client import ExternalBot


class ExternalBotPool:
    """``pool(seed) -> ExternalBot``; ``pool.release(bot)`` after the game; ``close()``."""

    def __init__(self, command: list[str], timeout: float = 10.0) -> None:
        self.command = list(command)
        self.timeout = timeout
        self._idle: list[ExternalBot] = []
        self._all: list[ExternalBot] = []

    def __call__(self, seed: int) -> ExternalBot:
        if self._idle:
            bot = self._idle.pop()
        else:
            bot = ExternalBot(self.command, self.timeout)
            self._all.append(bot)
        bot.reset(seed)
        return bot

    def ready_name(self) -> str | None:
        """The name the program gives in ``ready`` (None if none): one program is started,
        asked, and kept for the first game."""
        bot = self._idle[-1] if self._idle else self(0)
        self.release(bot)
        return bot.ready_name

    def release(self, bot: ExternalBot) -> None:
        if bot.alive and bot not in self._idle:
            self._idle.append(bot)

    def close(self) -> None:
        for bot in self._all:
            bot.close()
        self._all.clear()
        self._idle.clear()
