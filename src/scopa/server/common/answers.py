"""How a route's answer is typed (issue 41): a TypedDict marked ``@strict``, so the OpenAPI
document names each field, FastAPI checks the answer against it, and a field the type does
not name is refused (a 500 in the tests, never a field sent unannounced). TypedDicts cost
nothing where the same dicts are built on every move (frames)."""

from __future__ import annotations

from pydantic import ConfigDict, with_config

#: answers name every field they hold, and nothing else
strict = with_config(ConfigDict(extra="forbid"))

#: a number kept as it was stored (a rating, seconds, minutes): an int stays an int on the
#: wire, where ``float`` alone would write 1500 as 1500.0
Number = int | float
