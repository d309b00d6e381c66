"""The site as an app on the phone (issue 44 section 4): Chromium finds it installable (its
manifest, icons and service worker), the network gone shows the offline page instead of a
browser error, and with the network back the page works as before; the worker the server
serves names this version's files, each of which is there."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import expect
from web_helpers import CHROMIUM, CHROMIUM_ARGS

WORKER_READY = ("navigator.serviceWorker.ready"
                ".then(() => navigator.serviceWorker.controller !== null)")


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as res:
        return res.status, res.headers.get("Content-Type", ""), res.read()


def installed_page(new_page, server: str):  # type: ignore[no-untyped-def]
    """A phone-sized page of the site whose service worker is up and in control."""
    page = new_page(service_workers="allow", viewport={"width": 390, "height": 844},
                    is_mobile=True, has_touch=True)
    page.goto(server + "/")
    page.wait_for_function(WORKER_READY)
    return page


def test_chromium_finds_the_site_installable(server, browser, tmp_path):  # type: ignore[no-untyped-def]
    # a profile of its own: Chromium never offers to install from a private window (each
    # test's context is one), so this test's browser keeps a profile on disk
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS,
        service_workers="allow", viewport={"width": 390, "height": 844}, is_mobile=True,
        has_touch=True)
    try:
        page = context.new_page()
        page.goto(server + "/")
        page.wait_for_function(WORKER_READY)
        check_installable(server, page)
    finally:
        context.close()


def check_installable(server: str, page) -> None:  # type: ignore[no-untyped-def]
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone" and data["start_url"] == "/"
    for icon in data["icons"]:
        status, kind, body = fetch(server + icon["src"])
        assert status == 200 and kind.startswith(icon["type"]), icon
        if icon["type"] == "image/png":  # the size it says it is
            width, height = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"], icon


def test_no_network_shows_the_offline_page_then_the_site_again(server, new_page, page_errors):  # type: ignore[no-untyped-def]
    page = installed_page(new_page, server)
    page.context.set_offline(True)
    page.goto(server + "/events")
    expect(page.locator("h1")).to_have_text(
        ["Sei offline", "You are offline", "Estás sin conexión"])
    expect(page.locator("a.button")).to_have_attribute("href", "/")
    # the offline page's own files came from the worker's copy: nothing failed to load
    assert page.evaluate("[...document.styleSheets].every((s) => s.cssRules.length > 0)")
    page.context.set_offline(False)
    page.click("a.button")
    expect(page.locator("#site-nav")).to_be_attached()
    expect(page.locator("main h1, main h2").first).to_be_visible()
    assert not page_errors.unexpected()


def test_the_worker_names_this_version_s_files(server):  # type: ignore[no-untyped-def]
    status, kind, body = fetch(server + "/sw.js")
    assert status == 200 and "javascript" in kind
    text = body.decode()
    assert "__SCOPA_" not in text
    build = re.search(r'const BUILD = "([0-9a-f]{16})"', text)
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", text).group(1))  # type: ignore[union-attr]
    assert build is not None
    assert "/static/offline.html" in files and "/static/js/main.js" in files
    for path in files:
        assert fetch(server + path)[0] == 200, path
    # served the same way twice: one version, one worker
    assert fetch(server + "/sw.js")[2] == body
