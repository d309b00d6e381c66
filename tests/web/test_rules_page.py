"""The rules page: a section per variant in every language, and the player counts, deals and
team layouts it shows are the ones the server declares (/api/meta), the same the lobby
offers."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from web_helpers import axe_violations, open_custom_table, shot, switch_language

from scopa import VARIANTS

pytestmark = pytest.mark.browser

HEADINGS = {
    "en": ["Players", "Deal", "Captures", "Points", "Target", "Strategy"],
    "it": ["Giocatori", "Distribuzione", "Prese", "Punti", "Traguardo", "Strategia"],
    "es": ["Jugadores", "Reparto", "Capturas", "Puntos", "Meta", "Estrategia"],
}
TITLE = {"en": "How to play", "it": "Regole", "es": "Cómo se juega"}
AND = {"en": "1 and 4", "it": "1 e 4", "es": "1 y 4"}


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def lobby_player_counts(page, server, variants):  # type: ignore[no-untyped-def]
    page.goto(server + "/")
    open_custom_table(page)
    counts = {}
    for v in variants:
        page.select_option("#variant", v)
        counts[v] = [int(x) for x in page.locator("#players option").evaluate_all(
            "els => els.map(e => e.value)")]
    return counts


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_every_variant_has_its_section_with_the_declared_counts(server, page, artifacts, language):
    meta = page.request.get(server + "/api/meta").json()
    variants = {v["name"]: v for v in meta["variants"]}
    page.goto(server + "/#rules")
    if language != "en":
        switch_language(page, language)
    expect(page.locator(".doc h1")).to_contain_text(TITLE[language])
    expect(page.locator(".doc[data-ready]")).to_have_count(1)
    expect(page.locator("section.variant")).to_have_count(len(variants))
    for name, v in variants.items():
        section = page.locator(f"section.variant#v-{name}")
        expect(section).to_have_count(1)
        terms = section.locator("dt").all_inner_texts()
        assert all(h in terms for h in HEADINGS[language]), (name, terms)
        players = section.locator('[data-meta="players"]').inner_text()
        assert numbers(players) == v["players"], (name, players)
        target = section.locator('[data-meta="target"]').inner_text()
        assert numbers(target) == [v["target"]], name
        for table in section.locator(".deal-table").all():  # the deal where it differs
            rows = table.locator("tbody tr").evaluate_all("els => els.map(e => +e.dataset.players)")
            assert rows == v["players"], name
    # the general deal table: one row per player count, every card dealt
    scopa = variants["scopa"]
    rows = page.locator('.doc > [data-meta="deals"] tbody tr')
    expect(rows).to_have_count(len(scopa["players"]))
    for i, p in enumerate(scopa["players"]):
        cells = rows.nth(i).locator("th, td").all_inner_texts()
        deal = scopa["deals"][str(p)]
        assert numbers(cells[0]) == [p] and numbers(cells[2]) == [deal["table"]], cells
    # the intro says how many may play, from the same facts
    intro = page.locator('.doc > p [data-meta="players"]').first.inner_text()
    assert numbers(intro) == scopa["players"]
    # a layout for every team game (fewer sides than players) of every variant
    games = {(p, n) for v in variants.values() for p in v["players"]
             for n in v["teams"][str(p)] if n < p}
    drawn = page.locator("figure.seat-layout").evaluate_all(
        "els => els.map(e => [+e.dataset.players, +e.dataset.sides])")
    assert {tuple(x) for x in drawn} == games and len(drawn) == len(games)
    six_pairs = page.locator('figure.seat-layout[data-players="6"][data-sides="3"] figcaption')
    expect(six_pairs).to_contain_text(AND[language])
    assert axe_violations(page) == []
    shot(page, artifacts, f"rules-{language}")


def test_the_lobby_offers_the_counts_the_rules_page_shows(server, page):
    page.goto(server + "/#rules")
    expect(page.locator(".doc[data-ready]")).to_have_count(1)
    shown = {
        name.removeprefix("v-"): numbers(page.locator(f"#{name} [data-meta=players]").inner_text())
        for name in page.locator("section.variant").evaluate_all("els => els.map(e => e.id)")
    }
    assert shown and shown == lobby_player_counts(page, server, list(shown))
    assert shown["scopa"] == [2, 3, 4, 5, 6]  # five players too (the page once said otherwise)


def test_the_rules_page_fits_a_phone(server, new_page, artifacts):
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(server + "/#rules")
    expect(phone.locator(".doc[data-ready]")).to_have_count(1)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, artifacts, "rules-phone")


def test_without_the_server_facts_the_rules_still_read(server, page, page_errors):
    """/api/meta failing: the text stays, and the tables' places say what went wrong."""
    page_errors.allow(r"status of 503 .*/api/meta")
    page.route("**/api/meta", lambda route: route.fulfill(status=503, body="down"))
    page.goto(server + "/#rules")
    expect(page.locator(".doc[data-ready]")).to_have_count(1)
    expect(page.locator("section.variant")).to_have_count(len(VARIANTS))
    expect(page.locator('.doc > [data-meta="deals"] .error')).to_contain_text("went wrong")
    expect(page.locator("figure.seat-layout")).to_have_count(0)
