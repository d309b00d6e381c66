"""Match: a game of hands to the target, holding the hand being played.

The match is the record around the position (as python-chess's ``pgn.Game`` is around a
``Board``): the rules, the match seed and each hand's seed, redeals and deck, the earlier
hands' moves and score sheets, and the next deal, whose dealer and banked score it
carries into the new ``Hand``. The position itself (and what a search copies) is
``scopa.hand``'s; the match score lives there too, as the position format says, and the
match reads it from its current hand.
"""

from __future__ import annotations

from typing import Any

from .cards import card_text
from .hand import Hand, check_deck
from .meaning import Meaning, meaning_of
from .rules import Rules
from .shuffle import deck_from_seed, new_seed


def seeded_deck(meaning: Meaning, seed: str) -> tuple[list[int], int]:
    """The deck a hand seed deals and the redeals it took: a void deal is shuffled again
    from the same seed's next attempt (docs/formats.md, "Shuffle")."""
    attempt = 0
    deck = deck_from_seed(seed, attempt)
    while meaning.void_deal(deck):
        attempt += 1
        deck = deck_from_seed(seed, attempt)
    return deck, attempt


def totals_after(hand: Hand) -> list[int]:
    """Match points per side once the finished ``hand`` is counted (what a probe of a move
    that may end the match asks, on a copy of the hand)."""
    res = hand.hand_result()
    return [s + side["total"] for s, side in zip(hand.scores, res["sides"], strict=True)]


def winner_after(hand: Hand) -> int | None:
    """The side that has won the match once ``hand`` is over; None while it is not, or
    when the target is not reached (or reached level: another hand)."""
    if not hand.hand_over:
        return None
    return hand.meaning.winner(totals_after(hand), hand.hand_result()["outright"])


class Match:
    """A match in progress: its rules, seeds and log, and the current ``hand``."""

    __slots__ = ("rules", "seed", "hand", "hand_seed", "hand_attempt", "deck", "results")

    rules: Rules
    #: the match seed (hand k is dealt from ``f"{seed}:{k}"``), None for fresh seeds
    seed: str | None
    #: the hand being played, or finished and not yet followed by ``next_hand``
    hand: Hand
    #: the current hand's deal: its seed (None when dealt from a given deck), the redeals
    #: the seed took, and the deck in deal order (None for a position loaded without it)
    hand_seed: str | None
    hand_attempt: int
    deck: list[int] | None
    #: the finished hands before the current one (``hand_log`` entries)
    results: list[dict[str, Any]]

    def __init__(
        self,
        rules: Rules | None = None,
        seed: str | int | None = None,
        dealer: int | None = None,
        deck: list[int] | None = None,
        hand_seed: str | None = None,
    ) -> None:
        """Start a match: deal its first hand from ``deck``, or from ``hand_seed``, or from
        ``seed`` (the match seed: hand k is dealt from the seed ``f"{seed}:{k}"``), or from a
        fresh cryptographic seed; the dealer defaults to the last seat."""
        self.rules = rules = rules or Rules.preset()
        self.seed = None if seed is None else str(seed)
        self.results = []
        first = hand_seed if hand_seed is not None else self._hand_seed_for(1)
        self._deal(dealer, [0] * rules.teams, 1, deck, None if deck is not None else first)

    @classmethod
    def new(cls, variant: str = "scopa", seed: str | int | None = None, **options: Any) -> Match:
        """A new match of a named variant with option overrides."""
        return cls(Rules.preset(variant, **options), seed=seed)

    @classmethod
    def from_hand(cls, hand: Hand, seed: str | None = None) -> Match:
        """A match that goes on from a hand (a loaded position): no deal is known for it,
        so its log starts with the next hand."""
        m = cls.__new__(cls)
        m.rules = hand.rules
        m.seed = seed
        m.hand = hand
        m.hand_seed = None
        m.hand_attempt = 0
        m.deck = None
        m.results = []
        return m

    def _hand_seed_for(self, number: int) -> str:
        return new_seed() if self.seed is None else f"{self.seed}:{number}"

    def _deal(
        self, dealer: int | None, scores: list[int], number: int, deck: list[int] | None,
        seed: str | None,
    ) -> None:
        """Deal hand ``number`` from ``deck``, else from ``seed``."""
        attempt = 0
        if deck is None:
            assert seed is not None
            deck, attempt = seeded_deck(meaning_of(self.rules), seed)
        self.hand = Hand.deal(self.rules, deck, dealer=dealer, scores=scores, hand_number=number)
        self.deck = list(deck)
        self.hand_seed = seed
        self.hand_attempt = attempt

    # -- the score ----------------------------------------------------------------------
    @property
    def scores(self) -> list[int]:
        """Match points per side banked before the current hand (the hand's own)."""
        return self.hand.scores

    @property
    def hand_number(self) -> int:
        return self.hand.hand_number

    def match_totals(self) -> list[int]:
        """Match points per side counting the finished current hand."""
        return totals_after(self.hand)

    @property
    def winner(self) -> int | None:
        """The winning side once the match is decided, else None."""
        return winner_after(self.hand)

    @property
    def match_over(self) -> bool:
        return self.winner is not None

    # -- the next hand ------------------------------------------------------------------
    def next_hand(self, seed: str | int | None = None, deck: list[int] | None = None) -> None:
        """Bank the finished hand's points and deal the next hand, the deal passing on."""
        hand = self.hand
        if not hand.hand_over:
            raise ValueError("the hand is not over yet")
        if self.match_over:
            raise ValueError("the match is over")
        if deck is not None:
            check_deck(hand.meaning, deck)  # before anything changes
        self.results.append(self._hand_entry(hand.hand_result()))
        number = hand.hand_number + 1
        dealer = (hand.dealer + 1) % hand.n
        if deck is not None:
            self._deal(dealer, self.match_totals(), number, deck, None)
        else:
            given = str(seed) if seed is not None else self._hand_seed_for(number)
            self._deal(dealer, self.match_totals(), number, None, given)

    # -- the log ------------------------------------------------------------------------
    def _hand_entry(self, result: dict[str, Any] | None) -> dict[str, Any]:
        return {
            "dealer": self.hand.dealer,
            "seed": self.hand_seed,
            "redeals": self.hand_attempt,
            "deck": [card_text(c) for c in self.deck] if self.deck is not None else None,
            "moves": [m.to_dict() for m in self.hand.moves()],
            "result": result,
        }

    def hand_log(self) -> list[dict[str, Any]]:
        """Every hand so far with its dealer, seed, deck, moves and result (None for the
        hand in progress): the material of a game record. A position loaded without its
        deal has no entry for its hand."""
        out = list(self.results)
        if self.deck is not None:
            hand = self.hand
            out.append(self._hand_entry(hand.hand_result() if hand.hand_over else None))
        return out

    def __repr__(self) -> str:
        return f"Match({self.rules.variant}, hand {self.hand_number}, to_move={self.hand.to_move})"


__all__ = ["Match", "seeded_deck", "totals_after", "winner_after"]
