"""Score-item labels have one home, the message catalogue (``item.<key>``): every item the
engine declares has a name in both languages, the browser's own strings do not repeat
them, and the terminal's sheet shows the catalogue's words."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from rich.console import Console

from scopa import items as items_module
from scopa.items import ScoreItem
from scopa.meaning import meaning_of
from scopa.messages import LANGUAGES, catalogue
from scopa.rules import VARIANTS, Rules
from scopa.scoring import score_hand
from scopa.terminal.render import item_label, score_sheet


def _declared_items() -> list[ScoreItem]:
    found = [v for v in vars(items_module).values() if isinstance(v, ScoreItem)]
    found += list(items_module.PRIMIERA.values())
    return found


def test_every_declared_item_has_a_label_in_both_languages() -> None:
    keys = {item.key for item in _declared_items()}
    assert {"cards", "primiera", "grande", "declarations"} <= keys  # the module was read
    for item in _declared_items():
        assert item.label == f"item.{item.key}"
        for lang in LANGUAGES:
            assert catalogue()[lang].get(item.label), (lang, item.label)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_played_item_has_a_label(variant: str) -> None:
    for item in meaning_of(Rules.preset(variant)).items:
        assert all(item.label in catalogue()[lang] for lang in LANGUAGES), item.key


def test_the_page_keeps_no_item_names_of_its_own() -> None:
    page = resources.files("scopa").joinpath("web", "js", "strings.js").read_text("utf-8")
    keys = set(re.findall(r'^\s+"([\w.]+)":', page, re.M))
    assert "sheet.title" in keys  # the file was read
    for item in _declared_items():
        assert f"sheet.{item.key}" not in keys
    sheet_js = resources.files("scopa").joinpath("web", "js", "sheet.js").read_text("utf-8")
    assert "item.label" in sheet_js


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_sheet_shows_the_catalogue_names(lang: str) -> None:
    rules = Rules.preset("cirulla")
    result = score_hand(rules, [0x3FF, 0xFFFFFFFC00], [1, 0], [3, 0])
    console = Console(record=True, width=120)
    console.print(score_sheet(result, ["Ann", "Bob"], "sheet", lang))
    text = console.export_text()
    for item in result["items"]:
        name = catalogue()[lang][item["label"]].lower()
        assert name in text, name
        assert item_label(item, lang) == name
    assert item_label({"key": "unheard_of"}, lang) == "unheard_of"
