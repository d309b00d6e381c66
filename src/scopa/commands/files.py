"""Files named on the command line: read as text with one clear error for each way that
fails, so no command shows a traceback for a bad file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer


def read_text(path: Path) -> str:
    """A file given on the command line as text; unreadable or not UTF-8 is one clear
    error (the commands that read files all go through here)."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise typer.BadParameter(f"cannot read {path}: {e}") from None
    except UnicodeDecodeError as e:
        raise typer.BadParameter(
            f"{path} is not UTF-8 text (byte {e.start} is 0x{e.object[e.start]:02x})"
        ) from None


def writable(path: Path | None) -> Path | None:
    """A file the command will write later, checked now (its folder exists), so that a
    long match or arena is not played for nothing."""
    if path is not None and not path.parent.is_dir():
        raise typer.BadParameter(f"cannot write {path}: the folder {path.parent} does not exist")
    return path


def write_record(path: Path, record: dict[str, Any]) -> None:
    """A game record as ``scopa replay`` and ``scopa verify`` read it: the text form for a
    ``.txt`` file, JSON otherwise."""
    from ..record import record_to_text

    text = record_to_text(record) if path.suffix == ".txt" else json.dumps(record, indent=1)
    path.write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
