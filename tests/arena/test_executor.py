"""The executor's local backend, and the clear error for ``--ray`` without Ray (the Ray
backend itself runs on a real cluster in ``test_ray.py``)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scopa.arena.executor import ExecutorError, LocalExecutor, head_of, open_executor
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


def test_ray_address_where_nothing_answers_is_a_clear_error_at_once() -> None:
    pytest.importorskip("ray")
    address = f"127.0.0.1:{_free_port()}"
    r = subprocess.run([str(Path(sys.executable).with_name("scopa")), "arena", "random", "greedy",
                        "--deals", "2", "--ray", address],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 1
    assert f"arena cannot start: no Ray cluster answers at {address}:" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(("address", "head"), [
    ("10.0.0.5:6379", ("10.0.0.5", 6379)), ("ray://head.example:10001", ("head.example", 10001)),
    ("[::1]:6379", ("::1", 6379)), ("auto", None), ("local", None), ("", None),
])
def test_the_head_a_ray_address_names(address: str, head: tuple[str, int] | None) -> None:
    assert head_of(address) == head


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
