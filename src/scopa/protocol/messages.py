"""The wire format of the bot protocol: one JSON object per line, each with a ``type``.

See docs/bot-protocol.md for every message. This module only encodes and decodes lines;
the host side is ``client.ExternalBot`` and the bot side is ``serve.serve``.
"""

from __future__ import annotations

import json
from typing import Any

PROTOCOL_VERSION = 1


def version_of(message: dict[str, Any]) -> Any:
    """The protocol a ``hello`` or ``ready`` names: none named means the current one
    (nothing is lost by being lenient there; a different version is still refused)."""
    return message.get("protocol", PROTOCOL_VERSION)

#: the longest line either side accepts (a view is a few kilobytes)
MAX_LINE = 1 << 20

HOST_TYPES = ("hello", "new_game", "move_request", "hand_end", "match_end", "quit")
BOT_TYPES = ("ready", "move", "log", "error")


class BotProtocolError(RuntimeError):
    """An external bot broke the protocol: crashed, hung, answered nonsense or an illegal
    move. The message says which bot and what happened."""


def encode(message: dict[str, Any]) -> str:
    """One line of JSON (no newline inside), ending in a newline."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


def decode(line: str) -> dict[str, Any]:
    """Parse one line into a message; ``ValueError`` with a short reason if it is not one."""
    if len(line) > MAX_LINE:
        raise ValueError(f"line longer than {MAX_LINE} characters")
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON ({e.msg}): {shorten(line)}") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError(f'not a message (an object with a "type"): {shorten(line)}')
    return data


def clean_name(name: object, limit: int = 64) -> str | None:
    """A program's ``ready`` name fit for reports: printable, one line, at most ``limit``
    characters; None when it sent no usable name."""
    if not isinstance(name, str):
        return None
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in name).split())
    return text[:limit] or None


def shorten(text: str, limit: int = 120) -> str:
    """A line clipped for error messages."""
    text = text.rstrip("\n")
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
