"""Every language of the site says everything (issue 44 section 2): the page's strings
(web/js/strings.js), the catalogue shared with the server and the terminal
(web/messages.json), the rules and strategy pages, the lessons and the offline page have
every key or text in every language of ``scopa.messages.LANGUAGES``, with the same
placeholders, and nothing is left in English except the texts allowed below (proper names,
symbols, words the languages share)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from importlib import resources
from typing import Any

import pytest

from scopa.messages import LANGUAGES, catalogue

PLACEHOLDER = re.compile(r"\{(\w+)\}")
WEB = resources.files("scopa").joinpath("web")

#: keys whose text may be the English one in another language, and why
SAME_AS_ENGLISH = {
    "app.title": "the game's name", "pool.scopone": "a game's name",
    "deck.napoletane": "a deck's name", "deck.piacentine": "a deck's name",
    "moment.scopa": "the game word", "moment.settebello": "the game word",
    "table.sweep": "the game word", "chat.phrase.scopa": "the game word",
    "chat.phrase.bella": "the game word", "table.sweeps": "the game word (Italian)",
    "table.sweeps1": "the game word (Italian)",
    "profile.item.settebello": "the game word", "profile.item.primiera": "the game word",
    "item.settebello": "the game word", "item.primiera": "the game word",
    "option.primiera": "the game word",
    "item.napola": "a game word", "option.napola": "a game word",
    "item.re_bello": "a game word", "option.re_bello": "a game word",
    "item.piccola": "a game word", "option.piccola": "a game word",
    "item.grande": "a game word (also Spanish)", "option.grande": "a game word (also Spanish)",
    "bot.badge": "a badge", "event.buchholz": "a proper name", "event.diff": "an abbreviation",
    "event.roundShort": "an abbreviation", "lobby.bot": "the word bot",
    "end.ratingChange": "symbols around the placeholders", "list.comma": "punctuation",
    "keys.arrows": "symbols", "keys.digits": "symbols", "keys.options": "symbols",
    "keys.help": "a symbol", "keys.esc": "a key's name", "keys.tab": "a key's name",
    "learn.no": "the same word", "option.value.false": "the same word",
    "account.password": "the word Italians use", "event.mode.online": "the word Italians use",
    "nav.menu": "the same word", "learn.total": "the same word",
    "settings.speed.normal": "the same word", "board.provisional": "the same word",
}


def page_strings() -> dict[str, dict[str, str]]:
    """strings.js read as data: language -> key -> text (every line is a key or a comment)."""
    text = WEB.joinpath("js", "strings.js").read_text("utf-8")
    blocks: dict[str, dict[str, str]] = {}
    for block in re.finditer(r"^  (\w+): \{\n(.*?)^  \},\n", text, re.M | re.S):
        table: dict[str, str] = {}
        for line in block.group(2).splitlines():
            if not line.strip() or line.strip().startswith("//"):
                continue
            found = re.fullmatch(r'\s+"([^"]+)": (".*"),', line)
            assert found, f"not a key line in strings.js: {line!r}"
            assert found.group(1) not in table, f"{found.group(1)} twice in {block.group(1)}"
            table[found.group(1)] = json.loads(found.group(2))
        blocks[block.group(1)] = table
    return blocks


def test_the_page_and_the_server_list_the_same_languages() -> None:
    i18n = WEB.joinpath("js", "i18n.js").read_text("utf-8")
    listed = re.search(r"export const LANGUAGES = \[(.*?)\];", i18n)
    assert listed, "i18n.js has no LANGUAGES"
    assert tuple(json.loads("[" + listed.group(1) + "]")) == LANGUAGES
    assert LANGUAGES[0] == "en" and "es" in LANGUAGES
    names = re.search(r"export const LANGUAGE_NAMES = \{(.*?)\};", i18n)
    assert names and all(f"{code}:" in names.group(1) for code in LANGUAGES)
    raw = json.loads(WEB.joinpath("messages.json").read_text("utf-8"))
    assert set(raw) - {"_comment"} == set(LANGUAGES)
    assert set(page_strings()) == set(LANGUAGES)


#: keys of one language's own words, different in each ("deckword.<deck>.<a word of this
#: language>": how a French- or Spanish-suited deck says it, web/js/decks/words.js)
OWN_WORDS = "deckword."


def _variant_of(key: str, known: set[str]) -> bool:
    """``card.the.r8`` or ``card.the.r9.french``: a variant of a known key (an article)."""
    parts = key.split(".")
    return any(".".join(parts[:i]) in known for i in range(1, len(parts)))


def _compare(tables: dict[str, dict[str, str]], where: str,
             known: Iterable[str] = ()) -> list[str]:
    """What is missing, extra, mismatched or left in English, in every language (``known``:
    the other table's keys, which a variant may extend)."""
    en = {k: v for k, v in tables["en"].items() if not k.startswith(OWN_WORDS)}
    faults: list[str] = []
    for lang in LANGUAGES[1:]:
        other = {k: v for k, v in tables[lang].items() if not k.startswith(OWN_WORDS)}
        faults += [f"{where} {lang}: {k} missing" for k in en if k not in other]
        # a language may add a key only as a variant of an English one (an article)
        faults += [f"{where} {lang}: {k} unknown" for k in other
                   if k not in en and not _variant_of(k, set(en) | set(known))]
        for key, text in en.items():
            if key not in other:
                continue
            if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(other[key])):
                faults.append(f"{where} {lang}: {key} placeholders differ")
            if not other[key].strip():
                faults.append(f"{where} {lang}: {key} empty")
            if other[key] == text and key not in SAME_AS_ENGLISH:
                faults.append(f"{where} {lang}: {key} left in English: {text!r}")
    return faults


def test_every_page_string_is_in_every_language() -> None:
    tables = page_strings()
    assert len(tables["en"]) > 500  # the file was read
    assert _compare(tables, "strings.js", set(catalogue()["en"])) == []


def test_every_language_says_its_suits_in_the_other_decks_words() -> None:
    """A French- or Spanish-suited deck renames the suits a language says (deckword.*):
    every suit word of every language has its French name, and its Spanish one where the
    language does not already say it (Spanish itself; English clubs are French clubs)."""
    tables = page_strings()
    if not any(k.startswith(OWN_WORDS) for k in tables["en"]):
        pytest.skip("no deck of other suits yet")
    spanish = {catalogue()["es"][f"suit.{s}"] for s in "dcsb"}
    for lang in LANGUAGES:
        for suit in "dcsb":
            word = catalogue()[lang][f"suit.{suit}"]
            if not (lang == "en" and word == "clubs"):
                assert f"{OWN_WORDS}french.{word}" in tables[lang], (lang, word)
            if word not in spanish:
                assert f"{OWN_WORDS}spanish.{word}" in tables[lang], (lang, word)
        for key in ("deck.french", "deck.spanish"):
            assert tables[lang].get(key), (lang, key)


def test_every_catalogue_message_is_in_every_language() -> None:
    assert _compare(catalogue(), "messages.json") == []


def test_the_allow_list_names_only_keys_that_exist() -> None:
    known = set(page_strings()["en"]) | set(catalogue()["en"])
    assert set(SAME_AS_ENGLISH) <= known


def test_a_text_left_in_english_is_found() -> None:
    tables = {"en": {"a.b": "Hello {name}", "app.title": "Scopa"}}
    for lang in LANGUAGES[1:]:
        tables[lang] = {"a.b": "Hello {name}", "app.title": "Scopa", "zz.q": "?"}
    faults = _compare(tables, "t")
    assert "t es: a.b left in English: 'Hello {name}'" in faults
    assert "t es: zz.q unknown" in faults
    assert not any("app.title" in f for f in faults)


@pytest.mark.parametrize("page", ["rules", "guide"])
def test_every_content_page_is_in_every_language(page: str) -> None:
    en = WEB.joinpath("content", f"{page}.en.html").read_text("utf-8")
    for lang in LANGUAGES[1:]:
        other = WEB.joinpath("content", f"{page}.{lang}.html").read_text("utf-8")
        # a full translation: the same headings and sections, about as long
        for tag in ("h1", "h2", "h3", "table", "li"):
            assert other.count(f"<{tag}") == en.count(f"<{tag}"), (lang, page, tag)
        assert len(other) > 0.8 * len(en), (lang, page)


def _texts(node: Any) -> list[dict[str, str]]:
    if isinstance(node, dict):
        if "en" in node and all(isinstance(v, str) for v in node.values()):
            return [node]
        return [t for v in node.values() for t in _texts(v)]
    if isinstance(node, list):
        return [t for v in node for t in _texts(v)]
    return []


def test_every_lesson_text_is_in_every_language() -> None:
    lessons = json.loads(WEB.joinpath("content", "lessons.json").read_text("utf-8"))
    texts = _texts(lessons["lessons"])
    assert len(texts) > 100
    for text in texts:
        assert set(text) == set(LANGUAGES), text
        assert all(text[lang].strip() for lang in LANGUAGES), text


def test_the_offline_page_speaks_every_language() -> None:
    page = WEB.joinpath("offline.html").read_text("utf-8")
    for lang in LANGUAGES:
        assert f'<section lang="{lang}">' in page, lang
