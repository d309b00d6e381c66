"""Playing one hand or one match with a bot at every seat, and duplicate deals.

Fair bots get ``PlayerView.of(game, seat)`` only; a bot whose class says ``omniscient = True`` is
called as ``bot.choose_full(game_copy, limit)``. Every move goes through ``Hand.play``, so
an illegal move stops the game with an ``ArenaError`` naming the bot.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.base import Bot, Limit, make_bot
from ..match import Match
from ..moves import IllegalMoveError
from ..record import game_record
from ..rules import Rules
from ..shuffle import derive_seed
from ..view import PlayerView
from .seating import arrangements, seat_bots

#: builds a bot from a seed; a plain bot name is accepted wherever a factory is
BotFactory = Callable[[int], Bot]

#: a match that has not ended after this many hands counts as a draw (ties can repeat)
MAX_MATCH_HANDS = 200


class ArenaError(RuntimeError):
    """A bot broke the game (illegal move, crash): the message names the bot and seat."""


def as_factory(spec: BotFactory | str) -> BotFactory:
    """A factory from a factory or a registered bot name."""
    if isinstance(spec, str):
        name = spec
        return lambda seed: make_bot(name, seed)
    return spec


@dataclass
class TableOutcome:
    """One game (a hand or a match) played from one arrangement."""

    seat_bot: list[int]
    #: points per side (the hand's total, or the match's final score)
    points: list[int]
    #: the winning side of a match (None for a hand or a drawn match)
    winner: int | None
    #: each dealt deck in deal order (card numbers), one per hand played
    decks: list[list[int]]
    #: (bot index, seconds) for every move
    times: list[tuple[int, float]] = field(default_factory=list)
    #: the game record (``scopa.record``), when asked for: players named by their bots
    record: dict[str, Any] | None = None


def _choose(bot: Bot, game: Match, seat: int, limit: Limit | None) -> Any:
    if getattr(bot, "omniscient", False):
        return bot.choose_full(game.hand.copy(), limit)  # type: ignore[attr-defined]
    return bot.choose(PlayerView.of(game.hand, seat), limit)


def play_hand(
    game: Match, bots: Sequence[Bot], limit: Limit | None, seat_bot: Sequence[int],
    times: list[tuple[int, float]], labels: Sequence[str] | None = None,
) -> None:
    """Play the current hand to its end, timing every decision."""
    while not game.hand.hand_over:
        seat = game.hand.to_move
        bot = bots[seat]
        start = time.perf_counter()
        try:
            move = _choose(bot, game, seat, limit)
        except IllegalMoveError as e:
            raise ArenaError(f"{_label(labels, seat_bot, seat, bot)} failed: {e}") from e
        times.append((seat_bot[seat], time.perf_counter() - start))
        try:
            game.hand.play(move)
        except IllegalMoveError as e:
            raise ArenaError(
                f"{_label(labels, seat_bot, seat, bot)} played an illegal move: {e}"
            ) from e


def _label(labels: Sequence[str] | None, seat_bot: Sequence[int], seat: int, bot: Bot) -> str:
    name = labels[seat_bot[seat]] if labels else getattr(bot, "name", type(bot).__name__)
    return f"bot {name!r} at seat {seat}"


def _notify(bots: Sequence[Bot], game: Match, last: bool) -> None:
    """Tell bots that listen (external programs) the hand's result and the match's end."""
    result = game.hand.hand_result()
    scores = [s + side["total"] for s, side in zip(game.scores, result["sides"], strict=True)]
    notify_bots(bots, result, scores, game.winner if last else None, last)


def notify_bots(
    bots: Sequence[Bot], result: dict[str, Any], scores: list[int], winner: int | None,
    last: bool,
) -> None:
    """Send a finished hand's result (and, when ``last``, the match's end) to the bots that
    listen for them (external programs)."""
    for bot in bots:
        hand_end = getattr(bot, "hand_end", None)
        if hand_end is not None:
            hand_end(result, scores)
        match_end = getattr(bot, "match_end", None)
        if last and match_end is not None:
            match_end(winner, scores)


def _make_bots(
    factories: Sequence[BotFactory], seat_bot: list[int], seed_parts: tuple[object, ...]
) -> list[Bot]:
    return [factories[b](derive_seed(*seed_parts, seat)) for seat, b in enumerate(seat_bot)]


def _release(factories: Sequence[BotFactory], seat_bot: list[int], bots: list[Bot]) -> None:
    """Give pooled bots (external programs) back to their factory."""
    for b, bot in zip(seat_bot, bots, strict=True):
        release = getattr(factories[b], "release", None)
        if release is not None:
            release(bot)


def play_table(
    factories: Sequence[BotFactory],
    rules: Rules,
    seat_bot: list[int],
    seed: str,
    match: bool,
    limit: Limit | None = None,
    labels: Sequence[str] | None = None,
    record: bool = False,
) -> TableOutcome:
    """Play one hand (dealt from hand seed ``seed``) or one match (match seed ``seed``);
    with ``record``, keep its game record."""
    game = Match(rules, seed=seed) if match else Match(rules, hand_seed=seed)
    bots = _make_bots(factories, seat_bot, (seed, "match" if match else "hand", *seat_bot))
    times: list[tuple[int, float]] = []
    decks: list[list[int]] = []
    try:
        while True:
            decks.append(list(game.deck or []))
            play_hand(game, bots, limit, seat_bot, times, labels)
            done = not match or game.match_over or game.hand_number >= MAX_MATCH_HANDS
            _notify(bots, game, done)
            if done:
                break
            game.next_hand()
    finally:
        _release(factories, seat_bot, bots)
    sides = game.hand.hand_result()["sides"]
    if match:
        points = [s + side["total"] for s, side in zip(game.scores, sides, strict=True)]
        winner = game.winner
    else:
        points = [side["total"] for side in sides]
        winner = None
    kept = None
    if record:
        names = [labels[b] if labels else f"bot {b}" for b in seat_bot]
        kept = game_record(game, players=names)
    return TableOutcome(list(seat_bot), points, winner, decks, times, kept)


@dataclass
class DuplicateOutcome:
    """A deal (or a match) replayed from every arrangement, summed up per bot."""

    #: per bot: mean point margin over the sides it played
    margins: list[float]
    #: per bot: fraction of its sides that won (matches only; 0 for deals)
    wins: list[float]
    tables: list[TableOutcome]


def play_duplicate(
    factories: Sequence[BotFactory | str],
    rules: Rules,
    seed: str,
    match: bool = False,
    limit: Limit | None = None,
    labels: Sequence[str] | None = None,
    record: bool = False,
) -> DuplicateOutcome:
    """Play the same deal (or match) once from each arrangement of the bots.

    A side's margin is its points minus the mean points of the sides held by *other* bots
    (sides a bot plays against itself do not count as opponents)."""
    facs = [as_factory(f) for f in factories]
    k = len(facs)
    if k < 2:
        raise ValueError("an arena needs at least two bots")
    margin_sum = [0.0] * k
    win_sum = [0.0] * k
    slots = [0] * k
    tables = []
    for arrangement in arrangements(k, rules.teams):
        seat_bot = seat_bots(arrangement, rules.players)
        out = play_table(facs, rules, seat_bot, seed, match, limit, labels, record)
        tables.append(out)
        for side, b in enumerate(arrangement):
            others = [p for s, p in enumerate(out.points) if arrangement[s] != b]
            if not others:
                continue
            margin_sum[b] += out.points[side] - sum(others) / len(others)
            win_sum[b] += 1.0 if out.winner == side else 0.0
            slots[b] += 1
    margins = [m / n if n else 0.0 for m, n in zip(margin_sum, slots, strict=True)]
    wins = [w / n if n else 0.0 for w, n in zip(win_sum, slots, strict=True)]
    return DuplicateOutcome(margins, wins, tables)


def play_duplicate_deal(
    bot_factories: Sequence[BotFactory | str],
    rules: Rules,
    deal_seed: str | int,
    limit: Limit | None = None,
) -> list[float]:
    """Per bot, its mean point margin on one deal played once from each arrangement.

    ``bot_factories[i](seed) -> Bot`` (or a registered bot name); the deck is dealt from the
    hand seed ``str(deal_seed)`` in every arrangement, so only the seating changes."""
    return play_duplicate(bot_factories, rules, str(deal_seed), False, limit).margins
