"""Fixtures: one shared server process per test module, fresh database each."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from server_helpers import ServerProcess  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("srv") / "scopa.sqlite"
    proc = ServerProcess(db).start()
    yield proc
    proc.stop()
