"""Text for the operator's terminal. What players wrote (names, report reasons, chat)
reaches ``scopa admin``'s output; a control character there can move the cursor, rewrite
earlier lines or change the terminal's title, and a bidi override can make a line read
as something else. Every such character is shown escaped instead (``\\x1b``, ``\\u202e``),
so the operator sees what was written, never what it does."""

from __future__ import annotations

import unicodedata

import typer


def escaped(text: str) -> str:
    """``text`` with every control, format (bidi), surrogate, private-use, unassigned,
    line or paragraph separator character written as its Python escape; the rest as is."""
    out = []
    for ch in text:
        if unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else
                       f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def say(text: str, err: bool = False) -> None:
    """Print one line of ``scopa admin`` output, escaped (``escaped``)."""
    typer.echo(escaped(text), err=err)
