"""Issue 27 item 4: ``scopa serve`` that cannot start says why in one line on stderr,
exits non-zero and never told anyone to open the page; one that starts says so once it
listens."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from server_helpers import ROOT, START_TIMEOUT, TEST_ENV, free_port
from services import DATABASE_URL, PREFIX, dsn
from typer.testing import CliRunner

from scopa.cli import app

runner = CliRunner()


def _refused() -> int:
    """A loopback port where nothing listens."""
    return free_port()


def _serve(*args: str, **env: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["serve", "--port", str(free_port()), *args], env=env)
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize(("args", "env", "line"), [
    (["--database-url", "sqlite:///{tmp}/no/such/folder/scopa.sqlite"], {},
     "the folder {tmp}/no/such/folder of the SQLite database does not exist"),
    (["--database-url", dsn(DATABASE_URL, PREFIX + "never_made")], {},
     f'database "{PREFIX}never_made" does not exist'),
    (["--database-url", "postgresql://postgres@127.0.0.1:{port}/db"], {},
     "cannot open the database db at 127.0.0.1:{port}:"),
    (["--database-url", "mysql://user@127.0.0.1/db"], {},
     "unsupported database 'mysql'"),
    (["--database-url", "sqlite:///{tmp}/a.sqlite", "--broker-url",
      "redis://127.0.0.1:{port}/0"], {},
     "cannot reach the broker redis://127.0.0.1:{port}/0:"),
    (["--database-url", "sqlite:///{tmp}/a.sqlite"], {"SCOPA_BOT_WORKERS": "many"},
     "setting bot_workers (--bot-workers or SCOPA_BOT_WORKERS):"),
], ids=["sqlite-folder", "no-database", "refused", "mysql", "broker-refused", "bad-setting"])
def test_a_server_that_cannot_start_says_why_in_one_line(
        tmp_path: Path, args: list[str], env: dict[str, str], line: str) -> None:
    port = _refused()
    fill = {"tmp": str(tmp_path), "port": str(port)}
    code, out, err = _serve(*(a.format(**fill) for a in args), **env)
    assert code == 1
    assert "open http" not in out + err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("scopa serve: ") and line.format(**fill) in err, err


def test_the_address_is_printed_once_the_server_listens(tmp_path: Path) -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "scopa.server", "--port", str(port),
           "--database-url", f"sqlite:///{tmp_path / 'scopa.sqlite'}", "--log-level", "warning"]
    env = {**os.environ, **TEST_ENV, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # blocks until the first line: the event itself
        assert f"open http://localhost:{port}/" in line, line
        with socket.create_connection(("127.0.0.1", port), timeout=START_TIMEOUT):
            pass  # listening already when it said so
    finally:
        proc.terminate()
        proc.wait(START_TIMEOUT)


def test_a_busy_port_is_one_line_before_the_database_is_touched(tmp_path: Path) -> None:
    db = tmp_path / "never.sqlite"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = runner.invoke(app, ["serve", "--port", str(port), "--database-url",
                                f"sqlite:///{db}"])
    assert r.exit_code == 1
    assert r.stderr.strip() == (f"scopa serve: port {port} on 127.0.0.1 is in use (another "
                                "server?): stop it or choose another with --port")
    assert not db.exists()  # nothing made, nothing migrated
