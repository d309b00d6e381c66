"""Which optional parts of scopa are installed: the core install is the rules engine, bots,
arena, bot protocol and terminal play; the web app and the research stacks are extras
(``pip install 'scopa[server]'``). The extras' packages are read from the installed
package's own metadata (pyproject.toml is their one home), so a command that needs an extra
can say which one, in one line, instead of failing on an import deep inside."""

from __future__ import annotations

import importlib.metadata as metadata
import re
from collections.abc import Sequence
from functools import cache

#: a requirement's distribution name, then (after any version, extras and markers) its extra
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""extra\s*==\s*['"]([^'"]+)['"]""")


def _normal(name: str) -> str:
    """A distribution name as the package index compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def extra_requirements(extra: str, package: str = "scopa") -> list[str]:
    """The distribution names that ``package[extra]`` adds (empty where scopa's metadata
    cannot be read, e.g. run from a source tree that was never installed)."""
    try:
        requires = metadata.requires(package) or []
    except metadata.PackageNotFoundError:
        return []
    names = []
    for line in requires:
        marker = _EXTRA.search(line)
        name = _NAME.match(line)
        if marker and name and marker.group(1) == extra:
            names.append(name.group(1))
    return names


@cache
def missing(extra: str, package: str = "scopa") -> tuple[str, ...]:
    """The packages of ``package[extra]`` that are not installed, in the metadata's order
    (read once a process: each command group needing the extra asks at every start)."""
    absent = []
    for name in extra_requirements(extra, package):
        try:
            metadata.distribution(_normal(name))
        except metadata.PackageNotFoundError:
            absent.append(name)
    return tuple(absent)


def install_hint(extra: str, absent: Sequence[str]) -> str:
    """One line that names the extra to install and what is missing."""
    return (f"this needs scopa's {extra} extra: pip install 'scopa[{extra}]' "
            f"(missing: {', '.join(absent)})")
