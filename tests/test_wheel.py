"""The package as a user gets it: ``python -m build`` makes an sdist and, from it, a wheel with
the compiled kernel and every data file inside; the wheel installs into a clean virtual
environment with the locked core dependencies only (no web-server package), plays an arena
from there, names the extra that ``scopa serve`` needs, and once the server extra is in,
serves ``/`` from the installed files (not from this checkout)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import scopa

ROOT = Path(__file__).parents[1]
#: what a core install must not pull in: the web server's stack
SERVER_PACKAGES = {"fastapi", "starlette", "uvicorn", "sqlalchemy", "aiosqlite", "asyncpg",
                   "alembic", "redis", "argon2-cffi", "pydantic-settings"}

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]


def run(*args: str | Path, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)
    if check:
        assert done.returncode == 0, f"{args}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel made from it (build's default), with the locked setuptools,
    from a copy of the checkout: a build writes into its source tree (egg-info, a staging
    folder), which two builds at once, or a test reading the tree, must not share."""
    out = tmp_path_factory.mktemp("dist")
    source = tmp_path_factory.mktemp("source") / "scopa"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv*", ".git", "node_modules", "__pycache__", "*.egg-info", "build", "dist", "*.so",
        ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "test-artifacts"))
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, source, cwd=out)
    (sdist,) = out.glob("scopa-*.tar.gz")
    (wheel,) = out.glob("scopa-*.whl")
    return {"sdist": sdist, "wheel": wheel}


@pytest.fixture(scope="module")
def venv(built: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A clean virtual environment with the wheel and the core lock only."""
    home = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", home / "env", cwd=home)
    pip = [home / "env/bin/python", "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run(*pip, "--require-hashes", "-r", ROOT / "requirements/core.txt", cwd=home)
    run(*pip, "--no-deps", built["wheel"], cwd=home)
    yield home / "env"


def installed(env: Path) -> set[str]:
    listing = run(env / "bin/python", "-m", "pip", "list", "--format=freeze", cwd=env).stdout
    return {re.split(r"[=@ ]", line)[0].lower().replace("_", "-")
            for line in listing.splitlines() if line}


def test_the_wheel_holds_the_kernel_and_the_data(built: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(built["wheel"]).namelist())
    assert any(re.fullmatch(r"scopa/_kernel\..*\.so", n) for n in names), "no compiled kernel"
    for path in ("scopa/web/index.html", "scopa/web/messages.json", "scopa/py.typed",
                 "scopa/server/store/migrations/env.py", "scopa/bots/nets/scopa.json"):
        assert path in names, path
    here = {p.relative_to(ROOT / "src").as_posix() for p in (ROOT / "src/scopa").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".so", ".c")}
    assert here - names == set(), "files of the package missing from the wheel"
    with tarfile.open(built["sdist"]) as sdist:
        members = {n.split("/", 1)[-1] for n in sdist.getnames()}
    assert {"src/scopa/_kernel.c", "setup.py", "pyproject.toml"} <= members


def test_the_core_install_has_no_web_server(venv: Path) -> None:
    there = installed(venv)
    assert "scopa" in there
    assert there & SERVER_PACKAGES == set(), there & SERVER_PACKAGES


def test_the_installed_cli_plays_an_arena(venv: Path, tmp_path: Path) -> None:
    version = run(venv / "bin/scopa", "--version", cwd=tmp_path).stdout.strip()
    assert version == f"scopa {scopa.__version__}"
    where = run(venv / "bin/python", "-c",
                "import scopa, scopa.kernel as k; print(scopa.__file__, k.KERNEL is not None)",
                cwd=tmp_path).stdout.split()
    assert where[0].startswith(str(venv)) and where[1] == "True", where
    arena = run(venv / "bin/scopa", "arena", "greedy", "random", "--deals", "2", "--jobs", "1",
                "--json", cwd=tmp_path)
    assert '"deals": 2' in arena.stdout


@pytest.mark.parametrize("command", [["serve", "--port", "1"],
                                     ["admin", "reset-password", "Anna"]])
def test_serve_on_a_core_install_names_the_extra(venv: Path, tmp_path: Path,
                                                 command: list[str]) -> None:
    done = run(venv / "bin/scopa", *command, cwd=tmp_path, check=False)
    assert done.returncode != 0
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert "pip install 'scopa[server]'" in done.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_installed_server_serves_its_own_files(venv: Path, tmp_path: Path) -> None:
    pip = [venv / "bin/python", "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run(*pip, "--require-hashes", "-r", ROOT / "requirements/server.txt", cwd=tmp_path)
    port = _free_port()
    server = subprocess.Popen(
        [venv / "bin/scopa", "serve", "--port", str(port),
         "--database-url", f"sqlite:///{tmp_path / 'scopa.sqlite'}", "--log-level", "info"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        # uvicorn says where it listens once it does: wait for that line, not for time
        for line in server.stdout:
            if "Uvicorn running on" in line:
                break
        else:
            pytest.fail(f"the server ended ({server.wait()}) before listening")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
            page = answer.read()
        (site,) = venv.glob("lib/python*/site-packages/scopa/web/index.html")
        assert page == site.read_bytes()
    finally:
        server.terminate()
        server.wait(timeout=60)
