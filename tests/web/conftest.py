"""Browser tests: the real `scopa serve` in a subprocess, Debian's Chromium via Playwright.

Run: `.venv/bin/pytest tests/web` (about a minute). Chromium is /usr/bin/chromium; when it
is missing and the tests run as root, they install it with apt-get (no browser download).

Screenshots go to $SCOPA_WEB_ARTIFACTS (default: a folder under the system temp dir).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

#: seconds a test server may take to answer (a busy 2-core machine needs a while to import
#: and warm its bot workers; a server that never answers still fails, after this)
START_TIMEOUT = 120



# the tests import their shared steps from web_helpers.py next to this file
sys.path.insert(0, str(Path(__file__).parent))
from scripted import scripted  # noqa: E402, F401 - the scripted-socket table fixture
from web_helpers import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "busy_teach(code): the scripted socket refuses a first teach")


def _scopa_command() -> list[str] | None:
    exe = Path(sys.executable).with_name("scopa")
    found = str(exe) if exe.exists() else shutil.which("scopa")
    if found is None:
        return None
    cmd = [found]
    probe = subprocess.run([*cmd, "serve", "--help"], capture_output=True, timeout=60)
    return cmd if probe.returncode == 0 else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def artifacts() -> Path:
    default = Path(tempfile.gettempdir()) / "scopa-web-artifacts"
    path = Path(os.environ.get("SCOPA_WEB_ARTIFACTS", default))
    path.mkdir(parents=True, exist_ok=True)
    return path


#: the database of the session's server (for the operator's commands: ``scopa admin``)
SERVER_DATABASE: dict[str, str] = {}


@pytest.fixture(scope="session")
def server_database_url(server: str) -> str:
    """The database URL of the server the browser tests play on."""
    return SERVER_DATABASE[server]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a fresh `scopa serve` with short bot pauses."""
    cmd = _scopa_command()
    if cmd is None:  # a broken install must fail the browser tests, not skip them
        pytest.fail("`scopa serve --help` does not run: is the package installed?")
    db = tmp_path_factory.mktemp("web") / "scopa.sqlite"
    port = _free_port()
    env = {
        **os.environ,
        "SCOPA_BOT_DELAY_SECONDS": "0.05",
        "SCOPA_BOT_SECONDS": "0.2",
        "SCOPA_BOT_WORKERS": "1",
        "SCOPA_HAND_PAUSE_SECONDS": "600",
        # a review judges each play with a small budget (its path, not its strength)
        "SCOPA_REVIEW_SIMULATIONS": "40",
        # one rated match puts a player on the leaderboard (tests/web/test_accounts.py)
        "SCOPA_LEADERBOARD_MIN_GAMES": "1",
        # every browser test of a run comes from 127.0.0.1 to this one server: the limits
        # per address (tables made, tables waiting, refused sign-ins, sign-ups) would make a test's
        # outcome depend on which tests ran before it on the same worker. The server tests
        # check each limit on servers of their own.
        "SCOPA_CREATE_BURST": "1000000",
        "SCOPA_MAX_WAITING_PER_ADDRESS": "1000000",
        "SCOPA_LOGIN_FAILURES_PER_ADDRESS": "1000000",
        "SCOPA_LOGIN_FAILURES_PER_ADDRESS_AND_NAME": "1000000",
        "SCOPA_SIGNUPS_PER_ADDRESS": "1000000",
    }
    log = open(db.with_suffix(".log"), "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            *cmd,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{db}",
            "--log-level",
            "warning",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    SERVER_DATABASE[base] = f"sqlite:///{db}"
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            urllib.request.urlopen(base + "/api/meta", timeout=1).read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                log.close()
                output = db.with_suffix(".log").read_text()
                raise RuntimeError(f"scopa serve did not start: {output}") from None
            time.sleep(0.2)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _install_chromium() -> None:
    """Install Debian's Chromium when we may (root with apt-get); never download a browser
    any other way."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("apt-get"):
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "install", "-y", "chromium"], ["apt-get", "update"],
                ["apt-get", "install", "-y", "chromium"]):  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, timeout=900, env=env)
        if done.returncode == 0 and Path(CHROMIUM).exists():
            return


# Module scope, not session: Playwright's sync API keeps an event loop running while it is
# open, and under xdist the same worker may next run a test that calls asyncio.run().
@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        _install_chromium()
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


# no animation unless a test asks for it (faster, deterministic); English unless switched
INIT_SCRIPT_SPEED = """
if (!localStorage.getItem('scopa.setting.speed'))
  localStorage.setItem('scopa.setting.speed', '"off"');
"""
INIT_SCRIPT = INIT_SCRIPT_SPEED + """
if (!localStorage.getItem('scopa.lang')) localStorage.setItem('scopa.lang', 'en');
"""


class PageErrors(list):
    """JavaScript errors and console errors seen on a test's pages; a test fails if any
    remain but those it said it expects (``allow``: a page asked for what is not there on
    purpose, say)."""

    def __init__(self) -> None:
        super().__init__()
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self if not any(p.search(e) for p in self.allowed)]


def _new_page(browser, errors: PageErrors, **context_args):  # type: ignore[no-untyped-def]
    # the site's service worker (docs/install.md) answers requests that page.route() would
    # then never see: blocked unless a test asks for it (tests/web/test_install.py)
    context_args.setdefault("service_workers", "block")
    # browser_language=True: no saved choice of language, so the page follows the
    # browser's (the context's locale), as for a first visit
    browser_language = context_args.pop("browser_language", False)
    context = browser.new_context(**context_args)
    context.add_init_script(INIT_SCRIPT_SPEED if browser_language else INIT_SCRIPT)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    # every error the console shows a person counts: a request answered 404 or 500, a
    # Content-Security-Policy refusal ("Refused to ..."), a console.error
    page.on("console", lambda m: errors.append(f"{m.text} ({m.location.get('url', '')})")
            if m.type == "error" else None)
    return context, page


@pytest.fixture
def page_errors() -> PageErrors:
    """What the console of this test's pages showed (``allow`` the expected ones)."""
    return PageErrors()


@pytest.fixture
def new_page(browser, page_errors):  # type: ignore[no-untyped-def]
    """Factory of pages, each in its own browser context (its own localStorage)."""
    contexts = []
    errors = page_errors

    def make(**context_args):  # type: ignore[no-untyped-def]
        context, page = _new_page(browser, errors, **context_args)
        contexts.append(context)
        return page

    yield make
    for c in contexts:
        c.close()
    assert not errors.unexpected(), f"errors on the console: {errors.unexpected()}"


@pytest.fixture
def page(new_page):  # type: ignore[no-untyped-def]
    return new_page(viewport={"width": 1280, "height": 860})
