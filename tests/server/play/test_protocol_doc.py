"""docs/server-protocol.md names the fields the history API really sends."""

from __future__ import annotations

import re
from pathlib import Path

from scopa.server.play.history import summary
from scopa.server.store.models import MatchRow

DOC = Path(__file__).parents[3] / "docs" / "server-protocol.md"


def test_the_match_list_documents_every_match_summary_field() -> None:
    text = DOC.read_text(encoding="utf-8")
    bullet = re.search(r"^- `GET /api/matches\?.*?(?=^- )", text, re.S | re.M)
    assert bullet is not None, "docs/server-protocol.md lost its GET /api/matches entry"
    row = MatchRow(id="m1", table_id="t1", number=1, rules={"variant": "scopa"},
                   players=["Anna", "Giulia"], winner=0, scores=[11, 7], hands=3)
    documented = set(re.findall(r'"(\w+)"', bullet.group(0)))
    assert set(summary(row)) - {"matches", "total"} <= documented
    assert "POST /api/tables" not in bullet.group(0) and "Bot seats get" not in bullet.group(0)
