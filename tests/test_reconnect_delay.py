"""The table page's reconnection back-off (``reconnectDelay`` in web/js/socket.js, run in
Node): random jitter in every window, growing with the attempts up to a cap, and after a
server restart (close code 1012) the pages of a worker spread over seconds rather than
all coming back in the same instant."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

SOCKET_JS = Path(__file__).parents[1] / "src" / "scopa" / "web" / "js" / "socket.js"

#: prints [[code, attempt, delay] ...] for the cases asked, with Math.random
SCRIPT = """
const src = require("fs").readFileSync(process.argv[1], "utf8");
import("data:text/javascript," + encodeURIComponent(src)).then(({ reconnectDelay }) => {
  const out = [];
  for (const code of [1006, 1012]) {
    for (const attempt of [0, 1, 2, 6, 20]) {
      for (let i = 0; i < 400; i++) out.push([code, attempt, reconnectDelay(code, attempt)]);
    }
  }
  const ends = [reconnectDelay(1012, 0, () => 0), reconnectDelay(1012, 0, () => 0.999999)];
  console.log(JSON.stringify({ out, ends }));
});
"""


@pytest.fixture(scope="module")
def delays() -> dict[str, list[list[int]]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed (scripts/setup.sh --dev installs it)")
    done = subprocess.run([node, "-e", SCRIPT, str(SOCKET_JS)], capture_output=True,
                          text=True, timeout=60, check=True)
    data: dict[str, list[list[int]]] = json.loads(done.stdout)
    return data


def of(delays: dict[str, list[list[int]]], code: int, attempt: int) -> list[int]:
    return [d for c, a, d in delays["out"] if c == code and a == attempt]


def test_a_restart_spreads_the_pages_over_seconds(delays: dict[str, list[list[int]]]) -> None:
    first = of(delays, 1012, 0)
    assert min(first) >= 100 and max(first) <= 3000
    assert max(first) - min(first) > 2000  # spread out ...
    assert len(set(first)) > 300  # ... and not in a few steps
    assert delays["ends"] == [100, 3000]


def test_a_lost_connection_backs_off_with_jitter_up_to_a_cap(
        delays: dict[str, list[list[int]]]) -> None:
    first, second, third = (of(delays, 1006, a) for a in (0, 1, 2))
    assert min(first) >= 100 and max(first) <= 300  # soon after a short loss
    assert max(second) <= 600 and max(third) <= 1200 and max(third) > 600  # growing
    for attempt in (0, 2, 6):
        assert len(set(of(delays, 1006, attempt))) > 50  # never in step
    assert max(of(delays, 1006, 20)) <= 5000 and max(of(delays, 1012, 20)) <= 5000
