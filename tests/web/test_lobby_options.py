"""The lobby's rules options: every option of the chosen variant with its allowed values,
collapsed by default, back to the preset when the variant changes, both languages at once,
conflicting choices disabled and explained, and the table is made with the options chosen
(the server checks them)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from web_helpers import axe_violations, made_table, open_custom_table, shot, switch_language

pytestmark = pytest.mark.browser


def open_options(page: Page, server: str) -> None:
    page.goto(server + "/")
    open_custom_table(page)
    expect(page.locator("#rules-options")).not_to_have_attribute("open", "")
    expect(page.locator("#opt-capture")).to_be_hidden()  # collapsed by default
    page.click("#rules-options summary")
    expect(page.locator("#opt-capture")).to_be_visible()


def test_cirulla_options_make_the_table(server, page, artifacts):
    open_options(page, server)
    page.select_option("#variant", "cirulla")
    # Cirulla's preset: declarations by choice, grande played
    expect(page.locator("#opt-declarations option:checked")).to_have_text("each player chooses")
    expect(page.locator("#opt-grande option:checked")).to_have_text("yes")
    expect(page.locator("#opt-declarations option")).to_have_text(
        ["none", "each player chooses", "made for everyone"])
    page.select_option("#opt-declarations", label="made for everyone")
    page.select_option("#opt-grande", label="no")
    expect(page.locator("#opt-grande")).to_have_attribute("data-changed", "yes")
    shot(page, artifacts, "lobby-options-01-cirulla")
    # the language switches at once; the choices stay
    switch_language(page)
    expect(page.locator("label[for=opt-declarations]")).to_have_text("Accusi")
    expect(page.locator("#opt-declarations option:checked")).to_have_text("fatti per tutti")
    expect(page.locator("#opt-grande option:checked")).to_have_text("no")
    expect(page.locator("#rules-options")).to_have_attribute("open", "")
    assert axe_violations(page) == []
    switch_language(page)
    page.fill("#name", "Anna")
    with page.expect_response(made_table) as answer:
        page.click("button.start")
    body = answer.value.json()
    assert answer.value.ok, body
    rules = body["table"]["rules"]
    assert rules["variant"] == "cirulla"
    assert rules["declarations"] == "auto" and rules["grande"] is False
    assert "piccola" not in rules  # unchanged options are the preset's


def test_a_new_variant_brings_its_own_options_back(server, page):
    open_options(page, server)
    page.select_option("#opt-napola", label="yes")
    expect(page.locator("#options-reset")).to_be_enabled()
    page.select_option("#variant", "escoba")
    expect(page.locator("#opt-napola option:checked")).to_have_text("no")
    expect(page.locator("#opt-capture option:checked")).to_have_text("cards making 15 with yours")
    expect(page.locator("#opt-sevens option:checked")).to_have_text("yes")
    expect(page.locator("#options-reset")).to_be_disabled()


def test_conflicting_choices_are_disabled_and_explained(server, page, artifacts):
    open_options(page, server)
    # scopa: captures by equal rank; with the ace taking all, sums of 15 are refused
    page.select_option("#opt-ace_takes_all", label="yes")
    fifteen = page.locator("#opt-capture option", has_text="cards making 15 with yours")
    expect(fifteen).to_be_disabled()
    expect(page.locator("#opt-capture-help")).to_contain_text("not with sums of 15")
    # napola off: the outright win is not offered
    expect(page.locator("#opt-napola_outright option", has_text="yes")).to_be_disabled()
    page.select_option("#opt-napola", label="yes")
    expect(page.locator("#opt-napola_outright option", has_text="yes")).to_be_enabled()
    page.select_option("#opt-napola_outright", label="yes")
    expect(page.locator("#opt-napola option", has_text="no")).to_be_disabled()
    shot(page, artifacts, "lobby-options-02-conflicts")
    switch_language(page)
    expect(page.locator("#opt-napola-help")).to_contain_text("richiede la napola")


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_options_screenshots_and_axe(server, new_page, artifacts, width, height):
    page = new_page(viewport={"width": width, "height": height})
    open_options(page, server)
    page.select_option("#variant", "cirulla")
    page.select_option("#opt-declarations", label="made for everyone")
    assert axe_violations(page) == []
    name = "desktop" if width > 820 else "phone"
    page.locator("#rules-options").scroll_into_view_if_needed()
    page.locator(".new-table").screenshot(path=str(artifacts / f"lobby-options-{name}.png"))
    fits = page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert fits, "the options section scrolls sideways"
