"""A server killed with SIGKILL runs no shutdown code: its bot workers must still end on
their own, or every crash would leave processes idling on the machine for ever."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from server_helpers import ServerProcess


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                           check=False)
    return [int(p) for p in found.stdout.split()]


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_bot_workers_end_when_their_server_is_killed(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "scopa.sqlite").start()
    try:
        assert server.proc is not None
        workers = children(server.proc.pid)  # warmed at start: the pool is up
        assert workers, "the server started no worker processes"
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(30)
        # the event is each worker's exit; the limit only guards a broken run
        deadline = time.monotonic() + 60
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [p for p in workers if alive(p)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"workers outlived their server: {left}"
    finally:
        server.stop()
