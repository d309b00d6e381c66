"""Steps shared by the browser tests: start a table, play a turn, read the socket."""

from __future__ import annotations

import contextlib
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

#: axe-core, installed by `scripts/setup.sh --dev` from tests/web/package.json (`npm ci`)
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


def shot(page: Page, artifacts: Path, name: str) -> Path:
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def record_frames(page: Page) -> list[dict[str, Any]]:
    """Every JSON frame the page receives on its table sockets, in order."""
    frames: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            with contextlib.suppress(TypeError, ValueError):
                frames.append(json.loads(payload))

        ws.on("framereceived", on_frame)

    page.on("websocket", on_ws)
    return frames


def last_state(frames: list[dict[str, Any]]) -> dict[str, Any]:
    states = [f for f in frames if f.get("type") == "state"]
    assert states, "no state frame received"
    return states[-1]


def open_custom_table(page: Page) -> None:
    """Unfold the lobby's own-table form (its first screen is the quick Play) once it is
    drawn."""
    custom = page.locator("details#custom-table")
    expect(custom.locator("#seat-1")).to_be_attached()
    if custom.get_attribute("open") is None:
        page.locator("details#custom-table > summary").click()
    expect(page.locator("#seat-1")).to_be_visible()


def open_settings(page: Page) -> None:
    """Unfold the table's settings (sound, animation, cards, shortcuts): one control in the
    side panel, kept open across the page's redraws."""
    settings = page.locator("details#table-settings")
    expect(settings).to_be_attached()
    if settings.get_attribute("open") is None:
        page.locator("details#table-settings > summary").click()
    expect(page.locator("#speed")).to_be_visible()


def start_table(page: Page, base: str, *, name: str = "Anna", seat2: str | None = None) -> None:
    """Open the lobby and start a 2-player table of one's own (default: against the
    intermediate bot), through the folded custom-table form."""
    page.goto(base + "/")
    open_custom_table(page)
    page.fill("#name", name)
    if seat2 is not None:
        page.select_option("#seat-1", seat2)
    page.click("button.start")
    page.wait_for_url("**/t/*")


#: the page shows it is our turn and takes input (no move in flight, no frame waiting to
#: be shown), as one selector: matched at one instant by Playwright's selector engine (a
#: wait_for_function would evaluate a string, which the page's CSP forbids)
MY_TURN = "body:has(.turn.mine):not(:has(.play-host.locked))"


def wait_my_turn(page: Page, timeout: float = 20_000) -> None:
    """Until the page shows it is our turn and takes input."""
    page.wait_for_selector(MY_TURN, timeout=timeout)


def play_turn(page: Page, index: int = 0) -> str:
    """Pick a hand card, the first capture option if there is a choice, and play it.
    Returns the card played."""
    wait_my_turn(page)
    cards = page.locator(".hand button.card")
    card = cards.nth(min(index, cards.count() - 1))
    played = str(card.get_attribute("data-card"))
    card.click()
    if page.locator(".chooser .option").count():
        page.locator(".chooser .option").first.click()
    expect(page.locator(".chooser .play")).to_be_enabled()
    page.click(".chooser .play")
    return played


def expect_played(page: Page, card: str, before: list[str]) -> None:
    """Wait until the page shows `card` played: gone from the hand, the rest of `before`
    still there unless the next round has already been dealt (a fresh hand holds none of
    the cards it had). Counting the hand instead races the bot's reply and the next deal."""
    expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_count(0)
    now = set(hand_cards(page))
    assert card not in now, now
    rest = set(before) - {card}
    assert now == rest or not (now & set(before)), (before, sorted(now))


def hand_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")


def table_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all(".felt .card", "els => els.map(e => e.dataset.card)")


def sit_at_new_table(page: Page, base: str, body: dict[str, Any]) -> str:
    """Create a table through the API (``body`` as for POST /api/tables), keep its seat
    token where the page looks for it, and open the table. Returns the table id."""
    page.goto(base + "/")
    created = page.request.post(base + "/api/tables", data={"name": "Anna", **body}).json()
    table_id = str(created["table"]["id"])
    seat = {"token": created["token"], "seat": created["seat"]}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"scopa.seat.{table_id}", json.dumps(seat)])
    page.goto(f"{base}/t/{table_id}")
    return table_id


def made_table(response: Any) -> bool:
    """The answer to making a table (``POST /api/tables``), not the lobby's own polling of
    the table list (``GET`` at the same address), which may come back meanwhile."""
    return bool(response.url.endswith("/api/tables") and response.request.method == "POST")


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's violations of the given impacts on the page as it is now, one line each
    (rule, impact, the offending elements), so a failing assert says what to fix."""
    if not AXE.exists():  # a missing checker must fail the test, not pass it
        pytest.fail(f"{AXE} is missing: run `bash scripts/setup.sh --dev`")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated through the browser's debugging protocol: a <script> tag would be
        # inline script, which the page's Content-Security-Policy rightly refuses
        page.evaluate(AXE.read_text())
    # the page at rest: a banner fading in or out (the match-end moment) has the colours of
    # a frame of its animation, not its own, so every finite animation ends first (endless
    # ones, a pulse, are left running)
    found = page.evaluate("""async () => {
        await Promise.all(document.getAnimations()
            .filter(a => a.playState === 'running' && a.effect
                && a.effect.getComputedTiming().endTime !== Infinity)
            .map(a => a.finished.catch(() => null)));
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
    }""")
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in found if v["impact"] in impacts]


def phone_faults(page: Any) -> list[str]:
    """Sideways scroll and touch targets under 44 x 44 px on the page as it is now."""
    return sideways_fault(page) + touch_faults(page)


def switch_language(page: Page, code: str | None = None) -> None:
    """Choose ``code`` in the language switch (without one: Italian from any other
    language, English from Italian), opening the site menu first where it folds the
    sections away (a narrow screen)."""
    menu = page.locator("#menu-button")
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
    if code is None:
        code = "en" if page.evaluate("document.documentElement.lang") == "it" else "it"
    page.click(f'#lang button[data-lang="{code}"]')


def sideways_fault(page: Any) -> list[str]:
    """The page scrolls sideways: the document is wider than the window."""
    wide, inner = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    return [f"the page is {wide} px wide on {inner}"] if wide > inner else []


#: every control a finger may need on the page as it is now, under 44 x 44 CSS px (WCAG
#: 2.5.5; Apple's and Android's own guidance). A checkbox's or a radio's target is its
#: whole label. Exempt, as WCAG 2.5.5 exempts them: a link inside a sentence of running
#: text (a paragraph, a list item, a definition, a table cell, where words stand beside it),
#: whose size is the text's own; a control not shown (no box, or off screen like the skip
#: link until it is focused); the cards on the felt and the mini cards, which are pictures.
TOUCH_FAULTS_JS = """() => {
  const out = [];
  const controls = 'a[href], button, select, input:not([type=hidden]), textarea, summary, '
    + '[role=button], [role=switch], [role=tab], [tabindex="0"]';
  const inText = (el) => {
    if (el.tagName !== 'A') return false;
    const block = el.closest('p, li, dd, td, th, figcaption, blockquote');
    if (!block) return false;
    const rest = block.textContent.replace(el.textContent, '').replace(/[\\s·,.:;()–-]/g, '');
    return rest.length > 0;
  };
  for (const el of document.querySelectorAll(controls)) {
    const box = el.type === 'checkbox' || el.type === 'radio';
    const target = box && el.closest('label') ? el.closest('label') : el;
    const r = target.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || r.right <= 0 || r.bottom <= 0) continue;
    if (getComputedStyle(target).visibility === 'hidden' || target.closest('[inert]')) continue;
    if (inText(el)) continue;
    if (r.width < 44 || r.height < 44) {
      const what = (el.id ? '#' + el.id + ' ' : '') + (el.getAttribute('aria-label')
        || el.textContent.trim().slice(0, 30) || el.tagName);
      out.push(`${what}: ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}"""


def touch_faults(page: Any) -> list[str]:
    """Controls a finger would miss (under 44 x 44 CSS px) on the page as it is now."""
    faults: list[str] = page.evaluate(TOUCH_FAULTS_JS)
    return faults


#: the smallest text a page may show, in CSS px as drawn (an SVG's text scaled by its
#: viewBox): below it a phone's words are squinted at (the chips once drew 11.5 px, the
#: profile's chart labels 8.6 px)
TEXT_FLOOR_PX = 12

#: every visible run of text under TEXT_FLOOR_PX, one line a kind (its words, its size,
#: its element). Exempt: the cards' own art (a card is a picture whose name is its label),
#: text not drawn (no box: hidden, folded in a closed disclosure, a screen reader's words
#: clipped to a pixel) and an SVG's title (a tooltip, read out, not drawn).
TEXT_FAULTS_JS = """(floor) => {
  const out = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const words = n.textContent.trim();
    const el = n.parentElement;
    if (!words || !el || el.closest('.card, title, script, style, option')) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible') continue;
    range.selectNodeContents(n);
    const drawn = [...range.getClientRects()].some(r => r.width > 1 && r.height > 1);
    if (!drawn) continue;
    let px = parseFloat(style.fontSize);
    if (el instanceof SVGElement && el.getScreenCTM()) {
      const m = el.getScreenCTM();
      px *= Math.hypot(m.a, m.b);
    }
    if (px < floor - 0.01) {
      const where = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
        ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      const key = where + ' ' + px.toFixed(1);
      if (!out.has(key)) out.set(key, `"${words.slice(0, 24)}" ${px.toFixed(1)} px (${where})`);
    }
  }
  return [...out.values()];
}"""


def text_faults(page: Any, floor: float = TEXT_FLOOR_PX) -> list[str]:
    """Visible text drawn smaller than ``floor`` CSS px on the page as it is now."""
    faults: list[str] = page.evaluate(TEXT_FAULTS_JS, floor)
    return faults


#: words a person should never read, one pattern each: an interface key that found no
#: text (``t()`` gives the key back), an identifier in snake_case, an ISO time, a clock
#: time with seconds, a bot named by its level and a number ("expert 1"). Code (the
#: shuffle's commitment, a seed) is shown on purpose and left out.
RAW_VALUES_JS = r"""() => {
  const patterns = [
    [/\b[a-z]+(\.[a-z][A-Za-z0-9]*){1,3}\b/, 'a key'],
    [/\b[a-z]+_[a-z_]+\b/, 'an identifier'],
    [/\d{4}-\d\d-\d\dT\d\d:/, 'an ISO time'],
    [/\b\d{1,2}:\d\d:\d\d\b/, 'seconds'],
    [/\b(random|beginner|intermediate|expert|champion|principiante|intermedio|esperto|campione|experto|campeón)\s+\d+\b/i,
     'a level and a number'],
  ];
  const out = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const words = n.textContent.trim();
    const el = n.parentElement;
    if (!words || !el || el.closest('code, script, style, pre, kbd')) continue;
    for (const [re, what] of patterns) {
      const m = words.match(re);
      if (m) out.add(`${what}: "${m[0]}" in "${words.slice(0, 50)}"`);
    }
  }
  return [...out];
}"""


def raw_faults(page: Any) -> list[str]:
    """Raw values shown as words on the page as it is now (see RAW_VALUES_JS)."""
    faults: list[str] = page.evaluate(RAW_VALUES_JS)
    return faults


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def get(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=10) as res:
        return json.loads(res.read())


def sit_at_short_match(page, base: str) -> str:  # type: ignore[no-untyped-def]
    """A match to 1 point against the beginner bot; the page holds seat 0."""
    res = post(
        base,
        "/api/tables",
        {
            "variant": "scopa",
            "players": 2,
            "target": 1,
            "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
        },
    )
    table = res["table"]["id"]
    page.goto(base + "/")
    seat = json.dumps({"token": res["token"], "seat": res["seat"], "invite": res["invite"]})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scopa.seat.{table}", seat])
    page.goto(f"{base}/t/{table}")
    return table


def play_until_match_end(page) -> None:  # type: ignore[no-untyped-def]
    """Play (or press Next) whenever the page asks, until it shows the match's end."""
    actionable = f".match-end, .dialog .next, {MY_TURN}"
    for _ in range(200):
        page.wait_for_selector(actionable, timeout=30_000)
        if page.locator(".match-end").count():
            return
        if page.locator(".dialog .next").count():
            page.click(".dialog .next")
            page.wait_for_selector(".dialog .next", state="detached")
        elif page.locator(".turn.mine").count() and not page.locator(".play-host.locked").count():
            shown = page.get_attribute(".play-host", "data-shown")
            page.locator(".hand button.card").first.click()
            if page.locator(".chooser .option").count():
                page.locator(".chooser .option").first.click()
            page.click(".chooser .play")
            # our move is answered by a newer state before we look again
            page.wait_for_selector(".play-host[data-shown]" if shown is None
                                   else f'.play-host:not([data-shown="{shown}"])')
    raise AssertionError("the match did not end")


CHROMIUM = "/usr/bin/chromium"


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: a phone as the page checks take it (390 px, touch)
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def page_faults(page: Any, touch: bool = False) -> list[str]:
    """Every page check at once, one line a fault: no sideways scroll, no text under the
    floor, no raw value shown, nothing serious for axe; and on a touch screen, targets big
    enough to tap."""
    found = sideways_fault(page) + text_faults(page) + raw_faults(page) + axe_violations(page)
    return found + (touch_faults(page) if touch else [])
