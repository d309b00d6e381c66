"""The operator's path with Docker, run as docs/deploy.md writes it (issue 40): the image
builds on a plain Debian 12 base with Python (made here with debootstrap, as no registry is
reached), runs healthy with its compiled kernel, and a backup taken while it runs is
restored from a one-off container with the server stopped, bringing the backup's state
back; deploy/compose.yaml is valid for Debian 12's Compose v1.

Slow (about 4 minutes: the base, then the build). Docker and debootstrap are installed
with apt-get when missing and the tests run as root, and dockerd is started if it is not
running; only where neither can be had is the test skipped, saying why."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASE = "local/debian-python"
IMAGE = "scopa:deploy-test"
#: what the image's build context holds (.dockerignore says the same)
CONTEXT = ("requirements/build.txt", "requirements/server.txt", "pyproject.toml", "setup.py",
           "README.md", "src", "deploy/certs", "Dockerfile", ".dockerignore")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("docker")]


def _run(*cmd: str, timeout: float = 900, check: bool = True,
         **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=check,
                          **kw)  # type: ignore[call-overload]


def _docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    return _run("docker", "info", check=False, timeout=60).returncode == 0


@pytest.fixture(scope="module")
def docker() -> Iterator[None]:
    """Docker, installed and started if need be (as root)."""
    if shutil.which("docker") is None or shutil.which("debootstrap") is None:
        if os.geteuid() != 0:
            pytest.skip("Docker or debootstrap is missing and the tests do not run as root")
        _run("apt-get", "update", "-qq")
        _run("apt-get", "install", "-y", "-qq", "docker.io", "debootstrap", "docker-compose",
             env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    started = None
    if not _docker_answers():
        if os.geteuid() != 0:
            pytest.skip("dockerd is not running and the tests do not run as root")
        log = open("/tmp/scopa-test-dockerd.log", "ab")  # noqa: SIM115 - lives with dockerd
        started = subprocess.Popen(["dockerd"], stdout=log, stderr=log)
        end = time.monotonic() + 60
        while not _docker_answers():
            if started.poll() is not None or time.monotonic() > end:
                pytest.skip("dockerd cannot run here: " + Path(
                    "/tmp/scopa-test-dockerd.log").read_text()[-300:])
            time.sleep(0.5)
    yield
    if started is not None:
        started.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            started.wait(30)


@pytest.fixture(scope="module")
def image(docker: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The image, built on a Debian 12 base with python3 and python3-venv only."""
    if _run("docker", "image", "inspect", BASE, check=False).returncode != 0:
        rootfs = tmp_path_factory.mktemp("base") / "rootfs"
        _run("debootstrap", "--variant=minbase", "--include=python3,python3-venv",
             "bookworm", str(rootfs))
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        _run("docker", "import", "-", BASE, stdin=tar.stdout)
        tar.wait()
    context = tmp_path_factory.mktemp("context")
    for name in CONTEXT:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, context / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.so", "*.egg-info"))
        else:
            (context / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, context / name)
    bundle = Path("/etc/ssl/certs/ca-certificates.crt")
    if bundle.exists():  # as docs/deploy.md says, where the network re-signs TLS
        shutil.copy(bundle, context / "deploy" / "certs" / "ca.pem")
    build = _run("docker", "build", "--build-arg", f"BASE={BASE}", "-t", IMAGE, str(context),
                 check=False, timeout=1800)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    return IMAGE


def _get(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=5) as r:
        data: dict[str, object] = json.loads(r.read())
        return data


def _healthy(port: int) -> None:
    end = time.monotonic() + 120
    while time.monotonic() < end:
        with contextlib.suppress(OSError, urllib.error.URLError):
            if _get(f"http://127.0.0.1:{port}/api/health").get("ok"):
                return
        time.sleep(0.5)
    raise AssertionError("the container never answered /api/health")


def _sign_up(port: int, name: str) -> int:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/account/signup", method="POST",
        data=json.dumps({"name": name, "password": "correct horse 9"}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_image_runs_backs_up_and_restores(image: str) -> None:
    volume = f"scopa-test-data-{os.getpid()}"
    name = f"scopa-test-{os.getpid()}"
    port = _free_port()
    serve = ("docker", "run", "-d", "--name", name, "-v", f"{volume}:/data",
             "-p", f"127.0.0.1:{port}:8000", image)
    try:
        _run(*serve)
        _healthy(port)
        assert "kernel" in _run("docker", "exec", name, "python3", "-c",
                                "import scopa._kernel; print('kernel')").stdout
        assert _sign_up(port, "Before") == 201
        backup = _run("docker", "exec", name, "scopa", "admin", "backup", "/data/one.backup")
        assert backup.returncode == 0
        assert _sign_up(port, "After") == 201  # a change after the backup
        _run("docker", "stop", name)
        _run("docker", "rm", name)
        # the restore, from a one-off container on the same volume, the server stopped
        restore = _run("docker", "run", "--rm", "-v", f"{volume}:/data", image, "admin",
                       "restore", "/data/one.backup", check=False)
        assert restore.returncode == 0, restore.stdout + restore.stderr
        _run(*serve)
        _healthy(port)
        assert _get(f"http://127.0.0.1:{port}/api/players/Before")["name"] == "Before"
        with pytest.raises(urllib.error.HTTPError) as gone:
            _get(f"http://127.0.0.1:{port}/api/players/After")
        assert gone.value.code == 404
    finally:
        _run("docker", "rm", "-f", name, check=False)
        _run("docker", "volume", "rm", "-f", volume, check=False)


def test_compose_v1_accepts_the_stack(docker: None, tmp_path: Path) -> None:
    # Debian 12's docker-compose (1.29) refused the file's top-level `name` before
    env = tmp_path / ".env"
    env.write_text((ROOT / "deploy" / "env.example").read_text())
    out = _run("docker-compose", "-f", str(ROOT / "deploy" / "compose.yaml"), "--env-file",
               str(env), "config", check=False)
    assert out.returncode == 0, out.stderr
    assert "backups:/backups" in out.stdout.replace(" ", "") or "/backups" in out.stdout
