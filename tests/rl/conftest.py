"""The rl tests need the ``rl`` extra (installed by ``scripts/setup.sh --dev``)."""

import pytest

for _module in ("numpy", "gymnasium", "pettingzoo", "pyspiel"):
    pytest.importorskip(_module)
