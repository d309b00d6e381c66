"""The image, run as docs/deploy.md writes it (issue 40): it builds on a plain Debian 12
base with Python (tests/deploy/conftest.py), runs healthy with its compiled kernel, and a
backup taken while it runs is restored from a one-off container with the server stopped,
bringing the backup's state back; deploy/compose.yaml is valid for Debian 12's Compose v1.
Slow (about 4 minutes the first time: the base, then the build)."""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from dockerstack import BUILT, IMAGE, ROOT, checkout, free_port, run

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("docker")]

@pytest.fixture(scope="module")
def image(base_image: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The image, built on the Debian 12 base with python3 and python3-venv only (by the
    compose stack's test when it ran before in this session: the same Dockerfile on the
    same base from the same tree)."""
    if IMAGE in BUILT:
        return IMAGE
    context = checkout(tmp_path_factory.mktemp("context"))
    run("docker", "build", "--build-arg", f"BASE={base_image}", "-t", IMAGE, str(context),
        timeout=1800)
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


def test_the_image_runs_backs_up_and_restores(image: str) -> None:
    volume = f"scopa-test-data-{os.getpid()}"
    name = f"scopa-test-{os.getpid()}"
    port = free_port()
    serve = ("docker", "run", "-d", "--name", name, "-v", f"{volume}:/data",
             "-p", f"127.0.0.1:{port}:8000", image)
    try:
        run(*serve)
        _healthy(port)
        assert "kernel" in run("docker", "exec", name, "python3", "-c",
                                "import scopa._kernel; print('kernel')").stdout
        assert _sign_up(port, "Before") == 201
        backup = run("docker", "exec", name, "scopa", "admin", "backup", "/data/one.backup")
        assert backup.returncode == 0
        assert _sign_up(port, "After") == 201  # a change after the backup
        run("docker", "stop", name)
        run("docker", "rm", name)
        # the restore, from a one-off container on the same volume, the server stopped
        restore = run("docker", "run", "--rm", "-v", f"{volume}:/data", image, "admin",
                       "restore", "/data/one.backup", check=False)
        assert restore.returncode == 0, restore.stdout + restore.stderr
        run(*serve)
        _healthy(port)
        assert _get(f"http://127.0.0.1:{port}/api/players/Before")["name"] == "Before"
        with pytest.raises(urllib.error.HTTPError) as gone:
            _get(f"http://127.0.0.1:{port}/api/players/After")
        assert gone.value.code == 404
    finally:
        run("docker", "rm", "-f", name, check=False)
        run("docker", "volume", "rm", "-f", volume, check=False)


def test_compose_v1_accepts_the_stack(docker: None, tmp_path: Path) -> None:
    # Debian 12's docker-compose (1.29) refused the file's top-level `name` before
    env = tmp_path / ".env"
    env.write_text((ROOT / "deploy" / "env.example").read_text())
    out = run("docker-compose", "-f", str(ROOT / "deploy" / "compose.yaml"), "--env-file",
               str(env), "config", check=False)
    assert out.returncode == 0, out.stderr
    assert "backups:/backups" in out.stdout.replace(" ", "") or "/backups" in out.stdout
