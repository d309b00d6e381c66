"""The level-plays pin can fail: with the prior weight at four tables 2 instead of 3, the
Scopone hand of tests/bots/test_level_plays.py is played differently. Run from the root
of a tree: ``.venv/bin/python docs/notes/scripts/2026-12-06-core-house-pin-mutant.py``."""

import sys

import scopa.bots.search as search

sys.path.insert(0, "tests/bots")
search.PRIOR = 2.0
pins = __import__("test_level_plays")

variant, levels, seed = pins.DEALS[2]
got = pins.plays(variant, levels, seed)
pinned = pins.PINNED[seed]
first = next((i for i, (a, b) in enumerate(zip(got, pinned, strict=False)) if a != b), None)
print("same as pinned:", got == pinned, "first difference at play", first)
