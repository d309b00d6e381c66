"""Shared set-ups for the bot tests: every variant and player count, small positions."""

from __future__ import annotations

import random

from scopa import Rules
from scopa.bots import Bot, Limit
from scopa.cards import card
from scopa.hand import Hand
from scopa.match import Match
from scopa.rules import VARIANTS
from scopa.view import PlayerView

#: small budgets keep the tests fast; behaviour, not strength, is under test
TINY = Limit(simulations=24)


def all_rules() -> list[Rules]:
    """Every variant with every player count it accepts, plus 6 players in three pairs."""
    out = []
    for variant in VARIANTS:
        for players in range(2, 7):
            try:
                out.append(Rules.preset(variant, players=players))
            except ValueError:
                continue
    out.append(Rules.preset("scopa", players=6, teams=3))
    out.append(Rules.preset("asso-pigliatutto", ace_sweep_scopa=True, last_sweep_counts=True))
    return out


def rules_id(r: Rules) -> str:
    return f"{r.variant}-{r.players}p-{r.teams}s"


def midgame(seed: str, plays: int, variant: str = "scopa", players: int = 2) -> Hand:
    """A game ``plays`` random legal moves in (the same seed, the same position)."""
    game = Match(Rules.preset(variant, players=players), seed=seed).hand
    rng = random.Random(seed)
    for _ in range(plays):
        game.play(rng.choice(game.legal_moves()))
    return game


def play_hand(game: Hand, bots: list[Bot], limit: Limit | None = TINY) -> list[object]:
    """Play the hand out with one bot a seat, checking every move is legal; the moves."""
    moves: list[object] = []
    while not game.hand_over:
        move = bots[game.to_move].choose(PlayerView.of(game, game.to_move), limit)
        assert move in game.legal_moves()
        game.play(move)
        moves.append(move)
    return moves


def choose(bot: Bot, game: Hand, limit: Limit | None = TINY) -> object:
    """Ask a bot for the seat to move, the way a host does."""
    if bot.omniscient:
        return bot.choose_full(game.copy(), limit)  # type: ignore[attr-defined]
    return bot.choose(PlayerView.of(game, game.to_move), limit)


def cards(*texts: str) -> int:
    m = 0
    for t in texts:
        m |= 1 << card(t)
    return m


def view_2p(hand: list[str], table: list[str], unseen: list[str], opp: int) -> PlayerView:
    """Seat 0 to move in 2-player Scopa: seat 0 holds ``hand``, seat 1 holds ``opp`` of the
    ``unseen`` cards, the stock the rest of them; every other card is in seat 1's pile."""
    rules = Rules.preset("scopa")
    h, t, u = cards(*hand), cards(*table), cards(*unseen)
    assert not (h & t or h & u or t & u)
    stock = len(unseen) - opp
    assert stock % 6 == 0 and stock >= 0
    pile = ((1 << 40) - 1) & ~(h | t | u)
    return PlayerView(
        rules=rules, seat=0, dealer=1, to_move=0, hand=h, hand_sizes=(len(hand), opp),
        table=t, stock_size=stock, captured=(0, pile), scope=(0, 0), last_capturer=1,
        scores=(0, 0), hand_over=False, round=5 - stock // 6, history=(),
    )
