"""One replay of an event log: deals and moves in order, rebuilt through the engine.

A match is stored as events (the server's database, a game record): each hand starts with
a ``Deal`` (its seed or its deck, optionally the dealer and redeal count to check) followed
by that hand's moves. The server's restart, the history pages and the record reader all
rebuild matches through ``replay_log`` so that they cannot disagree about what a log means
or about which logs are refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .match import Match
from .moves import MARKS, IllegalMoveError, Move, PositionError
from .rules import Rules


class ReplayError(ValueError):
    """An event that does not fit the match so far; the message says which hand and move."""


@dataclass(frozen=True)
class Deal:
    """The start of a hand: dealt from ``deck`` (card numbers in deal order) when given,
    else from the hand seed ``seed`` (void deals redealt as the engine does). ``dealer``
    and ``redeals``, when given, are checked or recorded; ``seed`` is kept as the hand's
    seed either way."""

    seed: str | None = None
    deck: list[int] | None = None
    dealer: int | None = None
    redeals: int | None = None


@dataclass(frozen=True)
class Step:
    """The state right after one event. ``game`` is the one game being replayed (it keeps
    changing: copy it to keep it); ``move`` and ``seat`` are None for a deal; ``index`` is
    the move's 1-based number within its hand (0 for the deal)."""

    game: Match
    hand: int
    index: int
    move: Move | None
    seat: int | None


def replay_log(
    rules: Rules, events: Iterable[Deal | Move | dict[str, Any] | str], seed: str | None = None
) -> Iterator[Step]:
    """Replay events in order, yielding a ``Step`` after each; raise ``ReplayError`` at the
    first event that is malformed or illegal. ``seed`` is the match seed, kept on the game.
    Events are read lazily, so a caller may check each hand as it is reached."""
    game: Match | None = None
    hand = 0
    index = 0
    for event in events:
        if isinstance(event, Deal):
            hand += 1
            index = 0
            game = _deal(rules, game, event, hand, seed)
            yield Step(game, hand, 0, None, None)
            continue
        index += 1
        where = f"hand {hand}, move {index}"
        if game is None:
            raise ReplayError("the log must start with a deal")
        if game.hand.hand_over:
            raise ReplayError(f"{where} comes after the hand ended")
        seat = game.hand.to_move
        try:
            if isinstance(event, dict):
                event = Move.from_dict(event)
            elif isinstance(event, str):
                event = Move.parse(event)
            game.hand.play(event)
        except IllegalMoveError as e:
            raise ReplayError(f"{where}: {e}") from None
        _, code, _ = game.hand.last_entry()  # the rules may have added entries after it
        yield Step(game, hand, index, Move.from_code(code if code & 63 < MARKS else code & 63),
                   seat)


def _deal(rules: Rules, game: Match | None, deal: Deal, hand: int, seed: str | None) -> Match:
    where = f"hand {hand}"
    if deal.deck is None and deal.seed is None:
        raise ReplayError(f"{where}: needs a deck or a seed")
    try:
        if game is None:
            dealer = rules.players - 1 if deal.dealer is None else deal.dealer
            if deal.deck is not None:
                game = Match(rules, dealer=dealer, deck=list(deal.deck))
            else:
                game = Match(rules, dealer=dealer, hand_seed=deal.seed)
            game.seed = seed
        else:
            if not game.hand.hand_over:
                raise ReplayError(f"{where}: the previous hand did not finish")
            if game.match_over:
                raise ReplayError(f"{where}: the match was already over")
            expected = (game.hand.dealer + 1) % rules.players
            if deal.dealer is not None and deal.dealer != expected:
                raise ReplayError(f"{where}: dealer should be seat {expected}")
            if deal.deck is not None:
                game.next_hand(deck=list(deal.deck))
            else:
                game.next_hand(seed=deal.seed)
    except (PositionError, ValueError) as e:
        if isinstance(e, ReplayError):
            raise
        raise ReplayError(f"{where}: {e}") from None
    if deal.deck is not None:  # a deck stands for itself: keep the seed it came from
        game.hand_seed = deal.seed
        game.hand_attempt = deal.redeals or 0
    elif deal.redeals is not None and deal.redeals != game.hand_attempt:
        raise ReplayError(f"{where}: {deal.redeals} redeals recorded but the seed deals after "
                          f"{game.hand_attempt}")
    return game


def final_game(
    rules: Rules, events: Iterable[Deal | Move | dict[str, Any] | str], seed: str | None = None
) -> Match:
    """The game at the end of a log (``ReplayError`` for an empty or broken one)."""
    game: Match | None = None
    for step in replay_log(rules, events, seed):
        game = step.game
    if game is None:
        raise ReplayError("the log holds no deal")
    return game


__all__ = ["Deal", "ReplayError", "Step", "final_game", "replay_log"]
