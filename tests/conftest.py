"""Tests marked ``kernel`` check the compiled kernel against the Python path. They fail,
never skip, where the kernel is not built (``scripts/setup.sh`` builds it); the run on
the pure-Python path (``SCOPA_PURE_PYTHON=1``, in ``scripts/test.sh``) leaves them out with
``-m "not kernel"``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# helpers shared by test folders (tests/seed_guess.py)
sys.path.insert(0, str(Path(__file__).parent))

from scopa.kernel import KERNEL, PURE_ENV


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("kernel") is not None and KERNEL is None:
        pytest.fail(f"the compiled kernel is not in use ({PURE_ENV} set, or not built: "
                    "run scripts/setup.sh, which needs gcc and the Python headers)")
