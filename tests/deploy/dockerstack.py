"""Steps shared by the operator's-path tests (tests/deploy): running a command, a free
port, a copy of the repository as an operator's clone has it."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: the base image: Debian 12 with python3 and python3-venv only
BASE = "local/debian-python"
#: the server's image as this session built it from this tree on ``BASE`` (the compose
#: stack's first build, tagged so): the image test runs it instead of building it again
#: (one build of several minutes on a fresh machine), and builds it itself when alone
IMAGE = "scopa:deploy-test"
BUILT: set[str] = set()
#: what the image's build context holds (.dockerignore says the same)
CONTEXT = ("requirements/build.txt", "requirements/server.txt", "pyproject.toml", "setup.py",
           "README.md", "src", "deploy", "Dockerfile", ".dockerignore")


def run(*cmd: str, timeout: float = 900, check: bool = True,
        **kw: object) -> subprocess.CompletedProcess[str]:
    """A command's run, its output captured; a failure says what it printed."""
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          check=False, **kw)  # type: ignore[call-overload]
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {done.returncode}:\n"
                             f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done  # type: ignore[no-any-return]


#: how long apt-get waits for another apt or dpkg run to let go of its lock
APT_WAIT = 900


def apt_get(*args: str) -> None:
    """``apt-get ARGS`` as root, non-interactive, waiting for another apt-get (a set-up
    script, the package manager of the machine) to finish: dpkg's lock waits by itself
    (``DPkg::Lock::Timeout``), the package lists' lock (``update``) does not, so a run
    refused for it waits until the holder's process is gone and runs again."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    end = time.monotonic() + APT_WAIT
    while True:
        done = run("apt-get", "-o", f"DPkg::Lock::Timeout={APT_WAIT}", *args, check=False,
                   timeout=APT_WAIT, env=env)
        held = re.search(r"Could not get lock .* held by process (\d+)", done.stderr)
        if done.returncode == 0 or held is None or time.monotonic() > end:
            break
        holder = Path("/proc") / held.group(1)
        while holder.exists() and time.monotonic() < end:
            time.sleep(0.5)  # the holder's exit is the event; /proc shows no other sign
    if done.returncode != 0:
        raise AssertionError(f"apt-get {' '.join(args)} exited {done.returncode}:\n"
                             f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    return run("docker", "info", check=False, timeout=60).returncode == 0


def checkout(into: Path) -> Path:
    """A copy of what a clone gives the operator for building (the build context and the
    deploy folder), with the host's CA bundle for pip as docs/deploy.md says to do where
    the network re-signs TLS."""
    for name in CONTEXT:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, into / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.so", "*.egg-info", ".env", "ca.pem"))
        else:
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, into / name)
    bundle = Path("/etc/ssl/certs/ca-certificates.crt")
    if bundle.exists():
        shutil.copy(bundle, into / "deploy" / "certs" / "ca.pem")
    return into
