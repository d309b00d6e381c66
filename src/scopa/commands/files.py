"""Files named on the command line: read as text with one clear error for each way that
fails, so no command shows a traceback for a bad file."""

from __future__ import annotations

from pathlib import Path

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
