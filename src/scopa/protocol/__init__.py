"""The bot protocol (docs/bot-protocol.md): JSON lines over stdin/stdout, like UCI.

- ``ExternalBot(command, timeout)``: the host side, a ``Bot`` backed by a program;
- ``serve(...)``: the bot side, used by ``scopa bot LEVEL``;
- ``view_from_dict``: a ``PlayerView`` back from its JSON form.
"""

from .client import ExternalBot
from .messages import PROTOCOL_VERSION, BotProtocolError, decode, encode
from .pool import ExternalBotPool
from .serve import serve
from .views import view_from_dict

__all__ = [
    "PROTOCOL_VERSION",
    "BotProtocolError",
    "ExternalBot",
    "ExternalBotPool",
    "decode",
    "encode",
    "serve",
    "view_from_dict",
]
