"""Bot specifications on the command line and in the arena: a registered name, or
``cmd:<command line>`` for an external program speaking the bot protocol."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from typing import Any

from ..bots.base import Bot, bot_names, make_bot

CMD_PREFIX = "cmd:"


class NamedFactory:
    """Builds a registered bot from a seed (picklable, unlike a lambda)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, seed: int) -> Bot:
        return make_bot(self.name, seed)


def bot_factory(spec: str, timeout: float = 10.0, check_only: bool = False) -> Any:
    """The factory for a spec; raise ValueError for an unknown name or an empty command."""
    if spec.startswith(CMD_PREFIX):
        command = shlex.split(spec[len(CMD_PREFIX) :])
        if not command:
            raise ValueError(f"{spec!r}: give the command line after 'cmd:'")
        if check_only:
            return None
        from ..protocol.pool import ExternalBotPool

        return ExternalBotPool(command, timeout)
    if spec not in bot_names():
        raise ValueError(
            f"unknown bot {spec!r}; choose one of {', '.join(bot_names())} or cmd:<program>"
        )
    return NamedFactory(spec)


def display_names(specs: Sequence[str]) -> list[str]:
    """Names for reports: repeated specs get #1, #2, ... so each line is distinct."""
    out = []
    for i, s in enumerate(specs):
        short = s
        if s.startswith(CMD_PREFIX):
            argv = shlex.split(s[len(CMD_PREFIX) :])
            short = CMD_PREFIX + " ".join([os.path.basename(argv[0]), *argv[1:]])
        if len(short) > 40:
            short = short[:37] + "..."
        if specs.count(s) > 1:
            short += f"#{specs[: i + 1].count(s)}"
        out.append(short)
    return out
