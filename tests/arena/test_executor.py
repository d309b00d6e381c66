"""The executor's local backend, and the clear error for ``--ray`` without Ray (the Ray
backend itself runs on a real cluster in ``test_ray.py``)."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

from scopa.arena.executor import ExecutorError, LocalExecutor, open_executor
from scopa.cli import app


def test_local_results_come_back_in_task_order() -> None:
    with open_executor(jobs=2) as ex:
        assert isinstance(ex, LocalExecutor) and ex.workers == 2 and not ex.remote
        assert ex.ordered(abs, list(range(-20, 0))) == list(range(20, 0, -1))
        assert sorted(ex.unordered(abs, [-3, -1, -2])) == [(0, 3), (1, 1), (2, 2)]


def test_a_task_error_is_raised_in_the_caller() -> None:
    with open_executor(jobs=2) as ex, pytest.raises(ValueError, match="invalid literal"):
        ex.ordered(int, ["1", "x", "3"])


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an install without Ray sees
    with pytest.raises(ExecutorError, match=r"pip install 'scopa\[ray\]'"):
        open_executor(ray="127.0.0.1:1")
    r = CliRunner().invoke(app, ["arena", "random", "greedy", "--deals", "2",
                                 "--ray", "127.0.0.1:1"])
    assert r.exit_code == 1
    assert "arena cannot start" in r.output and "scopa[ray]" in r.output
