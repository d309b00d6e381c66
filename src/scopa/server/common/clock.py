"""The server's sense of time: wall-clock seconds and waiting. One small object so that
tests of the flow between hands can swap in a fake clock instead of sleeping."""

from __future__ import annotations

import asyncio
import time


class Clock:
    """Real time: ``time.time`` and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
