"""Docker for the operator's-path tests (issue 40): the engine installed and started if
need be, a plain Debian 12 base with Python made with debootstrap (no image registry is
reached on the machines that run the tests), and copies of the repository's build context.

Docker and debootstrap are installed with apt-get when missing and the tests run as root,
and dockerd is started if it is not running; only where neither can be had are the tests
skipped, saying why. Every test module here puts its tests in one xdist group ("docker"),
so they run one after the other in one worker and the session's fixtures are made once."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

# the tests import their shared steps from dockerstack.py next to this file
sys.path.insert(0, str(Path(__file__).parent))

from dockerstack import BASE, apt_get, docker_answers, run  # noqa: E402


@pytest.fixture(scope="session")
def docker() -> Iterator[None]:
    """Docker, Compose v1 (Debian 12's docker-compose) and debootstrap, installed and
    started if need be (as root)."""
    if any(shutil.which(t) is None for t in ("docker", "debootstrap", "docker-compose")):
        if os.geteuid() != 0:
            pytest.skip("Docker, docker-compose or debootstrap is missing and the tests do "
                        "not run as root")
        apt_get("update", "-qq")
        apt_get("install", "-y", "-qq", "docker.io", "debootstrap", "docker-compose")
    started = None
    if not docker_answers():
        if os.geteuid() != 0:
            pytest.skip("dockerd is not running and the tests do not run as root")
        log = open("/tmp/scopa-test-dockerd.log", "ab")  # noqa: SIM115 - lives with dockerd
        started = subprocess.Popen(["dockerd"], stdout=log, stderr=log)
        end = time.monotonic() + 60
        while not docker_answers():
            if started.poll() is not None or time.monotonic() > end:
                pytest.skip("dockerd cannot run here: " + Path(
                    "/tmp/scopa-test-dockerd.log").read_text()[-300:])
            time.sleep(0.5)
    yield
    if started is not None:
        started.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            started.wait(30)


@pytest.fixture(scope="session")
def base_image(docker: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Debian 12 with python3 and python3-venv, as `docker import`ed from debootstrap
    (about a minute; kept between runs)."""
    if run("docker", "image", "inspect", BASE, check=False).returncode != 0:
        rootfs = tmp_path_factory.mktemp("base") / "rootfs"
        run("debootstrap", "--variant=minbase", "--include=python3,python3-venv",
            "bookworm", str(rootfs))
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        run("docker", "import", "-", BASE, stdin=tar.stdout)
        tar.wait()
        shutil.rmtree(rootfs, ignore_errors=True)
    return BASE


