"""Make the table's sounds: small mono WAV files synthesised here from sine waves and
seeded noise (no recordings, no outside samples), so anyone can rebuild them byte for byte.

    .venv/bin/python scripts/make_sounds.py            # writes src/scopa/web/sounds/*.wav
    .venv/bin/python scripts/make_sounds.py --out DIR  # elsewhere (the tests compare)
"""

from __future__ import annotations

import argparse
import math
import random
import struct
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 16000
OUT = Path(__file__).resolve().parents[1] / "src/scopa/web/sounds"

Signal = list[float]


def silence(seconds: float) -> Signal:
    return [0.0] * int(seconds * RATE)


def tone(freq: float, seconds: float, volume: float = 0.5, decay: float = 6.0) -> Signal:
    """A bell-like note: a sine with a soft attack, its octave, and an exponential decay."""
    n = int(seconds * RATE)
    out = []
    for i in range(n):
        t = i / RATE
        env = min(1.0, t * 400) * math.exp(-decay * t)
        out.append(volume * env * (math.sin(2 * math.pi * freq * t)
                                   + 0.3 * math.sin(4 * math.pi * freq * t)))
    return out


def tap(seconds: float, seed: int, volume: float = 0.6, bright: float = 0.35) -> Signal:
    """A card on cloth: a short burst of filtered noise (a one-pole low-pass; ``bright``
    near 1 lets more hiss through)."""
    rng = random.Random(seed)
    n = int(seconds * RATE)
    out, y = [], 0.0
    for i in range(n):
        t = i / RATE
        y += bright * (rng.uniform(-1, 1) - y)
        out.append(volume * y * math.exp(-38 * t))
    return out


def swoosh(seconds: float, seed: int, volume: float = 0.5) -> Signal:
    """Noise whose brightness rises then falls: a broom across the table."""
    rng = random.Random(seed)
    n = int(seconds * RATE)
    out, y = [], 0.0
    for i in range(n):
        x = i / n
        bright = 0.05 + 0.5 * math.sin(math.pi * x)
        y += bright * (rng.uniform(-1, 1) - y)
        out.append(volume * y * math.sin(math.pi * x) ** 0.7)
    return out


def mix(*parts: tuple[float, Signal]) -> Signal:
    """Signals laid over each other, each starting at its offset in seconds."""
    end = max(int(at * RATE) + len(sig) for at, sig in parts)
    out = [0.0] * end
    for at, sig in parts:
        start = int(at * RATE)
        for i, v in enumerate(sig):
            out[start + i] += v
    return out


SOUNDS: dict[str, Callable[[], Signal]] = {
    # one card laid on the table
    "play": lambda: tap(0.12, seed=1),
    # a card lands, the taken cards are gathered
    "capture": lambda: mix((0, tap(0.1, seed=2)), (0.07, tap(0.1, seed=3, volume=0.45)),
                           (0.12, tone(660, 0.18, volume=0.12, decay=18))),
    # a scopa: the sweep, then a bright chord
    "sweep": lambda: mix((0, swoosh(0.35, seed=4)), (0.25, tone(784, 0.5, 0.18)),
                         (0.25, tone(988, 0.5, 0.14)), (0.25, tone(1175, 0.5, 0.12))),
    # cards dealt: quick flicks
    "deal": lambda: mix(*[(i * 0.07, tap(0.06, seed=10 + i, volume=0.4, bright=0.6))
                          for i in range(5)]),
    # your turn: two soft notes
    "turn": lambda: mix((0, tone(660, 0.25, 0.22, decay=9)),
                        (0.12, tone(880, 0.35, 0.22, decay=8))),
    # a match won: a rising arpeggio
    "win": lambda: mix(*[(i * 0.11, tone(f, 0.6, 0.16, decay=5))
                         for i, f in enumerate((523, 659, 784, 1047))]),
}


def write(path: Path, signal: Signal) -> None:
    peak = max(1e-9, max(abs(v) for v in signal))
    scale = min(1.0, 0.9 / peak) * 32767
    frames = b"".join(struct.pack("<h", int(round(v * scale))) for v in signal)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        write(out / f"{name}.wav", make())


if __name__ == "__main__":
    main()
