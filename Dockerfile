# The scopa game server as an image: `docker build -t scopa .` then see deploy/compose.yaml.
# Multi-stage: the build stage has a C compiler and builds the compiled kernel
# (scopa._kernel) into a virtual environment; the runtime stage copies that environment
# onto the slim base and runs as a user without privileges. Installs the locked versions
# (requirements/*.txt, every file checked against its hash).
#
# BASE: any Debian-like image with Python 3.11 or newer as `python3` and its `venv` module:
# the official python:3.11-slim-bookworm (the default), or a plain Debian 12 image with
# the python3 and python3-venv packages (a registry mirror, an in-house base). The build
# stage adds what the kernel's compiler needs (gcc, and the Python headers when the base's
# Python is Debian's own). Where the network re-signs TLS, pip trusts the CA bundle put in
# deploy/certs/ca.pem (deploy/certs/README.md), never with verification turned off.
ARG BASE=python:3.11-slim-bookworm

FROM ${BASE} AS build
# Debian's python3 has its headers in python3-dev; the official image's own Python has
# them already (and no python3-dev package of its version)
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && if [ ! -e "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; then \
      apt-get install -y --no-install-recommends python3-dev; fi \
 && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python3 -m venv /opt/scopa
WORKDIR /src
COPY requirements/build.txt requirements/server.txt requirements/
COPY deploy/certs/ /etc/scopa-build-certs/
RUN if [ -s /etc/scopa-build-certs/ca.pem ]; then export PIP_CERT=/etc/scopa-build-certs/ca.pem; fi \
 && /opt/scopa/bin/pip install --require-hashes -r requirements/build.txt \
 && /opt/scopa/bin/pip install --require-hashes -r requirements/server.txt
COPY pyproject.toml setup.py README.md ./
COPY src ./src
# the package itself, built with the locked setuptools and nothing else pulled in; the
# kernel must have been built (an image without it would be several times slower)
RUN /opt/scopa/bin/pip install --no-deps --no-build-isolation . \
 && /opt/scopa/bin/python -c "import scopa._kernel"

FROM ${BASE} AS runtime
# pg_dump and pg_restore, for scopa admin backup / restore of a PostgreSQL database; the
# virtual environment needs the base's Python at the same path as in the build stage
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 scopa \
 && useradd --system --uid 10001 --gid scopa --home-dir /data --shell /usr/sbin/nologin scopa \
 && mkdir -p /data /backups && chown scopa:scopa /data /backups
COPY --from=build /opt/scopa /opt/scopa
ENV PATH=/opt/scopa/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SCOPA_HOST=0.0.0.0 \
    SCOPA_PORT=8000 \
    SCOPA_DATABASE_URL=sqlite:////data/scopa.sqlite
WORKDIR /data
VOLUME ["/data"]
USER scopa:scopa
EXPOSE 8000
# the server answers /api/health once it has started (slim images have no curl)
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/api/health' % os.environ.get('SCOPA_PORT', '8000'), timeout=4)"]
# SIGTERM drains: sockets close with 1012, writes in flight finish (docs/deploy.md)
STOPSIGNAL SIGTERM
ENTRYPOINT ["scopa"]
CMD ["serve", "--log-format", "json"]
