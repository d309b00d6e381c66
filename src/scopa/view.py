"""PlayerView: what one seat may see, and sampling hidden states consistent with it.

A view is built by listing what is visible (own hand, table, piles, sweeps, counts, the
plays of this hand), never by deleting secrets from a full state. Search bots call
``sample`` to draw a complete state consistent with the view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .cards import ALL_CARDS, card_text, cards_of
from .hand import Hand
from .meaning import meaning_of
from .moves import AUTO_DECLARE, MARKS, OPENING, PASS, Move
from .rules import Rules


def seen_by(seat: int, entry: tuple[int, int, bool]) -> bool:
    """Whether ``seat`` sees a history entry: every one but another seat's "pass", which
    would tell that its hand could have declared."""
    return entry[1] != PASS or entry[0] == seat

@dataclass(frozen=True)
class PlayerView:
    """Everything seat ``seat`` knows about the current hand and match."""

    rules: Rules
    seat: int
    dealer: int
    to_move: int
    hand: int
    hand_sizes: tuple[int, ...]
    table: int
    stock_size: int
    captured: tuple[int, ...]
    scope: tuple[int, ...]
    last_capturer: int
    scores: tuple[int, ...]
    hand_over: bool
    round: int
    #: this hand's plays in order: (seat, move code, swept)
    history: tuple[tuple[int, int, bool], ...]
    hand_number: int = 1
    #: declaration points per seat this hand (Cirulla; empty when the rules have none)
    declared: tuple[int, ...] = ()
    #: per seat, the cards of its declared hand it still holds: public to everyone
    shown: tuple[int, ...] = ()
    #: this seat's own bit when it must declare or pass now (others' choices are private)
    undecided: int = 0

    @classmethod
    def of(cls, game: Hand, seat: int) -> PlayerView:
        if not 0 <= seat < game.n:
            raise ValueError(f"no seat {seat}")
        return cls._build(game, seat, game.hands[seat])

    @classmethod
    def public(cls, game: Hand) -> PlayerView:
        """A spectator's view: everything public, no hand (``seat`` is -1)."""
        return cls._build(game, -1, 0)

    @classmethod
    def _build(cls, game: Hand, seat: int, hand: int) -> PlayerView:
        history = tuple(game.history)
        if not game.meaning.declares:
            declared: tuple[int, ...] = ()
            shown: tuple[int, ...] = ()
            undecided = 0
        else:
            declared = tuple(game.declared)
            shown = tuple(s & h for s, h in zip(game.shown, game.hands, strict=True))
            undecided = game.undecided & (1 << seat) if seat >= 0 else 0
            history = tuple(e for e in history if seen_by(seat, e))
        return cls(
            rules=game.rules,
            seat=seat,
            dealer=game.dealer,
            to_move=game.to_move,
            hand=hand,
            hand_sizes=tuple(h.bit_count() for h in game.hands),
            table=game.table,
            stock_size=len(game.stock),
            captured=tuple(game.captured),
            scope=tuple(game.scope),
            last_capturer=game.last_capturer,
            scores=tuple(game.scores),
            hand_over=game.hand_over,
            round=game.round,
            history=history,
            hand_number=game.hand_number,
            declared=declared,
            shown=shown,
            undecided=undecided,
        )

    @property
    def my_turn(self) -> bool:
        return not self.hand_over and self.to_move == self.seat

    def unseen(self) -> int:
        """Cards this seat cannot see: the other hands and the stock together."""
        seen = self.hand | self.table
        for pile in self.captured:
            seen |= pile
        for held in self.shown:
            seen |= held
        return ALL_CARDS & ~seen

    def sample(self, rng: random.Random) -> Hand:
        """A complete state consistent with this view, uniformly at random among all such
        states: the unseen cards shuffled into the other hands (by their sizes) and the
        stock. Nothing outside the view is read."""
        hidden = cards_of(self.unseen())
        rng.shuffle(hidden)
        hands = []
        pos = 0
        for s, size in enumerate(self.hand_sizes):
            if s == self.seat:
                hands.append(self.hand)
                continue
            m = self.shown[s] if self.shown else 0
            size -= m.bit_count()
            for c in hidden[pos : pos + size]:
                m |= 1 << c
            pos += size
            hands.append(m)
        stock = hidden[pos:]
        if len(stock) != self.stock_size:
            raise ValueError("view is inconsistent: hidden cards do not match the counts")
        return self._state(hands, stock)

    def determinize(self, hands: list[int], stock: list[int]) -> Hand:
        """A full state with the given hidden hands and stock (stock: next dealt last)."""
        return self._state(hands, stock)

    def _state(self, hands: list[int], stock: list[int]) -> Hand:
        return Hand.from_parts(
            self.rules,
            dealer=self.dealer,
            to_move=self.to_move,
            hands=hands,
            table=self.table,
            stock=stock,
            captured=list(self.captured),
            scope=list(self.scope),
            last_capturer=self.last_capturer,
            scores=list(self.scores),
            round=self.round,
            history=self.history,
            hand_number=self.hand_number,
            declared=self.declared,
            shown=self.shown,
            undecided=self.undecided,
        )

    def legal_moves(self) -> list[Move]:
        """The legal moves of this seat when it is its turn (no hidden card is needed)."""
        if not self.my_turn:
            return []
        return self._probe().legal_moves()

    def legal_codes(self) -> list[int]:
        if not self.my_turn:
            return []
        return self._probe().legal_codes()

    def _probe(self) -> Hand:
        # Only the mover's hand and the table decide legality: other hands can stay empty.
        hands = [0] * self.rules.players
        hands[self.seat] = self.hand
        return self._state(hands, [])

    def to_dict(self) -> dict[str, Any]:
        """JSON form sent to a seat: only what it may see."""
        out: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "seat": None if self.seat < 0 else self.seat,
            "dealer": self.dealer,
            "to_move": None if self.hand_over else self.to_move,
            "hand": [card_text(c) for c in cards_of(self.hand)],
            "hand_sizes": list(self.hand_sizes),
            "table": [card_text(c) for c in cards_of(self.table)],
            "stock_size": self.stock_size,
            "captured": [[card_text(c) for c in cards_of(p)] for p in self.captured],
            "scope": list(self.scope),
            "last_capturer": None if self.last_capturer < 0 else self.last_capturer,
            "scores": list(self.scores),
            "hand_over": self.hand_over,
            "hand_number": self.hand_number,
            "history": [history_entry(e) for e in self.history],
        }
        if meaning_of(self.rules).declares:
            out["declarations"] = {
                "points": list(self.declared),
                "shown": [[card_text(c) for c in cards_of(m)] for m in self.shown],
                "pending": bool(self.undecided),
            }
        return out

    @property
    def deciding(self) -> bool:
        """This seat must declare its dealt hand or pass before it plays."""
        return bool(self.undecided) and self.my_turn


def history_entry(entry: tuple[int, int, bool]) -> dict[str, Any]:
    """A play of this hand as public JSON."""
    seat, code, swept = entry
    card = code & 63
    if MARKS <= card < OPENING:
        if card == PASS:
            return {"seat": seat, "declare": False}
        shown = [card_text(c) for c in cards_of(code >> 6)]
        return {"seat": seat, "declare": True, "shown": shown, "auto": card == AUTO_DECLARE}
    return {
        "seat": seat,
        "card": None if card == OPENING else card_text(card),
        "capture": [card_text(c) for c in cards_of(code >> 6)],
        "scopa": swept,
    }
