"""A learned value of the position between two rounds of dealing (heads-up variants).

When a round has just been dealt, and before either player looks at the new cards, the
two players know exactly the same: the table, both piles, the sweeps and who took last;
every other card is in the stock or the fresh hands, unseen by both. The value of that
position (the expected final point margin of the hand) is then a function of public facts
alone, with no hidden hand to guess. A small network fitted to
heuristic self-play (``scripts/train_value.py``) gives it, so the search can stop each
rollout at the end of the current round instead of playing the later rounds out: the later
rounds' luck no longer adds noise, and they are judged as players who cannot see each
other's cards would play them, not as the rollout policy plays them with every card known.

The network has one hidden layer. Its inputs (``features``) are, from the side of the
player who leads the next round: 40 bits for the cards in that player's pile, 40 for the
other pile, 40 for the table, the sweep difference, and who took last (lead, other, nobody).
Evaluation adds up precomputed first-layer sums per byte of each card mask, so it costs
about 10 microseconds in plain Python.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from ..hand import Hand
from ..match import Match
from ..rules import VARIANTS, Rules
from ..scoring import hand_totals
from ..view import PlayerView
from .heuristic import HeuristicBot

FORMAT = 1
INPUTS = 124
NETS_DIR = Path(__file__).parent / "nets"


def features(
    table: int, lead_pile: int, other_pile: int, sweep_diff: int, last: int
) -> list[float]:
    """The network's inputs, dense (training and tests use this; play uses the fast sum).
    ``last``: 0 the lead took last, 1 the other player, 2 nobody has taken yet."""
    if last not in (0, 1, 2):
        raise ValueError(f"last must be 0, 1 or 2, got {last!r}")
    x = [0.0] * INPUTS
    for block, mask in enumerate((lead_pile, other_pile, table)):
        for c in range(40):
            if mask >> c & 1:
                x[40 * block + c] = 1.0
    x[120] = float(sweep_diff)
    x[121 + last] = 1.0
    return x


def boundary_inputs(game: Hand) -> tuple[int, int, int, int, int]:
    """(table, lead pile, other pile, sweep difference, last taker) of a heads-up game whose
    next round has just been dealt (``game.to_move`` leads it)."""
    lead = game.to_move
    other = 1 - lead
    lc = game.last_capturer
    last = 0 if lc == lead else 1 if lc == other else 2
    return (
        game.table,
        game.captured[lead],
        game.captured[other],
        game.scope[lead] - game.scope[other],
        last,
    )


def self_play_boundaries(
    rules: Rules, hand_seed: str, rng: random.Random, random_share: float = 0.0
) -> list[tuple[Hand, int]]:
    """One hand of ``heuristic`` self-play (a share of plays at random, by ``rng``): a copy
    of the game just after each new round is dealt, with the hand's final margin for the
    player who leads that round. The training data, and the tests' check of the fit."""
    g = Match(rules, hand_seed=hand_seed).hand
    bots = [HeuristicBot(f"{hand_seed}-{seat}") for seat in range(2)]
    seen = []
    rnd = g.round
    while not g.hand_over:
        if random_share and rng.random() < random_share:
            codes = g.legal_codes()
            g.play_code(codes[rng.randrange(len(codes))])
        else:
            g.play(bots[g.to_move].choose(PlayerView.of(g, g.to_move)))
        if not g.hand_over and g.round != rnd:
            rnd = g.round
            seen.append(g.copy())
    totals = hand_totals(rules, g.captured, g.scope, g.declared)
    return [(b, totals[b.to_move] - totals[1 - b.to_move]) for b in seen]


class RoundValue:
    """A fitted network: ``w1[h][i]`` weighs input ``i`` in hidden unit ``h``."""

    __slots__ = ("w1", "b1", "w2", "b2", "meta", "_tabs", "_sweep_col", "_last_cols")

    def __init__(
        self,
        w1: tuple[tuple[float, ...], ...],
        b1: tuple[float, ...],
        w2: tuple[float, ...],
        b2: float,
        meta: dict[str, Any] | None = None,
    ) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.meta = meta or {}
        cols = list(zip(*w1, strict=True))  # cols[i]: input i's weight in every hidden unit
        self._tabs = self._byte_sums(cols)
        self._sweep_col = cols[120]
        self._last_cols = (cols[121], cols[122], cols[123])

    def _byte_sums(self, cols: list[tuple[float, ...]]) -> list[list[list[tuple[float, ...]]]]:
        """Per input block (lead pile, other pile, table) and byte of its card mask, the
        first-layer sum of every byte value: 3 x 5 x 256 vectors."""
        zero = (0.0,) * len(self.b1)
        tabs = []
        for block in range(3):
            rows = []
            for k in range(5):
                sums = [zero]
                for byte in range(1, 256):
                    low = byte & -byte
                    card = 8 * k + low.bit_length() - 1
                    rest = sums[byte ^ low]
                    if card < 40:
                        col = cols[40 * block + card]
                        rest = tuple(a + b for a, b in zip(rest, col, strict=True))
                    sums.append(rest)
                rows.append(sums)
            tabs.append(rows)
        return tabs

    def reference(self, x: list[float]) -> float:
        """The network on dense inputs, written out plainly (tests check ``value`` by it)."""
        out = self.b2
        for row, b, w in zip(self.w1, self.b1, self.w2, strict=True):
            h = b + sum(wi * xi for wi, xi in zip(row, x, strict=True))
            if h > 0:
                out += h * w
        return out

    def value(
        self, table: int, lead_pile: int, other_pile: int, sweep_diff: int, last: int
    ) -> float:
        """The expected final margin of the hand for the player who leads the next round."""
        tabs = self._tabs
        vecs = [self.b1, self._last_cols[last]]
        for block, mask in enumerate((lead_pile, other_pile, table)):
            rows = tabs[block]
            k = 0
            while mask:
                byte = mask & 255
                if byte:
                    vecs.append(rows[k][byte])
                mask >>= 8
                k += 1
        if sweep_diff:
            vecs.append(tuple(sweep_diff * w for w in self._sweep_col))
        out = self.b2
        # every vector has one entry per hidden unit (checked when the file is read)
        for h, w in zip(map(sum, zip(*vecs, strict=False)), self.w2, strict=False):
            if h > 0:
                out += h * w
        return out

    def of(
        self, game: Hand, side: int, cache: dict[tuple[int, ...], float] | None = None
    ) -> float:
        """The value to ``side`` (0 or 1) of a heads-up game between rounds. ``cache``: the
        values already computed by one search, by inputs (a round searched to its end in
        every world reaches the same boundary many times: 70% of the calls of a move's
        search repeat an earlier one)."""
        key = boundary_inputs(game)
        if cache is None:
            v = self.value(*key)
        else:
            got = cache.get(key)
            if got is None:
                got = cache[key] = self.value(*key)
            v = got
        return v if side == game.to_move else -v


def _floats(data: Any, n: int, what: str) -> tuple[float, ...]:
    if not isinstance(data, list) or len(data) != n:
        raise ValueError(f"{what} must be a list of {n} numbers")
    out = []
    for v in data:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{what} holds {v!r}, not a finite number")
        out.append(float(v))
    return tuple(out)


def parse_net(data: Any) -> RoundValue:
    """Check a decoded network file and build the network; ValueError says what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("a value network file holds a JSON object")
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown value network format {data.get('format')!r}; expected {FORMAT}")
    b1_raw = data.get("b1")
    if not isinstance(b1_raw, list) or not b1_raw:
        raise ValueError("b1 must be a non-empty list of numbers, one per hidden unit")
    b1 = _floats(b1_raw, len(b1_raw), "b1")
    w1_raw = data.get("w1")
    if not isinstance(w1_raw, list) or len(w1_raw) != len(b1):
        raise ValueError(f"w1 must hold {len(b1)} rows, one per hidden unit")
    w1 = tuple(_floats(row, INPUTS, f"w1 row {h}") for h, row in enumerate(w1_raw))
    w2 = _floats(data.get("w2"), len(b1), "w2")
    (b2,) = _floats([data.get("b2")], 1, "b2")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise ValueError("meta must be an object")
    return RoundValue(w1, b1, w2, b2, meta)


def load_net(path: Path | str) -> RoundValue:
    """Read a network file (``scripts/train_value.py`` writes them)."""
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from exc
    try:
        return parse_net(data)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc


@cache
def _net_file(path: str) -> RoundValue:
    return load_net(path)


def given_net(net: RoundValue | Path | str) -> RoundValue:
    """A network passed to a bot, or read from its file (each file once a process: an
    arena builds a bot for every deal)."""
    if isinstance(net, RoundValue):
        return net
    return _net_file(str(Path(net).resolve()))


def net_path(variant: str) -> Path:
    """Where the shipped network for a heads-up variant lives."""
    return NETS_DIR / f"{variant}.json"


@cache
def net_for(rules: Rules) -> RoundValue | None:
    """The shipped network for these rules, or None: networks are fitted to the heads-up
    presets, so other player counts and custom options (but a different match target,
    which does not change how a hand plays) fall back to rollouts to the end of the hand."""
    if rules.players != 2 or rules.variant not in VARIANTS:
        return None
    preset = Rules.preset(rules.variant)  # a known variant's own options never fail
    if replace(rules, target=preset.target) != preset:
        return None
    path = net_path(rules.variant)
    if not path.exists():
        return None
    return load_net(path)
