"""The deployment files (Dockerfile, deploy/) checked without running them: no Docker
engine runs on the test machines, so the image and the compose stack are read, not built.
What they name must exist: settings the server reads, flags ``scopa serve`` has, the
health route, the files the image copies; and they keep the promises docs/deploy.md makes
(a non-root user, a health check, no sticky sessions, WebSockets proxied)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from scopa.cli import app
from scopa.server.common.settings import Settings
from scopa.server.ops.app import create_app

ROOT = Path(__file__).parents[1]
DEPLOY = ROOT / "deploy"


def dockerfile() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    text = re.sub(r"\\\n", " ", text)
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def instructions(word: str) -> list[str]:
    return [line.split(None, 1)[1] for line in dockerfile() if line.split()[0] == word]


def serve_flags() -> set[str]:
    done = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    return set(re.findall(r"(--[a-z][a-z-]*)", done.output))


def setting_names() -> set[str]:
    return {f"SCOPA_{name.upper()}" for name in Settings.model_fields}


def test_the_image_is_multi_stage_slim_and_runs_as_a_user_without_privileges() -> None:
    lines = dockerfile()
    assert lines[0].startswith("ARG BASE=python:3.11-slim-bookworm")
    stages = instructions("FROM")
    assert len(stages) >= 2 and all(s.startswith("${BASE}") for s in stages)
    users = instructions("USER")
    assert users, "no USER: the server would run as root"
    assert users[-1].split(":")[0] not in ("root", "0")
    # the user is made in the runtime stage, before USER
    runtime = lines[lines.index(next(x for x in lines if x.startswith("FROM") and
                                     "runtime" in x)):]
    assert any("useradd" in x and users[-1].split(":")[0] in x for x in runtime)


def test_the_image_installs_the_locked_versions_and_builds_the_kernel() -> None:
    runs = " ".join(instructions("RUN"))
    assert "--require-hashes -r requirements/server.txt" in runs
    assert "--require-hashes -r requirements/build.txt" in runs
    assert "import scopa._kernel" in runs  # the build fails without the compiled kernel
    build = dockerfile()[:dockerfile().index(next(x for x in dockerfile()
                                                  if "AS runtime" in x))]
    assert any("gcc" in x for x in build)


def test_the_health_check_asks_a_route_the_server_has() -> None:
    checks = instructions("HEALTHCHECK")
    assert len(checks) == 1
    paths = re.findall(r"http://127\.0\.0\.1:[^/]*(/[\w/]+)", checks[0])
    routes = set(create_app(Settings()).openapi()["paths"])
    assert paths and all(p in routes for p in paths), (paths, sorted(routes))


def test_every_file_the_image_copies_exists_and_is_not_ignored() -> None:
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    kept = {line[1:].rstrip("/") for line in ignore if line.startswith("!")}
    for copy in instructions("COPY"):
        if copy.startswith("--from"):
            continue
        *sources, _dest = copy.split()
        for src in sources:
            assert (ROOT / src).exists(), src
            assert src.rstrip("/") in kept, f"{src} is left out by .dockerignore"


#: the Compose stack's own variables (deploy/.env, interpolated by Compose: the site's
#: name, the images, Caddy's ports), never settings of the server
COMPOSE_VARIABLES = {"SCOPA_SITE", "SCOPA_BASE_IMAGE", "SCOPA_POSTGRES_IMAGE",
                     "SCOPA_REDIS_IMAGE", "SCOPA_CADDY_IMAGE", "SCOPA_HTTP_PORT",
                     "SCOPA_HTTPS_PORT"}


def test_the_image_and_stack_set_only_real_settings() -> None:
    names = setting_names()
    assert not COMPOSE_VARIABLES & names
    env = " ".join(instructions("ENV"))
    assert set(re.findall(r"\b(SCOPA_[A-Z_]+)=", env)) <= names
    for path in (DEPLOY / "compose.yaml", DEPLOY / "scopa.service", DEPLOY / "scopa@.service",
                 DEPLOY / "env.example"):
        used = set(re.findall(r"\b(SCOPA_[A-Z_]+)\b", path.read_text(encoding="utf-8")))
        assert used - COMPOSE_VARIABLES <= names, (path.name, used - names)
    # each of the stack's own variables is offered in env.example and explained in the doc
    example = (DEPLOY / "env.example").read_text(encoding="utf-8")
    doc = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert all(v in example and v in doc for v in COMPOSE_VARIABLES)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_stack_has_its_services_and_two_workers_or_more(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"postgres", "redis", "caddy"} <= set(services)
    workers = [n for n, s in services.items() if (s.get("command") or [None])[0] == "serve"]
    assert len(workers) >= 2
    flags = serve_flags()
    for name in workers:
        s = services[name]
        assert s["image"] == "scopa:latest" and s["build"]["dockerfile"] == "Dockerfile"
        assert s["stop_signal"] == "SIGTERM"
        assert {f for f in s["command"] if f.startswith("--")} <= flags
        env = s["environment"]
        assert env["SCOPA_DATABASE_URL"].startswith("postgresql://")
        assert env["SCOPA_BROKER_URL"].startswith("redis://")
        # only the proxy is trusted, and it is where the stack puts it
        caddy_ip = services["caddy"]["networks"]["scopa"]["ipv4_address"]
        assert env["SCOPA_TRUSTED_PROXIES"] == caddy_ip
    assert (ROOT / services[workers[0]]["build"]["context"].replace("..", ".")).is_dir()


def test_the_proxies_balance_without_sticky_sessions_and_carry_websockets(
        compose: dict[str, Any]) -> None:
    caddy = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    workers = [n for n, s in compose["services"].items()
               if (s.get("command") or [None])[0] == "serve"]
    proxied = re.search(r"reverse_proxy ([^{]+)\{", caddy)
    assert proxied is not None
    assert set(proxied.group(1).split()) == {f"{w}:8000" for w in workers}
    assert not re.search(r"lb_policy\s+(ip_hash|cookie|client_ip|header)", caddy)
    nginx = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    upstream = re.search(r"upstream scopa \{(.*?)\}", nginx, re.S)
    assert upstream is not None
    assert not re.search(r"^\s*(ip_hash|hash|sticky)\b", upstream.group(1), re.M)
    for header in ("Upgrade $http_upgrade", "Connection $connection_upgrade",
                   "X-Forwarded-For $proxy_add_x_forwarded_for",
                   "X-Forwarded-Proto $scheme"):
        assert f"proxy_set_header {header};" in nginx


@pytest.mark.parametrize("name", ["scopa.service", "scopa@.service"])
def test_the_systemd_unit_runs_scopa_serve_with_flags_it_has(name: str) -> None:
    unit = (DEPLOY / name).read_text(encoding="utf-8")
    starts = re.findall(r"^ExecStart=(.+)$", unit, re.M)
    assert len(starts) == 1
    words = shlex.split(starts[0])
    assert Path(words[0]).name == "scopa" and words[1] == "serve"
    used = {w.split("=")[0] for w in words[2:] if w.startswith("--")}
    assert used and used <= serve_flags(), used - serve_flags()
    if "@" in name:
        assert "--port" in used and "%i" in words  # one worker per instance, on its port
    assert re.search(r"^User=(?!root$)\w+$", unit, re.M)
    assert re.search(r"^KillSignal=SIGTERM$", unit, re.M)
