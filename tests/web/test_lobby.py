"""The lobby: the four levels for people (engines behind an explained "advanced" switch),
every word switching language at once with the choices kept, no large empty gaps, and no
serious accessibility violation (axe-core)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from web_helpers import axe_violations, made_table, open_custom_table, shot, switch_language

pytestmark = pytest.mark.browser

LEVELS_EN = ["Bot: beginner", "Bot: intermediate", "Bot: expert", "Bot: champion"]
LEVELS_IT = ["Bot: principiante", "Bot: intermedio", "Bot: esperto", "Bot: campione"]
ENGINES = ["alphabeta", "alphabeta-24x7", "alphabeta-4x3", "greedy", "heuristic", "learned",
           "random", "search"]


def seat_options(page: Page, seat: int = 1) -> list[str]:
    return page.locator(f"#seat-{seat} option").all_inner_texts()


def open_lobby(page: Page, server: str) -> None:
    page.goto(server + "/")
    open_custom_table(page)


def test_the_four_levels_and_the_engines_behind_a_switch(server, page, artifacts):
    open_lobby(page, server)
    assert seat_options(page) == ["Friend (invite)", "Any bot online", *LEVELS_EN]
    expect(page.locator("#advanced")).not_to_be_checked()
    expect(page.locator("#advanced-help")).to_contain_text("The four levels are the way to play")
    page.check("#advanced")
    options = seat_options(page)
    assert options[:6] == ["Friend (invite)", "Any bot online", *LEVELS_EN]
    assert sorted(options[6:]) == [f"Engine: {name}" for name in ENGINES]  # never the oracle
    expect(page.locator('#seat-1 optgroup[label="Engines"] option')).to_have_count(len(ENGINES))
    help_items = page.locator("#advanced-help li")
    expect(help_items).to_have_count(len(ENGINES))
    expect(help_items.filter(has_text="greedy")).to_contain_text("the beginner level")
    shot(page, artifacts, "lobby-02-advanced")
    # an engine can be chosen, and the table is made with it
    page.select_option("#seat-1", "bot:greedy")
    page.fill("#name", "Anna")
    with page.expect_response(made_table) as answer:
        page.click("button.start")
    table = answer.value.json()["table"]
    assert table["seats"][1]["level"] == "greedy"


def test_switching_the_engines_off_brings_the_seat_back_to_a_level(server, page):
    open_lobby(page, server)
    page.check("#advanced")
    page.select_option("#seat-1", "bot:search")
    page.uncheck("#advanced")
    assert seat_options(page) == ["Friend (invite)", "Any bot online", *LEVELS_EN]
    expect(page.locator("#seat-1")).to_have_value("bot:intermediate")


def test_every_word_switches_language_at_once_and_the_choices_stay(server, page, artifacts):
    open_lobby(page, server)
    page.select_option("#variant", "scopone-scientifico")
    page.select_option("#target", "31")
    page.select_option("#seat-2", "bot:champion")
    page.fill("#name", "Giulia")
    page.check("#public")
    page.evaluate("window.notReloaded = true")
    switch_language(page)
    # read in the same instant as the click's handler returned: nothing comes later
    now = page.evaluate(
        """() => ["#lang [aria-pressed=true]", ".hero-title", "#new-title", "#open-title",
                  "#history-title", "label[for=variant]", "#seat-1 option[value='bot:expert']"]
                 .map((s) => document.querySelector(s).textContent)"""
    )
    assert now == ["Italiano", "Scopa: il classico italiano, online", "Apri un tavolo",
                   "Tavoli aperti", "Partite finite", "Variante", "Bot: esperto"]  # fmt: skip
    expect(page.locator(".hero-title")).to_have_text("Scopa: il classico italiano, online")
    expect(page.locator("#new-title")).to_have_text("Apri un tavolo")
    expect(page.locator("#open-title")).to_have_text("Tavoli aperti")
    expect(page.locator("label[for=variant]")).to_have_text("Variante")
    assert seat_options(page)[1:] == ["Un bot in linea qualsiasi", *LEVELS_IT]
    expect(page.locator("#advanced-help")).to_contain_text("I quattro livelli")
    # the choices made before the switch are all still there
    expect(page.locator("#variant")).to_have_value("scopone-scientifico")
    expect(page.locator("#target")).to_have_value("31")
    expect(page.locator("#seat-2")).to_have_value("bot:champion")
    expect(page.locator("#name")).to_have_value("Giulia")
    expect(page.locator("#public")).to_be_checked()
    assert page.evaluate("window.notReloaded") is True
    shot(page, artifacts, "lobby-03-italian")
    switch_language(page)
    expect(page.locator(".hero-title")).to_have_text("Scopa, the Italian sweep")
    assert seat_options(page)[1:] == ["Any bot online", *LEVELS_EN]


def gaps(page: Page) -> dict[str, float]:
    """Vertical space between neighbouring blocks of the lobby, in CSS pixels."""
    return page.evaluate(
        """() => {
          const box = (s) => document.querySelector(s).getBoundingClientRect();
          const below = (a, b) => box(b).top - box(a).bottom;
          const phone = innerWidth <= 820;
          const out = {
            "hero to lobby": below(".hero", ".lobby"),
            "open tables to history": below(".open-tables", ".history"),
            "play to the custom table": below(".play-now", "#custom-table"),
            "sizes to seats": below(".new-table .field-row", ".seats"),
          };
          if (phone) out["form to open tables"] = below("#custom-table", ".open-tables");
          return out;
        }"""
    )


@pytest.mark.parametrize(("width", "height"), [(1280, 860), (390, 844)], ids=["desktop", "phone"])
def test_no_large_empty_gaps(server, new_page, artifacts, width, height):
    page = new_page(viewport={"width": width, "height": height})
    open_lobby(page, server)
    for lang in ("en", "it"):
        measured = gaps(page)
        assert all(0 <= gap <= 24 for gap in measured.values()), (lang, measured)
        name = "desktop" if width > 820 else "phone"
        shot(page, artifacts, f"lobby-01-{name}-{lang}")
        switch_language(page)


@pytest.mark.parametrize(("lang", "width", "height"),
                         [("en", 1280, 860), ("it", 1280, 860), ("en", 390, 844)],
                         ids=["desktop-en", "desktop-it", "phone-en"])
def test_axe_finds_no_serious_violation_in_the_lobby(server, new_page, lang, width, height):
    page = new_page(viewport={"width": width, "height": height})
    open_lobby(page, server)
    if lang == "it":
        switch_language(page)
        expect(page.locator("#new-title")).to_have_text("Apri un tavolo")
    page.check("#advanced")
    assert axe_violations(page) == []


def test_the_rules_page_explains_cirulla_in_both_languages(server, page):
    """Every variant the lobby offers is on the rules page; Cirulla, the newest, with its
    declarations and the Declare / Pass choice named as the table names it."""
    page.goto(server + "/#rules")
    section = page.locator("#v-cirulla h3", has_text="Cirulla")
    expect(section).to_have_count(1)
    expect(page.locator("main")).to_contain_text("The seven of cups is wild")
    expect(page.locator("main")).to_contain_text("Declare")
    switch_language(page)
    expect(page.locator("main")).to_contain_text("Il sette di coppe è la matta")
    expect(page.locator("main")).to_contain_text("Dichiara")
