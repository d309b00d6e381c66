"""Fixtures: one shared server process per test module and store (SQLite, PostgreSQL),
with a fresh database each."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# the shared helpers beside this file, then each package's folder (a test may take the
# fixtures and steps of another test module: ``from test_flow import table``)
HERE = Path(__file__).parent
sys.path[:0] = [str(HERE), *sorted(str(p) for p in HERE.iterdir()
                                   if p.is_dir() and p.name != "__pycache__")]

from server_helpers import ServerProcess  # noqa: E402
from services import STORES, fresh_database  # noqa: E402


@pytest.fixture(scope="module", params=STORES)
def database_url(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh, empty database of each store, for one test module."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'scopa.sqlite'}"
        return
    with fresh_database() as url:
        yield url


@pytest.fixture(params=STORES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each store, for one test (a test that makes its own
    ``Store``, with no server process)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite'}"
        return
    with fresh_database() as u:
        yield u


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("srv") / "scopa.sqlite",
                         database_url=database_url).start()
    yield proc
    proc.stop()
