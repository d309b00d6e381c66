"""The round search over an information set: one decision for worlds we cannot tell apart.

The champion's round search (``minimax``) searches each sampled world on its own: in a
world it knows the opponent's cards, so its second and third plays of the round are chosen
knowing them. A plan that is right in every world separately can be wrong when we cannot
tell the worlds apart (strategy fusion): "lay this card, then take whatever they leave"
assumes we will know what they hold when we take.

Here every sampled world of the round is searched at once, heads-up, to the end of the
round (``infoset_values``):

- at our turn, the worlds still possible share what we have seen, so one play is chosen for
  all of them: the one worth most summed over them (weighted by how often they were drawn);
- at the opponent's turn each world answers on its own, as in ``minimax``: the play of the
  cards it holds that is worst for us. A play shows the card, so the worlds go on split by
  which card was played: the ones whose hand held it.

At the round's end the leaf is the learned value of the next deal (``round_value``), which
reads only public facts (the table, the piles, the sweeps, who took last): so a leaf is the
same in every world that reaches it, and one representative game serves them all. The
worlds are reduced to the opponent's hand (the stock is never reached before the leaf), and
the opponent's hand in the representative is replaced by the union of the hands still
possible, so one game yields every card any of them could play. The cost is the number of
distinct public lines of play, not worlds times lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ..hand import Hand
from .base import Limit
from .exact import Leaf
from .movestat import DEFAULT_SIMULATIONS, MoveStat

#: simulations of the budget one world counts as, per root move: a world is searched once
#: for all root moves together, and its lines merge with other worlds' (calibrated so the
#: champion's CPU a move stays near the ``minimax`` round search's at the same count)
INFOSET_WORLD_COST = 2.5


def infoset_values(
    worlds: Sequence[Hand], codes: Sequence[int], side: int, leaf: Leaf, until_round: int
) -> list[tuple[float, float]]:
    """For each root move (``codes``, ours to play in every world), its summed value over
    ``worlds`` and the worlds' total weight, the rest of the round searched over the
    information set (see the module doc). Every world must share our hand and every public
    fact with the first; they differ in the opponent's hand (and the stock)."""
    if not worlds:
        raise ValueError("an information-set search needs at least one world")
    rep = worlds[0]
    if rep.n != 2 or rep.to_move % 2 != side:
        raise ValueError("the information-set search is heads-up, from the side to move")
    opp = 1 - rep.to_move
    counts = Counter(w.hands[opp] for w in worlds)
    masks = list(counts)
    weights = [float(counts[m]) for m in masks]
    every = list(range(len(masks)))
    total_weight = sum(weights)
    search = _Search(masks, weights, side, leaf, until_round)
    out = []
    for code in codes:
        g = rep.copy()
        g.play_code(code)
        vec = search.node(g, every, 0)
        out.append((sum(w * v for w, v in zip(weights, vec, strict=True)), total_weight))
    return out


class _Search:
    """The recursion of ``infoset_values`` with what every node shares."""

    __slots__ = ("masks", "weights", "side", "leaf", "until")

    def __init__(
        self, masks: list[int], weights: list[float], side: int, leaf: Leaf, until: int
    ) -> None:
        self.masks = masks
        self.weights = weights
        self.side = side
        self.leaf = leaf
        self.until = until

    def node(self, g: Hand, live: list[int], played: int) -> list[float]:
        """The value to our side of ``g`` in each world of ``live`` (indices into the
        opponent hands), the opponent having played the cards of ``played`` this round."""
        if g.hand_over or g.round >= self.until:
            v = self.leaf(g)  # public facts only: the same in every world
            return [v] * len(live)
        if g.to_move % 2 == self.side:
            return self._ours(g, live, played)
        return self._theirs(g, live, played)

    def _ours(self, g: Hand, live: list[int], played: int) -> list[float]:
        weights = self.weights
        best: list[float] | None = None
        best_sum = float("-inf")
        for code in g.legal_codes():
            h = g.copy()
            h.play_code(code)
            vec = self.node(h, live, played)
            s = sum(weights[i] * v for i, v in zip(live, vec, strict=True))
            if s > best_sum + 1e-12:
                best, best_sum = vec, s
        assert best is not None  # a seat to move always has a play
        return best

    def _theirs(self, g: Hand, live: list[int], played: int) -> list[float]:
        masks = self.masks
        union = 0
        for i in live:
            union |= masks[i]
        # one game holding every card some live world could play next (module doc)
        g.hands[g.to_move] = union & ~played
        worst = dict.fromkeys(live, float("inf"))
        for code in g.legal_codes():
            card = code & 63
            holders = [i for i in live if masks[i] >> card & 1]
            h = g.copy()
            h.play_code(code)
            vec = self.node(h, holders, played | 1 << card)
            for i, v in zip(holders, vec, strict=True):
                if v < worst[i]:
                    worst[i] = v
        return [worst[i] for i in live]


def infoset_evaluate(
    draw: Callable[[], Hand],
    codes: list[int],
    side: int,
    limit: Limit,
    leaf: Leaf,
) -> list[MoveStat]:
    """Every root move's value from one information-set search, to the end of the round,
    over worlds from ``draw``: as many worlds as the simulation count buys
    (``INFOSET_WORLD_COST`` a world and root move; with a clock limit only, the default
    count), at least one. The search cannot stop half-way (a half-searched information set
    values nothing), so a clock limit does not bound it: the round's few plies and the
    merged lines do."""
    sims = limit.simulations if limit.simulations is not None else DEFAULT_SIMULATIONS
    want = max(1, int(sims / (len(codes) * INFOSET_WORLD_COST)))
    worlds = [draw() for _ in range(want)]
    until = worlds[0].round + 1
    stats = []
    for code, (total, weight) in zip(
        codes, infoset_values(worlds, codes, side, leaf, until), strict=True
    ):
        stats.append(MoveStat(code, total, round(weight)))
    return stats
