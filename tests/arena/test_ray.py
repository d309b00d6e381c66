"""The Ray backend on a real Ray cluster, started here on this machine: the arena, the
strength bench and the training scripts' self-play give on it exactly what they give on
local processes.

The cluster is the one ``ray.init()`` starts (2 CPUs, no dashboard, its own temporary
directory); the finaliser's ``ray.shutdown()`` stops every process it started. The
commands run as separate programs connecting by address, as a user's would; the tests that
call ``run_arena`` here reuse this process's connection. Ray's token authentication is
off for this private cluster (``RAY_AUTH_MODE=disabled``: nothing written to
``~/.ray``)."""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray

from scopa.arena import run_arena
from scopa.arena.executor import ExecutorError, RayExecutor, open_executor
from scopa.bots import register_bot
from scopa.bots.greedy import GreedyBot
from scopa.protocol import BotProtocolError
from scopa.rules import Rules

ROOT = Path(__file__).parents[2]
FAKE = ROOT / "tests" / "protocol" / "fake_bot.py"
RULES = Rules.preset("scopa")

#: one group: with ``--dist loadgroup`` (scripts/test.sh) one xdist worker starts one cluster
pytestmark = [pytest.mark.xdist_group("ray"), pytest.mark.slow]


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """The address of a 2-CPU Ray cluster that lives as long as this module's tests."""
    temp = tempfile.mkdtemp(prefix="scopa-ray-")  # short: Ray's socket paths must fit
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RAY_AUTH_MODE", "disabled")
        env.setenv("RAY_USAGE_STATS_ENABLED", "0")
        try:
            info = ray.init(num_cpus=2, include_dashboard=False, _temp_dir=temp,
                            object_store_memory=80 * 2**20, log_to_driver=False,
                            logging_level=logging.WARNING)
            yield info.address_info["gcs_address"]
        finally:
            ray.shutdown()
            shutil.rmtree(temp, ignore_errors=True)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A program of ours, run to its end (the timeout only guards against a hang)."""
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def _stable(d: dict[str, Any]) -> dict[str, Any]:
    """An arena result without what depends on the clock or on where it ran."""
    d = dict(d)
    for key in ("seconds", "jobs"):
        d.pop(key)
    d["bots"] = [{k: v for k, v in b.items() if k not in ("move_median", "move_p99")}
                 for b in d["bots"]]
    return d


def test_arena_on_ray_gives_the_result_of_local_processes(
    address: str, tmp_path: Path
) -> None:
    cli = ["-c", "from scopa.cli import main; main()", "arena", "random", "greedy",
           f"cmd:{sys.executable} {FAKE} good", "--deals", "12", "--matches", "1",
           "--seed", "7", "--json"]
    local = _run([*cli, "--jobs", "2"], tmp_path)
    on_ray = _run([*cli, "--ray", address], tmp_path)
    assert on_ray.stderr.splitlines()[0].endswith(f"2 jobs on the Ray cluster at {address}")
    a, b = json.loads(local.stdout), json.loads(on_ray.stdout)
    assert _stable(a) == _stable(b)
    assert len(b["deal_margins"]) == 12 and b["bots"][2]["name"] == "fake-good"


def test_one_task_at_a_time_on_ray_gives_the_same_result(address: str) -> None:
    here = run_arena(["greedy", "random"], RULES, deals=9, seed=3)
    there = run_arena(["greedy", "random"], RULES, deals=9, seed=3, ray=address, jobs=1)
    assert there.jobs == 1
    assert _stable(here.to_dict()) == _stable(there.to_dict())


def test_a_bot_registered_at_run_time_reaches_the_cluster(address: str) -> None:
    # Ray's workers are not forks of this process: without the task carrying it, the name
    # would be unknown there
    register_bot("greedy-registered-here", GreedyBot)
    there = run_arena(["greedy-registered-here", "random"], RULES, deals=6, seed=1,
                      ray=address)
    here = run_arena(["greedy", "random"], RULES, deals=6, seed=1)
    assert there.bots[0].name == "greedy-registered-here"
    assert there.deal_margins == here.deal_margins


def test_a_broken_bot_on_the_cluster_stops_the_arena_with_its_error(address: str) -> None:
    broken = f"cmd:{sys.executable} {FAKE} illegal"
    with pytest.raises(BotProtocolError, match="not legal here"):
        run_arena(["random", broken], RULES, deals=6, seed=1, ray=address)


def _negated(x: int) -> int:
    """A task from a module that is not installed: it travels by value."""
    return -x


def test_results_come_back_in_task_order(address: str) -> None:
    with RayExecutor(address) as ex:
        assert ex.workers == 2 and ex.remote
        assert ex.ordered(_negated, list(range(20))) == [-i for i in range(20)]
        assert sorted(ex.unordered(_negated, [3, 1, 2])) == [(0, -3), (1, -1), (2, -2)]
    assert ray.is_initialized()  # a connection it did not make is left open


def test_no_local_worker_is_forked_from_a_process_connected_to_ray(address: str) -> None:
    # Ray's threads do not survive a fork: a clear error rather than a rare hang
    with pytest.raises(ExecutorError, match="ray.shutdown"):
        open_executor(jobs=2)


def test_self_play_on_ray_gives_the_positions_of_local_processes(
    address: str, tmp_path: Path
) -> None:
    value = [str(ROOT / "scripts" / "train_value.py"), "--hands", "40", "--chunk", "10",
             "--epochs", "0"]
    _run([*value, "--jobs", "2", "--data", "value-local.json"], tmp_path)
    _run([*value, "--ray", address, "--data", "value-ray.json"], tmp_path)
    local = json.loads((tmp_path / "value-local.json").read_text())
    assert len(local) > 40
    assert json.loads((tmp_path / "value-ray.json").read_text()) == local
    policy = [str(ROOT / "scripts" / "train_policy.py"), "--deals", "4", "--level",
              "heuristic", "--epochs", "0"]
    _run([*policy, "--workers", "2", "--data", "policy-local.json"], tmp_path)
    _run([*policy, "--ray", address, "--data", "policy-ray.json"], tmp_path)
    local = json.loads((tmp_path / "policy-local.json").read_text())
    assert len(local) > 4
    assert json.loads((tmp_path / "policy-ray.json").read_text()) == local


def test_strength_bench_on_ray_gives_the_margins_of_local_processes(
    address: str, tmp_path: Path
) -> None:
    # champion@2 is a bot the bench defines and registers itself (its _Counted class lives
    # in the script): it travels to the cluster by value
    bench = [str(ROOT / "bench" / "strength.py"), "--only", "pool2", "--levels", "champion",
             "--pool", "alphabeta-4x3", "--no-clock", "--champion-sims", "2", "--deals", "3"]
    _run([*bench, "--jobs", "2", "--json", "local.json"], tmp_path)
    _run([*bench, "--ray", address, "--json", "ray.json"], tmp_path)
    lines = [json.loads((tmp_path / f).read_text())["lines"] for f in ("local.json", "ray.json")]
    assert [ln["bots"] for ln in lines[1]] == [["alphabeta-4x3", "champion@2"]]
    assert [ln["deal_margins"] for ln in lines[0]] == [ln["deal_margins"] for ln in lines[1]]
