"""The frozen champion runs the pinned commit's own code through the bot protocol."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from scopa.arena import frozen
from scopa.arena.specs import bot_factory
from scopa.bots import Limit
from scopa.match import Match
from scopa.view import PlayerView

COMMIT = frozen.FROZEN["champion-2026-12"].commit


def _has_commit() -> bool:
    try:
        repo = frozen.repository()
    except ValueError:
        return False
    probe = subprocess.run(["git", "-C", str(repo), "cat-file", "-e", f"{COMMIT}^{{commit}}"],
                           capture_output=True)
    return probe.returncode == 0


def test_frozen_champion_plays_from_the_pinned_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # never skipped: a checkout of main holds the commit (a shallow clone does not, and
    # cannot run the frozen champion either: say so)
    assert _has_commit(), f"commit {COMMIT} is not in this checkout (a shallow clone?)"
    monkeypatch.setenv("SCOPA_CACHE", str(tmp_path))
    command = frozen.frozen_command("champion-2026-12")
    src = tmp_path / "frozen" / COMMIT / "src"
    assert command[-4:] == [str(src), "champion", "champion-2026-12", ""]
    assert (src / "scopa" / "bots" / "search.py").is_file()
    pool = bot_factory("champion-2026-12")
    try:
        assert pool.ready_name() == "champion-2026-12"
        bot = pool(3)
        game = Match.new("scopa", seed="frozen").hand
        view = PlayerView.of(game, game.to_move)
        assert bot.choose(view, Limit(seconds=0.01)) in view.legal_moves()
    finally:
        pool.close()
    # a second use takes the cached source; a simulation count plays without a clock
    assert frozen.checkout(COMMIT) == src
    counted = bot_factory("champion-2026-12@30")
    try:
        bot = counted(4)
        assert bot.choose(view) in view.legal_moves()
    finally:
        counted.close()


def test_unknown_frozen_bot_and_missing_commit_are_clear_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOPA_CACHE", str(tmp_path))
    with pytest.raises(ValueError, match="unknown frozen bot"):
        frozen.frozen_command("champion-1999")
    for bad in ("champion-2026-12@", "champion-2026-12@0", "champion-2026-12@x"):
        with pytest.raises(ValueError, match="simulation count"):
            frozen.frozen_command(bad)
    if _has_commit():
        with pytest.raises(ValueError, match="not in"):
            frozen.checkout("0" * 40)
    assert not (tmp_path / "frozen" / ("0" * 40)).exists()
