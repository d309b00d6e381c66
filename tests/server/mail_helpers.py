"""The mail of the e-mail tests: a local SMTP sink and a server that sends through it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_helpers import ServerProcess
from smtp_sink import SmtpSink


@pytest.fixture(scope="module")
def sink() -> Iterator[SmtpSink]:
    s = SmtpSink().start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def server(database_url: str, sink: SmtpSink, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        tmp_path_factory.mktemp("srv") / "scopa.sqlite", database_url=database_url,
        SCOPA_TRUSTED_PROXIES="127.0.0.1", SCOPA_SMTP_HOST="127.0.0.1",
        SCOPA_SMTP_PORT=str(sink.port), SCOPA_SMTP_STARTTLS="false",
        SCOPA_SMTP_FROM="scopa@example.org").start()
    yield proc
    proc.stop()
