"""The site as an installable app: its manifest at ``/manifest.webmanifest`` and its service
worker at ``/sw.js`` (the page's scope is the whole site, so both are served from the
root). The worker's file (``web/sw.js``) gets this version's build id and file list
written in as it is served: a deploy that changes any file of the page is a new worker,
which the browser installs in the background and starts using at the next start."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse


@cache
def build_of(web: Path) -> tuple[str, list[str]]:
    """The page's build id (a hash of every file's path and bytes) and the files' URLs
    under /static (the worker keeps them all: about 750 kB)."""
    digest = hashlib.sha256()
    urls = []
    for path in sorted(p for p in web.rglob("*") if p.is_file()):
        rel = path.relative_to(web).as_posix()
        if rel == "sw.js" or "/." in f"/{rel}":
            continue
        digest.update(rel.encode() + b"\0" + path.read_bytes())
        urls.append(f"/static/{rel}")
    return digest.hexdigest()[:16], urls


def page_patterns(pages: tuple[str, ...]) -> list[str]:
    """The page paths as the worker matches them: ``/t/{table_id}`` -> ``^/t/[^/]+$``."""
    return ["^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(p)) + "$" for p in pages]


def router_for(web: Path, pages: tuple[str, ...]) -> APIRouter:
    """The two routes, over the page's folder ``web``; ``pages``: the paths the server
    answers with the page itself (the worker answers them from its copy)."""
    router = APIRouter(include_in_schema=False)

    @router.get("/manifest.webmanifest")
    def manifest() -> Response:
        return FileResponse(web / "manifest.webmanifest",
                            media_type="application/manifest+json")

    @router.get("/sw.js")
    def worker() -> Response:
        build, files = build_of(web)
        body = (web / "sw.js").read_text("utf-8").replace("__SCOPA_BUILD__", build) \
            .replace("__SCOPA_FILES__", json.dumps(files)) \
            .replace("__SCOPA_PAGES__", json.dumps(page_patterns(pages)))
        # asked again at every start: the browser compares it byte for byte
        return Response(body, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    return router
