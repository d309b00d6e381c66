"""The per-move result every search returns, and the default budget."""

from __future__ import annotations

from dataclasses import dataclass

#: simulations when no limit is given
DEFAULT_SIMULATIONS = 2000


@dataclass
class MoveStat:
    """Accumulated value of one root move over the simulations that judged it."""

    code: int
    total: float = 0.0
    count: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0
