"""The installed app's service worker names one version of the page (``ops.install``): any
change to any of the page's files is a new build id, so browsers fetch the new files and
switch at the next start; the same files are the same build."""

from __future__ import annotations

import shutil
from pathlib import Path

from scopa.server.ops.app import WEB
from scopa.server.ops.install import build_of


def test_any_changed_file_is_a_new_build(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    shutil.copytree(WEB, one)
    shutil.copytree(WEB, two)
    build, files = build_of(one)
    assert build_of(two) == (build, files)  # the same files: the same build
    assert "/static/sw.js" not in files and "/static/index.html" in files
    changed = tmp_path / "changed"
    shutil.copytree(WEB, changed)
    css = changed / "css" / "base.css"
    css.write_text(css.read_text() + "\n/* a deploy */\n")
    assert build_of(changed)[0] != build
    added = tmp_path / "added"
    shutil.copytree(WEB, added)
    (added / "js" / "new.js").write_text("export {};\n")
    assert build_of(added)[0] != build and "/static/js/new.js" in build_of(added)[1]


def test_the_worker_answers_the_pages_the_server_answers() -> None:
    """One list of page paths (``ops.app.PAGES``): the server routes them to the page and
    the worker, from the same list, answers them from its copy; nothing else."""
    import re

    from scopa.server.ops.app import PAGES
    from scopa.server.ops.install import page_patterns

    patterns = [re.compile(p) for p in page_patterns(PAGES)]
    for path in PAGES:
        concrete = re.sub(r"\{[^}]*\}", "x1", path)
        assert any(p.match(concrete) for p in patterns), path
    for path in ("/api/matches", "/static/js/main.js", "/sw.js", "/t/a/b", "/metrics"):
        assert not any(p.match(path) for p in patterns), path
