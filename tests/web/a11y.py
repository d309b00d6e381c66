"""axe-core in a page: the accessibility violations the browser tests refuse.

axe-core comes from npm (tests/web/package.json, installed by ``scripts/setup.sh --dev``);
without it the checks skip with the command that installs it, as the tests do without
Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
#: the impacts a page may not have
REFUSED = ("serious", "critical")


def axe_violations(page: Page, impacts: tuple[str, ...] = REFUSED) -> list[dict[str, Any]]:
    """axe's violations of the page as it is now, of the given impacts."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run scripts/setup.sh --dev (npm ci --prefix tests/web)")
    # evaluated through the browser's debugging protocol: a <script> tag would be inline
    # script, which the page's Content-Security-Policy rightly refuses
    page.evaluate(AXE.read_text())
    result = page.evaluate("async () => await axe.run(document)")
    return [v for v in result["violations"] if v.get("impact") in impacts]


def describe(violations: list[dict[str, Any]]) -> str:
    """One line a violation: its rule, its impact and where."""
    return "\n".join(
        f"{v['id']} ({v['impact']}): " + ", ".join(str(n["target"]) for n in v["nodes"][:3])
        for v in violations
    )
