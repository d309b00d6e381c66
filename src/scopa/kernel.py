"""The optional compiled kernel (``scopa._kernel``, C) and what a rule set means to it.

The kernel plays random playouts and whole random deals about ten times faster than
``scopa.playout``'s pure-Python loop and gives exactly the same outcome from the same seed
(tests/engine/test_kernel.py, bench/kernel.py). It is built by ``pip install`` when a C
compiler is there (``setup.py``, optional: a failed build leaves this module's ``KERNEL``
None and everything on the Python path). ``SCOPA_PURE_PYTHON=1`` in the environment, read
once at import, keeps the Python path even when the kernel is built.

A rule set reaches the kernel as a packed spec built from its ``Meaning`` (the capture
rule, the sweep rule, the deal, the score items). ``spec_for`` returns None for a rule set
the kernel cannot express (a score item it does not know, or an option it does not take
set away from its default: ``unexpressed``), and the caller stays on the Python path for
it. Every preset of ``rules.py`` is expressed.
"""

from __future__ import annotations

import dataclasses
import os
import struct
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .items import (
    CARDS,
    COIN_ITEM,
    DECLARED,
    GRANDE,
    NAPOLA,
    PICCOLA,
    PRIMIERA,
    RE_BELLO_ITEM,
    SETTEBELLO_ITEM,
    SEVENS,
    SWEEPS,
    ScoreItem,
)
from .meaning import Meaning
from .rules import Rules

#: the environment variable that forces the pure-Python path
PURE_ENV = "SCOPA_PURE_PYTHON"
#: the kernel's interface version this module speaks: a stale build (an older ``ABI``,
#: left by a checkout that changed _kernel.c without ``pip install -e .``) is not used
ABI = 2


def _load() -> ModuleType | None:
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    try:
        from . import _kernel  # type: ignore[attr-defined]
    except ImportError:
        return None
    if getattr(_kernel, "ABI", None) != ABI or _kernel.SPEC_SIZE != _SPEC_SIZE:
        return None
    return _kernel  # type: ignore[no-any-return]



#: the kernel's flag for each score item it knows (the IT_* flags of _kernel.c)
ITEM_FLAGS: dict[int, int] = {
    id(CARDS): 1,
    id(COIN_ITEM): 2,
    id(SETTEBELLO_ITEM): 4,
    id(PRIMIERA["ten"]): 8,
    id(PRIMIERA["rank"]): 8,
    id(SEVENS): 16,
    id(SWEEPS): 32,
    id(NAPOLA): 64,
    id(RE_BELLO_ITEM): 128,
    id(PICCOLA): 256,
    id(GRANDE): 512,
    id(DECLARED): 1024,
}
#: how the spec takes each option of ``Rules``: packed into its fields ...
PACKED_OPTIONS = frozenset({
    "players", "teams", "table_cards", "rounds", "king_redeal", "ace_redeal", "capture",
    "fewest_cards", "ace_takes_all", "ace_sweep_scopa", "last_sweep_counts", "table_fifteen",
    "declarations", "primiera_faces",
})
#: ... through the score items' flags (``item_flags`` refuses an item it does not know) ...
ITEM_OPTIONS = frozenset({"primiera", "sevens", "napola", "re_bello", "piccola", "grande"})
#: ... or not at all, being about the match around a deal, which Python plays ...
MATCH_OPTIONS = frozenset({"variant", "target", "napola_outright"})
#: ... or refused: rules the kernel does not play, set away from their default, keep the
#: deal on the Python path (``capture_optional``: every card may also be laid)
PYTHON_OPTIONS = frozenset({"capture_optional"})
_PLAIN = Rules()
_MODES = {"equal": 0, "fifteen": 1, "cirulla": 2}
_DECLARATIONS = {"off": 0, "choice": 1, "auto": 2}
#: int32 fields of the spec before the rounds (the Spec struct of _kernel.c)
SPEC_FIELDS = (
    "mode", "fewest", "ace_all", "ace_void", "last_sweeps", "declarations", "players",
    "teams", "table_cards", "king_redeal", "ace_redeal", "table_fifteen", "items",
    "faces_rank", "nrounds",
)
_MAX_ROUNDS = 40
_SPEC_SIZE = 4 * (len(SPEC_FIELDS) + _MAX_ROUNDS)
_SPECS: dict[int, tuple[Meaning, bytes | None]] = {}

#: the compiled module, or None (not built, stale, or SCOPA_PURE_PYTHON set)
KERNEL: ModuleType | None = _load()


def item_flags(items: tuple[ScoreItem, ...]) -> int | None:
    """The kernel's flags for these score items; None if one is unknown to it."""
    flags = 0
    for item in items:
        flag = ITEM_FLAGS.get(id(item))
        if flag is None:
            return None
        flags |= flag
    return flags


def unexpressed(rules: Rules) -> list[str]:
    """The options of ``rules`` that the spec does not take and that are set away from their
    default (a new option, until this module says how the kernel takes it)."""
    known = PACKED_OPTIONS | ITEM_OPTIONS | MATCH_OPTIONS  # PYTHON_OPTIONS: never known
    return [f.name for f in dataclasses.fields(Rules)
            if f.name not in known and getattr(rules, f.name) != getattr(_PLAIN, f.name)]


def pack_spec(meaning: Meaning) -> bytes | None:
    """The packed spec of a rule set for the kernel, or None if it cannot express it."""
    r = meaning.rules
    flags = item_flags(meaning.items)
    if flags is None or r.capture not in _MODES or len(r.rounds) > _MAX_ROUNDS:
        return None
    if unexpressed(r):
        return None
    ace_void = r.ace_takes_all and not r.ace_sweep_scopa
    fields = (
        _MODES[r.capture], r.fewest_cards, r.ace_takes_all, ace_void, r.last_sweep_counts,
        _DECLARATIONS[meaning.declarations], r.players, r.teams, r.table_cards,
        r.king_redeal or 0, r.ace_redeal or 0, r.table_fifteen, flags,
        r.primiera_faces == "rank", len(r.rounds),
    )
    rounds = list(r.rounds) + [0] * (_MAX_ROUNDS - len(r.rounds))
    return struct.pack(f"={len(fields) + _MAX_ROUNDS}i", *map(int, fields), *rounds)


def spec_for(meaning: Meaning) -> bytes | None:
    """``pack_spec``, once per ``Meaning`` (None also when no kernel is loaded)."""
    hit = _SPECS.get(id(meaning))
    if hit is not None and hit[0] is meaning:
        return hit[1]
    spec = pack_spec(meaning) if KERNEL is not None else None
    if len(_SPECS) > 1000:
        _SPECS.clear()
    _SPECS[id(meaning)] = (meaning, spec)  # holds ``meaning``: its id is not reused
    return spec


# -- the one place that asks whether the kernel runs ----------------------------------------
# Callers ask ``spec_for`` (None: stay on the Python path) and then call these, or call the
# functions below that answer None where the kernel does not run; no other module reads
# ``KERNEL``.


def _not_built(*args: Any) -> Any:
    raise RuntimeError("the compiled kernel is not loaded")


#: ``_kernel.playout`` and ``_kernel.deals`` themselves (no wrapper on the hot path), to be
#: called only with a spec from ``spec_for``, which is None wherever the kernel does not run
playout: Callable[..., Any] = KERNEL.playout if KERNEL is not None else _not_built
deals: Callable[..., Any] = KERNEL.deals if KERNEL is not None else _not_built


def totals(meaning: Meaning, captured: object, scope: object,
           declared: object) -> list[int] | None:
    """Each side's hand points counted by the kernel, or None where it does not run (not
    built, or rules it does not express): the caller counts in Python."""
    spec = spec_for(meaning)
    if spec is None:
        return None
    assert KERNEL is not None
    return list(KERNEL.totals(spec, captured, scope, declared))


def layout(*args: Any) -> tuple[list[int], list[int], int] | None:
    """One world's hidden hands and stock drawn by the kernel (the arguments of
    ``_kernel.layout``), or None where it is not built: the caller draws in Python
    (``bots.worlds.python_layout``, the same worlds from the same seed)."""
    if KERNEL is None:
        return None
    found: tuple[list[int], list[int], int] = KERNEL.layout(*args)
    return found


__all__ = ["KERNEL", "PURE_ENV", "spec_for", "pack_spec", "item_flags", "unexpressed",
           "playout", "deals", "totals", "layout"]
