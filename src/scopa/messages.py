"""Structured messages (a key and its arguments) rendered in English, Italian or Spanish.

Explanations travel as data, ``{"key": "why.risk", "args": {"total": 7, "n": 3, ...}}``, so
one analysis serves every language. The texts live in one catalogue,
``scopa/web/messages.json``, which the browser loads too (``web/js/i18n.js``): the terminal,
``scopa analyse`` and the web page render the same keys with the same rules.

An argument is a number or a string, or one of these typed values:
``{"card": "7d"}`` (the card's name with its article), ``{"cards": ["3s", "4d"]}`` (a list of
them), ``{"rank": 7}`` / ``{"ranks": 7}`` (the rank's word, singular / plural),
``{"list": [message, ...]}`` (messages joined as a list) or a nested message.
A key has a variant ending in ``.1`` used when ``args["n"] == 1``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, TypedDict

from .cards import RANK, card_text
from .cards import card as parse_card

LANGUAGES = ("en", "it", "es")


class Message(TypedDict):
    """A message: a catalogue key and the arguments its text is filled with."""

    key: str
    args: dict[str, Any]


def message(key: str, **args: Any) -> Message:
    """``message("why.risk", total=7, n=3, ranks=ranks(7))``."""
    return {"key": key, "args": args}


def card(c: int) -> dict[str, str]:
    """A card argument (rendered as its name with the article)."""
    return {"card": card_text(c)}


def cards(cs: Iterable[int]) -> dict[str, list[str]]:
    """A list-of-cards argument."""
    return {"cards": [card_text(c) for c in cs]}


def rank(r: int) -> dict[str, int]:
    return {"rank": r}


def ranks(r: int) -> dict[str, int]:
    return {"ranks": r}


def items(messages: Sequence[Message]) -> dict[str, list[Message]]:
    """A list-of-messages argument."""
    return {"list": list(messages)}


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """The catalogue: language -> key -> text (read once from the package data)."""
    text = resources.files("scopa").joinpath("web", "messages.json").read_text("utf-8")
    data = json.loads(text)
    return {lang: dict(data[lang]) for lang in LANGUAGES}


def text(key: str, lang: str = "en") -> str:
    """A key's text in ``lang``, falling back to English; ``KeyError`` for an unknown key."""
    table = catalogue()
    if lang not in table:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    found = table[lang].get(key)
    if found is None:
        found = table["en"].get(key)
    if found is None:
        raise KeyError(f"no message {key!r} in the catalogue")
    return found


def has(key: str, lang: str = "en") -> bool:
    return key in catalogue()[lang] or key in catalogue()["en"]


def fill(template: str, values: Mapping[str, str]) -> str:
    """Replace each ``{name}`` in ``template``."""
    out = template
    for name, value in values.items():
        out = out.replace("{" + name + "}", value)
    return out


def render(msg: Message | Mapping[str, Any], lang: str = "en") -> str:
    """A message in words."""
    key = msg["key"]
    args = msg.get("args") or {}
    if args.get("n") == 1 and has(key + ".1", lang):
        key += ".1"
    return fill(text(key, lang), {name: _arg(value, lang) for name, value in args.items()})


def sentence(msg: Message | Mapping[str, Any], lang: str = "en") -> str:
    """A message as a sentence: its first letter capitalised."""
    words = render(msg, lang)
    return words[:1].upper() + words[1:]


def join(parts: Sequence[str], lang: str = "en") -> str:
    """``a, b and c`` in the language."""
    if not parts:
        return ""
    out = parts[0]
    for i, part in enumerate(parts[1:], 1):
        key = "list.and" if i == len(parts) - 1 else "list.comma"
        out = fill(text(key, lang), {"rest": out, "last": part, "next": part})
    return out


def card_words(notation: str, lang: str = "en") -> str:
    """``7d`` -> "the 7 of coins" / "il sette di denari"."""
    c = parse_card(notation)
    r = RANK[c]
    name = fill(text("card.name", lang), {
        "rank": text(f"rank.{r}", lang), "suit": text(f"suit.{notation[-1].lower()}", lang)})
    article = f"card.the.r{r}" if has(f"card.the.r{r}", lang) else "card.the"
    return fill(text(article, lang), {"name": name})


def _arg(value: Any, lang: str) -> str:
    if isinstance(value, Mapping):
        if "key" in value:
            return render(value, lang)
        if "card" in value:
            return card_words(value["card"], lang)
        if "cards" in value:
            return join([card_words(c, lang) for c in value["cards"]], lang)
        if "rank" in value:
            return text(f"rank.{value['rank']}", lang)
        if "ranks" in value:
            return text(f"ranks.{value['ranks']}", lang)
        if "list" in value:
            return join([render(m, lang) for m in value["list"]], lang)
        raise ValueError(f"not a message argument: {value!r}")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
