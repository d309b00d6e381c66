"""Issue 31's browser test: a 6-entrant, 3-round Swiss online event, two people and four
bots. The organiser makes the event and enters the bots from the page, the other person
finds it in the lobby and joins; both reach their tables from the event page and play
round 1; in round 2 Bruno leaves mid-match and the stand-in takes his seat (his tables
count as forfeits); the next rounds start by themselves. Screenshots of the event page,
the big screen's standings and a printed round. And a club night's duplicate boards:
printed for its organiser, hidden from everyone else until the round is over.

Whose turn it is is the deal's business, not the test's: the people here play whenever
their page says it is their turn (``play_out``), never one waiting on the other (in
round 2 Anna may be Bruno's opponent and lead the first hand). And the grace period is
the time a person has to reach a table once its round is paired: it is kept well above
the few page loads that takes on a busy machine, so only Bruno, who leaves, gets a
stand-in."""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_helpers import MY_TURN, axe_violations, phone_faults, play_turn, shot

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
from server_helpers import ServerProcess  # noqa: E402

PASSWORD = "correct horse 9"
BOTS = 4
#: seconds a seat waits for its person before a stand-in plays it: a round's tables start
#: at once, and reaching one takes a few page loads (8 s was too short under -n 2: a
#: stand-in could play a person's whole table before the person got there)
GRACE = 30
#: milliseconds to wait for a table an absent person's stand-in plays out: the grace,
#: then a quick match
STANDIN_DONE_MS = (GRACE + 60) * 1000


@pytest.fixture(scope="module")
def events_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own: quick bots, a short pause between hands, and a grace period
    (``GRACE``) that a person reaching a table never runs out of."""
    proc = ServerProcess(tmp_path_factory.mktemp("events") / "scopa.sqlite",
                         SCOPA_GRACE_SECONDS=str(GRACE), SCOPA_HAND_PAUSE_SECONDS="0.5",
                         SCOPA_BOT_DELAY_SECONDS="0.05", SCOPA_SIGNUPS_PER_ADDRESS="1000")
    proc.start()
    yield proc.base
    proc.stop()


def sign_up(page: Page, base: str, name: str) -> None:
    page.goto(base + "/")
    r = page.request.post(base + "/api/account/signup", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()


def event_data(page: Page, base: str, event: str) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get(f"{base}/api/events/{event}").json()
    return data


def my_result(page: Page, base: str, event: str, round_number: int, me: str) -> Any:
    d = event_data(page, base, event)
    played = d["event"]["played"]
    if len(played) < round_number:
        return None
    for t in played[round_number - 1]["tables"]:
        if me in (t["home"], t["away"]):
            return t["result"] or None
    return None


def go_to_table(page: Page, base: str, event: str, round_number: int) -> None:
    """From the event page: wait for the round, then its "Go to your table" button."""
    page.goto(f"{base}/events/{event}")
    expect(page.locator("h2", has_text=f"Round {round_number} of 3")).to_be_visible(timeout=60_000)
    page.click("#event-go", timeout=30_000)
    page.wait_for_url("**/t/*")
    expect(page.locator(".hand .card").first).to_be_visible()


def play_out(pages: dict[str, Page], base: str, event: str, round_number: int,
             until: Callable[[Counter[str]], bool] | None = None) -> Counter[str]:
    """Every person here plays its turns until its table of the round has a result, or
    ``until`` (given the turns each has played) says to stop; the turns played. Each
    page is looked at in turn and none is waited on for long: two people here may be at
    one table, and the one whose turn it is must not wait for the other's page."""
    left = dict(pages)
    played: Counter[str] = Counter()
    while left and not (until is not None and until(played)):
        for name, page in list(left.items()):
            if my_result(page, base, event, round_number, name) is not None:
                del left[name]
            elif page.locator(MY_TURN).count():
                play_turn(page)
                played[name] += 1
                break  # (``until`` may be met now)
            else:  # the other side (a bot or a person) is thinking: wait for it, a
                # while at most (the table may be over: then its result is in)
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_selector(MY_TURN, timeout=500)
    return played


def test_a_swiss_event_of_two_people_and_four_bots(events_server, new_page, artifacts, page_errors):
    base = events_server
    # a table page whose match ended on a worker tells the socket so; nothing else expected
    anna = new_page(viewport={"width": 1280, "height": 900})
    bruno = new_page(viewport={"width": 390, "height": 844})
    sign_up(anna, base, "Anna")
    sign_up(bruno, base, "Bruno")
    # Anna organises from the events page
    anna.goto(base + "/events")
    anna.fill("#event-name", "Sunday Swiss")
    anna.fill("#event-rounds", "3")
    anna.fill("#event-amount", "1")
    anna.fill("#event-capacity", "6")
    anna.click("#event-create")
    anna.wait_for_url("**/events/*")
    event = anna.url.rstrip("/").split("/")[-1]
    anna.click("#event-join")
    expect(anna.locator(".entrants li")).to_have_text(["Anna"])
    for _ in range(BOTS):
        anna.select_option("#bot-level", "beginner")
        anna.click("#event-add-bot")
    # Bruno finds it in the lobby's list and enters
    bruno.goto(base + "/")
    expect(bruno.locator(".event-line .status-open")).to_have_text("open")
    assert axe_violations(bruno) == []
    bruno.click(".event-line a")
    bruno.click("#event-join")
    expect(bruno.locator(".entrants li")).to_have_count(6)
    assert axe_violations(bruno) == []
    anna.reload()
    expect(anna.locator(".entrants li")).to_have_text(
        ["Anna", "Giulia", "Marco", "Chiara", "Luca", "Bruno"])  # bots named as in the lobby
    anna.click("#event-start")
    # round 1 pairs by seed: Anna v Giulia, ..., Luca v Bruno
    go_to_table(anna, base, event, 1)
    table_one = anna.url
    go_to_table(bruno, base, event, 1)
    play_out({"Anna": anna, "Bruno": bruno}, base, event, 1)
    # the event pairs the next game: Anna's match-end box offers no rematch
    expect(anna.locator(".match-end .event-next")).to_be_visible()
    expect(anna.locator(".match-end .rematch")).to_have_count(0)
    # ... but a way back to the event, and, once round 2 is paired, her next table
    expect(anna.locator(".match-end .to-event")).to_have_attribute("href", f"/events/{event}")
    anna.locator(".match-end .go-next-table").click(timeout=STANDIN_DONE_MS)
    anna.wait_for_url(lambda url: "/t/" in url and url != table_one)
    expect(anna.locator(".hand .card").first).to_be_visible()
    # round 2 (paired by itself): Bruno plays a card, then leaves the table (Anna plays
    # meanwhile: she may be his opponent, and lead)
    go_to_table(bruno, base, event, 2)
    played = play_out({"Anna": anna, "Bruno": bruno}, base, event, 2,
                      until=lambda turns: turns["Bruno"] > 0)
    assert played["Bruno"] == 1, played
    bruno.context.close()
    play_out({"Anna": anna}, base, event, 2)
    # Bruno's table ends when the stand-in has played it out: the event page shows it
    anna.goto(f"{base}/events/{event}")
    round2 = anna.locator("section.round", has_text="Round 2 of 3")
    expect(round2).to_contain_text("forfeit (Bruno)", timeout=STANDIN_DONE_MS)
    assert my_result(anna, base, event, 2, "Bruno") == {"forfeit": "Bruno"}
    go_to_table(anna, base, event, 3)
    play_out({"Anna": anna}, base, event, 3)
    anna.goto(f"{base}/events/{event}")
    expect(anna.locator(".event-head p.muted")).to_contain_text(
        "finished", timeout=STANDIN_DONE_MS)
    d = event_data(anna, base, event)
    assert d["status"] == "finished" and len(d["event"]["played"]) == 3
    assert all(r["seed"] for r in d["event"]["played"])
    bruno_line = next(s for s in d["standings"] if s["entrant"] == "Bruno")
    assert bruno_line["lost"] >= 2  # rounds 2 and 3: forfeits, the stand-in's play aside
    shot(anna, artifacts, "events-event-page")
    assert axe_violations(anna) == []
    anna.goto(f"{base}/events/{event}/screen")
    expect(anna.locator(".standings tbody tr")).to_have_count(6)
    shot(anna, artifacts, "events-big-screen")
    anna.goto(f"{base}/events/{event}/print/2")
    expect(anna.locator(".print-table")).to_have_count(3)
    anna.emulate_media(media="print")
    shot(anna, artifacts, "events-print-round")
    anna.emulate_media(media="screen")


def test_a_club_night_prints_its_boards_for_its_organiser_only(events_server, new_page,
                                                                artifacts):
    base = events_server
    org = new_page(viewport={"width": 1100, "height": 900})
    other = new_page(viewport={"width": 1100, "height": 900})
    sign_up(org, base, "Carla")
    sign_up(other, base, "Dario")
    csrf = org.request.get(base + "/api/account").json()["csrf"]
    r = org.request.post(base + "/api/events", headers={"X-CSRF-Token": csrf}, data={
        "name": "Friday club night", "mode": "paper", "deals_per_round": 2,
        "duplicate": True, "format": "round-robin",
        "entrants": ["Elena", "Fabio", "Gino", "Ilaria"]})
    assert r.status == 201, r.text()
    event = r.json()["id"]
    r = org.request.post(f"{base}/api/events/{event}/rounds", headers={"X-CSRF-Token": csrf})
    assert r.status == 201, r.text()
    org.goto(f"{base}/events/{event}/print/1")
    expect(org.locator(".board")).to_have_count(4)  # 2 tables, 2 deals each
    decks = org.locator(".board .deck").all_text_contents()
    assert decks[0] == decks[2] and decks[1] == decks[3]  # every table: the same cards
    org.emulate_media(media="print")
    shot(org, artifacts, "events-print-duplicate-boards")
    org.emulate_media(media="screen")
    other.goto(f"{base}/events/{event}/print/1")
    expect(other.locator(".print-table")).to_have_count(2)
    expect(other.locator(".board")).to_have_count(0)
    expect(other.locator("main")).to_contain_text("shown once the round is over")


def test_a_club_night_results_entered_from_a_phone(events_server, new_page, artifacts):
    """The organiser's results entry, phone-sized: one form a table, each deal's points;
    the standings follow."""
    base = events_server
    phone = new_page(viewport={"width": 390, "height": 844})
    sign_up(phone, base, "Gianni")
    csrf = phone.request.get(base + "/api/account").json()["csrf"]
    made = phone.request.post(base + "/api/events", headers={"X-CSRF-Token": csrf}, data={
        "name": "Tuesday club", "mode": "paper", "deals_per_round": 2,
        "entrants": ["Lia", "Marco", "Nadia", "Oscar"]}).json()
    event = made["id"]
    phone.goto(f"{base}/events/{event}")
    phone.click("#event-start")
    expect(phone.locator("section.round")).to_have_count(1)
    phone.click("text=Enter results")
    phone.wait_for_url("**/enter")
    forms = phone.locator("form.enter-table")
    expect(forms).to_have_count(2)
    first = forms.nth(0)
    for i, v in enumerate(["4", "1", "2", "3"]):
        first.locator("input").nth(i).fill(v)
    shot(phone, artifacts, "events-enter-phone")
    assert axe_violations(phone) == []
    first.locator("button").click()
    expect(phone.locator("li.entered")).to_have_text("Table 1: Lia v Marco 6–4")
    second = phone.locator("form.enter-table")
    expect(second).to_have_count(1)
    for i, v in enumerate(["1", "0", "0", "1"]):
        second.locator("input").nth(i).fill(v)
    second.locator("button").click()
    expect(phone.locator("li.entered")).to_have_count(2)
    d = event_data(phone, base, event)
    assert [(s["entrant"], s["match_points"], s["difference"]) for s in d["standings"]] == [
        ("Lia", 2, 2), ("Nadia", 1, 0), ("Oscar", 1, 0), ("Marco", 0, -2)]


def test_a_refresh_never_changes_whom_the_organiser_withdraws(events_server, new_page,
                                                               artifacts):
    """On a phone, the organiser picks the second entrant in the list, and the page redraws
    (a result comes in) while it is picked and focused: the pick and the focus stay, the
    withdrawal asks to confirm naming exactly that entrant, withdraws that one, and can be
    undone until the next round is paired."""
    base = events_server
    phone = new_page(viewport={"width": 360, "height": 740}, has_touch=True)
    sign_up(phone, base, "Organiser2")
    csrf = phone.request.get(base + "/api/account").json()["csrf"]
    entrants = ["Anna & Bruno", "Carla & Dario", "Elena & Franco", "Gino & Lia"]
    event = phone.request.post(base + "/api/events", headers={"X-CSRF-Token": csrf}, data={
        "name": "Scopone night", "mode": "paper", "deals_per_round": 1,
        "entrants": entrants}).json()["id"]
    phone.goto(f"{base}/events/{event}")
    phone.click("#event-start")
    pick = phone.locator("#withdraw-who")
    expect(pick).to_have_value("Anna & Bruno")
    pick.select_option("Carla & Dario")
    pick.focus()
    rnd = event_data(phone, base, event)["event"]["played"][0]
    table = next(t["number"] for t in rnd["tables"]
                 if "Carla & Dario" not in (t["home"], t["away"]))
    r = phone.request.post(f"{base}/api/events/{event}/rounds/1/tables/{table}/result",
                           headers={"X-CSRF-Token": csrf}, data={"deals": [[4, 2]]})
    assert r.status == 200, r.text()
    # the page's own refresh draws the result in: the list keeps its pick, and its focus
    expect(phone.locator("section.round td", has_text="4–2")).to_have_count(1, timeout=15000)
    for _ in range(2):  # and two more refreshes
        with phone.expect_response(lambda resp: resp.url.endswith(f"/api/events/{event}")):
            pass
    expect(pick).to_have_value("Carla & Dario")
    assert phone.evaluate("document.activeElement && document.activeElement.id") == "withdraw-who"
    phone.click("#event-withdraw")
    yes = phone.locator("#event-withdraw-yes")
    expect(yes).to_have_text("Withdraw Carla & Dario")
    expect(phone.locator(".withdraw .confirm")).to_contain_text("Carla & Dario")
    shot(phone, artifacts, "events-withdraw-confirm-phone")
    assert axe_violations(phone) == []
    assert phone_faults(phone) == []
    yes.click()
    expect(phone.locator(".undo-withdraw")).to_have_count(1)
    d = event_data(phone, base, event)
    assert d["withdrawn"] == ["Carla & Dario"] and d["reinstatable"] == ["Carla & Dario"]
    forfeited = [t for t in d["event"]["played"][0]["tables"]
                 if "Carla & Dario" in (t["home"], t["away"])]
    assert forfeited[0]["result"] == {"forfeit": "Carla & Dario"}
    shot(phone, artifacts, "events-withdraw-undo-phone")
    phone.locator(".undo-withdraw").click()
    expect(phone.locator(".undo-withdraw")).to_have_count(0)
    d = event_data(phone, base, event)
    assert d["withdrawn"] == [] and d["reinstatable"] == []
    again = [t for t in d["event"]["played"][0]["tables"]
             if "Carla & Dario" in (t["home"], t["away"])]
    assert again[0]["result"] is None
    assert [a["action"] for a in d["event"]["audit"]] == ["withdraw", "reinstate"]
    # a Swiss night's other tools: a round sat out, a late entry while round 1 is played
    phone.locator("#sit-out-who").select_option("Elena & Franco")
    phone.click("#event-sit-out")
    expect(phone.locator(".audit li").first).to_contain_text("Elena & Franco sits a round out")
    phone.fill("#late-entry-name", "Marta & Nino")
    phone.click("#event-late-entry")
    expect(phone.locator(".entrants li")).to_have_count(5)
    d = event_data(phone, base, event)
    assert d["event"]["rests"] == {"2": ["Elena & Franco"]}
    assert d["entrants"][-1] == "Marta & Nino"
    assert phone_faults(phone) == []


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_an_organisers_duplicate_night_crosstable_travellers_corrections(
        events_server, new_page, artifacts, size):
    """A duplicate paper night of four Scopone pairs, one round: the crosstable, the
    travellers with the deal's four hands, the standings as CSV, and a result corrected
    from the page with its note in the log; the page fits the screen."""
    base = events_server
    width, height = size
    touch = width < 500
    page = new_page(viewport={"width": width, "height": height}, has_touch=touch)
    sign_up(page, base, f"Club{width}")
    csrf = page.request.get(base + "/api/account").json()["csrf"]
    event = page.request.post(base + "/api/events", headers={"X-CSRF-Token": csrf}, data={
        "name": "Duplicate Scopone", "mode": "paper", "variant": "scopone",
        "deals_per_round": 2, "duplicate": True, "rounds": 1,
        "entrants": ["Anna & Bruno", "Carla & Dario", "Elena & Franco", "Gino & Lia"],
    }).json()["id"]
    page.goto(f"{base}/events/{event}")
    page.click("#event-start")
    expect(page.locator("section.round")).to_have_count(1)
    tables = event_data(page, base, event)["event"]["played"][0]["tables"]
    for t, deals in zip(tables, ([[6, 2], [3, 4]], [[4, 4], [1, 6]]), strict=True):
        r = page.request.post(f"{base}/api/events/{event}/rounds/1/tables/{t['number']}/result",
                              headers={"X-CSRF-Token": csrf}, data={"deals": deals})
        assert r.status == 200, r.text()
    page.reload()
    page.locator("#crosstable summary").click()
    expect(page.locator("#crosstable tbody tr")).to_have_count(4)
    page.locator("#travellers-1 summary").click()
    expect(page.locator("#travellers-1 .traveller")).to_have_count(2)
    expect(page.locator("#travellers-1 .traveller").first.locator(".hands li")).to_have_count(5)
    assert page.locator("#event-csv").get_attribute("href").endswith("/standings.csv")
    shot(page, artifacts, f"events-crosstable-travellers-{'phone' if touch else 'desktop'}")
    assert axe_violations(page) == []
    if touch:
        assert phone_faults(page) == []
    first = tables[0]["number"]
    box = page.locator(f"#correct-box-1-{first}")
    box.locator("summary").click()
    page.fill(f"#correct-1-{first}-0-home", "7")
    page.fill(f"#correct-1-{first}-note", "deal 1 was miscounted")
    with page.expect_response(lambda resp: resp.request.method == "PUT"):
        box.locator("button[type=submit]").click()
    expect(page.locator(".audit li").first).to_contain_text("deal 1 was miscounted")
    expect(page.locator(".audit li").first).to_contain_text("9–6 → 10–6")
    shot(page, artifacts, f"events-correction-{'phone' if touch else 'desktop'}")
    assert axe_violations(page) == []


def test_the_event_form_on_a_phone(events_server, new_page, artifacts):
    """The variant from a list, the players it allows, its rules options as in the lobby,
    checkboxes beside their labels, the grace and the round clock; it fits a phone."""
    base = events_server
    phone = new_page(viewport={"width": 360, "height": 740}, has_touch=True)
    sign_up(phone, base, "FormMaker")
    phone.goto(f"{base}/events")
    phone.fill("#event-name", "Napola Tuesday")
    phone.select_option("#event-variant", "napola")
    expect(phone.locator("#event-players option")).to_have_count(3)  # 2, 4, 6: two sides
    phone.locator("#rules-options summary").click()
    expect(phone.locator("#rules-options select").first).to_be_visible()
    phone.fill("#event-grace", "120")
    phone.fill("#event-clock", "40")
    phone.locator("label.check-row", has_text="Duplicate").click()
    expect(phone.locator("#event-duplicate")).to_be_checked()
    phone.select_option("#event-play", "deals")
    phone.fill("#event-amount", "4")
    shot(phone, artifacts, "events-form-phone")
    assert axe_violations(phone) == []
    assert phone_faults(phone) == []
    phone.click("#event-create")
    phone.wait_for_url("**/events/*")
    d = event_data(phone, base, phone.url.rsplit("/", 1)[1])
    assert (d["variant"], d["duplicate"], d["grace_seconds"], d["round_minutes"]) == (
        "napola", True, 120, 40)


def test_results_read_back_to_the_opponents_before_they_are_saved(events_server, new_page,
                                                                   artifacts):
    """An event that asks for it: the results page names home and away above the boxes,
    shows the entered points back for the opponents, and saves only on their confirmation
    (Change goes back with the points kept); what another table's boxes hold survives."""
    base = events_server
    phone = new_page(viewport={"width": 360, "height": 740}, has_touch=True)
    sign_up(phone, base, "Scorer")
    csrf = phone.request.get(base + "/api/account").json()["csrf"]
    event = phone.request.post(base + "/api/events", headers={"X-CSRF-Token": csrf}, data={
        "name": "Checked night", "mode": "paper", "deals_per_round": 1, "confirm_results": True,
        "entrants": ["Lia", "Marco", "Nadia", "Oscar"]}).json()["id"]
    phone.goto(f"{base}/events/{event}")
    phone.click("#event-start")
    expect(phone.locator("section.round")).to_have_count(1)
    phone.goto(f"{base}/events/{event}/enter")
    expect(phone.locator(".score-head").first).to_contain_text("Home: Lia")
    expect(phone.locator(".score-head").first).to_contain_text("Away: Marco")
    phone.fill("#enter-1-2-0-home", "3")  # table 2, half filled: kept through the redraws
    phone.fill("#enter-1-1-0-home", "6")
    phone.fill("#enter-1-1-0-away", "4")
    phone.locator("form.enter-table").first.locator("button").click()
    expect(phone.locator(".readback")).to_have_text("Lia (home) 6 – 4 Marco (away)")
    shot(phone, artifacts, "events-enter-confirm-phone")
    assert axe_violations(phone) == []
    assert phone_faults(phone) == []
    assert my_result(phone, base, event, 1, "Lia") is None  # not saved yet
    phone.click("#confirm-1")
    expect(phone.locator("li.entered")).to_have_text("Table 1: Lia v Marco 6–4")
    expect(phone.locator("#enter-1-2-0-home")).to_have_value("3")
