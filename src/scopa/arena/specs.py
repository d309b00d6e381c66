"""Bot specifications on the command line and in the arena: a registered name, a frozen
bot (``frozen.FROZEN``: a level pinned at a commit, run as an outside program), or
``cmd:<command line>`` for an external program speaking the bot protocol."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from typing import Any

from ..bots.base import Bot, bot_names, make_bot
from .frozen import FROZEN, frozen_command, is_frozen

CMD_PREFIX = "cmd:"


class NamedFactory:
    """Builds a registered bot from a seed (picklable, unlike a lambda)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, seed: int) -> Bot:
        return make_bot(self.name, seed)


def bot_factory(spec: str, timeout: float = 10.0) -> Any:
    """The factory for a spec; raise ValueError for an unknown name or an empty command.

    An outside program is not started until the factory is first called."""
    if is_frozen(spec):
        from ..protocol.pool import ExternalBotPool

        return ExternalBotPool(frozen_command(spec), timeout)
    command = command_line(spec)
    if command is not None:
        argv = shlex.split(command)
        if not argv:
            raise ValueError(f"{spec!r}: give the command line after 'cmd:'")
        from ..protocol.pool import ExternalBotPool

        return ExternalBotPool(argv, timeout)
    if spec not in bot_names():
        raise ValueError(
            f"unknown bot {spec!r}; choose one of {', '.join(bot_names() + list(FROZEN))} "
            "or cmd:<program>"
        )
    return NamedFactory(spec)


def is_registered(spec: str) -> bool:
    """Whether a spec names a registered bot (not a frozen bot nor an outside program)."""
    return spec in bot_names() and not is_frozen(spec) and command_line(spec) is None


def command_line(spec: str) -> str | None:
    """The command line of an outside program's spec (None for a registered bot)."""
    return spec[len(CMD_PREFIX) :] if spec.startswith(CMD_PREFIX) else None


def short_name(spec: str) -> str:
    """A spec as a name, for a program that gives none: its command with file names for
    paths, the middle left out past 40 characters (both ends tell programs apart)."""
    command = command_line(spec)
    if command is None:
        return spec
    argv = [os.path.basename(a) if os.sep in a else a for a in shlex.split(command)]
    short = CMD_PREFIX + " ".join(argv)
    return short if len(short) <= 40 else short[:20] + "..." + short[-17:]


def unique_names(names: Sequence[str]) -> list[str]:
    """The names with a suffix where one is taken: ``x``, ``x#2``, ``x#3``..."""
    out: list[str] = []
    for name in names:
        unique, n = name, 1
        while unique in out:
            n += 1
            unique = f"{name}#{n}"
        out.append(unique)
    return out
