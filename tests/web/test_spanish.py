"""Spanish (issue 44 section 2): a browser that speaks Spanish opens the site in Spanish;
the language switch offers the three languages, each in its own words, and the player's
choice wins over the browser's and is remembered; a table and the rules page read in
Spanish on a phone, with nothing for axe and no text too small."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from web_helpers import (
    PHONE,
    axe_violations,
    raw_faults,
    shot,
    sideways_fault,
    start_table,
    switch_language,
    text_faults,
    wait_my_turn,
)

pytestmark = pytest.mark.browser

SPANISH_CARD = re.compile(
    r"^(10|[1-9]), (as|dos|tres|cuatro|cinco|seis|siete|sota|caballo|rey)"
    r" de (oros|copas|espadas|bastos)$"
)


def test_a_spanish_browser_opens_in_spanish_and_the_choice_is_remembered(
        server, new_page, artifacts):  # type: ignore[no-untyped-def]
    phone = new_page(locale="es-ES", browser_language=True, **PHONE)
    phone.goto(server + "/")
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    expect(phone.locator(".hero-title")).to_have_text("Scopa: el clásico italiano, en línea")
    phone.click("#menu-button")
    switch = phone.locator("#lang")
    expect(switch).to_have_attribute("role", "group")
    expect(switch).to_have_attribute("aria-label", "Idioma")
    buttons = switch.locator("button")
    expect(buttons).to_have_text(["English", "Italiano", "Español"])
    assert buttons.evaluate_all("els => els.map(e => e.lang)") == ["en", "it", "es"]
    expect(switch.locator("button[aria-pressed=true]")).to_have_text("Español")
    # every choice fits the phone's menu, big enough for a finger
    for box in buttons.evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())"):
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert sideways_fault(phone) == []
    shot(phone, artifacts, "spanish-01-menu-phone")
    # the player's choice wins over the browser's, and stays
    switch_language(phone, "it")
    expect(phone.locator("#site-nav")).to_contain_text("Regole")
    expect(switch.locator("button[aria-pressed=true]")).to_have_text("Italiano")
    phone.reload()
    expect(phone.locator(".hero-title")).to_have_text("Scopa: il classico italiano, online")
    assert phone.evaluate("localStorage.getItem('scopa.lang')") == "it"
    switch_language(phone, "es")
    expect(phone.locator("#site-nav")).to_contain_text("Reglas")
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    assert phone.evaluate("localStorage.getItem('scopa.lang')") == "es"
    # an English browser stays English until its player chooses
    english = new_page(locale="en-GB", browser_language=True, **PHONE)
    english.goto(server + "/")
    expect(english.locator("html")).to_have_attribute("lang", "en")
    expect(english.locator(".hero-title")).to_have_text("Scopa, the Italian sweep")


def test_a_table_and_the_rules_in_spanish_on_a_phone(
        server, new_page, artifacts):  # type: ignore[no-untyped-def]
    phone = new_page(locale="es-ES", browser_language=True, **PHONE)
    start_table(phone, server, seat2="bot:beginner")
    wait_my_turn(phone)
    expect(phone.locator(".turn.mine")).to_have_text("Te toca")
    labels = phone.eval_on_selector_all(".card[aria-label]", "els => els.map(e => e.ariaLabel)")
    assert labels and all(SPANISH_CARD.match(x) for x in labels), labels
    faults = sideways_fault(phone) + text_faults(phone) + raw_faults(phone)
    assert faults == [] and axe_violations(phone) == []
    shot(phone, artifacts, "table-phone-es")
    phone.goto(server + "/#rules")
    expect(phone.locator(".doc[data-ready]")).to_have_count(1)
    expect(phone.locator(".doc h1")).to_have_text("Cómo se juega a la Scopa")
    expect(phone.locator("#v-escoba dt").first).to_have_text("Jugadores")
    expect(phone.locator(".doc .card-examples .card").first).to_have_attribute(
        "aria-label", re.compile(r"de oros$"))
    faults = sideways_fault(phone) + text_faults(phone) + raw_faults(phone)
    assert faults == [] and axe_violations(phone) == []
    shot(phone, artifacts, "rules-phone-es")
    phone.goto(server + "/#guide")
    expect(phone.locator(".doc h1")).to_have_text("Una breve guía de estrategia")
    assert axe_violations(phone) == []
