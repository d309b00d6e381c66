"""Duplicate deals: the same deck in every arrangement, bots see only their views."""

from __future__ import annotations

import pytest

from scopa.arena import ArenaError, play_duplicate, play_duplicate_deal, play_table
from scopa.bots.base import Bot, Limit, make_bot
from scopa.hand import Hand
from scopa.moves import Move
from scopa.rules import Rules
from scopa.view import PlayerView


@pytest.mark.parametrize(
    "variant,players", [("scopa", 2), ("scopa", 3), ("scopone", 4), ("scopa", 6), ("escoba", 2)]
)
def test_same_deck_in_every_arrangement(variant: str, players: int) -> None:
    rules = Rules.preset(variant, players=players)
    out = play_duplicate(["random", "random"], rules, "deal-7")
    decks = [t.decks for t in out.tables]
    assert len(decks) == max(2, rules.teams)
    assert all(d == decks[0] for d in decks)
    seatings = [t.seat_bot for t in out.tables]
    assert len({tuple(s) for s in seatings}) == len(seatings)


def test_margins_cancel_between_two_bots() -> None:
    margins = play_duplicate_deal(["random", "greedy"], Rules.preset("scopa"), 11)
    assert margins[0] == pytest.approx(-margins[1])


def test_deal_reproduces_from_its_seed() -> None:
    rules = Rules.preset("scopa", players=3)
    a = play_duplicate_deal(["random", "random", "random"], rules, "x")
    b = play_duplicate_deal(["random", "random", "random"], rules, "x")
    assert a == b


def test_deal_margin_is_points_difference() -> None:
    out = play_duplicate(["random", "random"], Rules.preset("scopa"), "d1")
    first, second = out.tables
    expected = ((first.points[0] - first.points[1]) + (second.points[1] - second.points[0])) / 2
    assert out.margins[0] == pytest.approx(expected)


def test_match_is_played_to_the_target() -> None:
    rules = Rules.preset("scopa", target=5)
    out = play_duplicate(["random", "random"], rules, "m", match=True)
    for table in out.tables:
        assert table.winner is not None
        assert max(table.points) >= 5
        assert len(table.decks) >= 1
    assert sum(out.wins) == pytest.approx(1.0)


class SpyBot(Bot):
    """Records what it is given: it must only ever be a PlayerView of its own seat."""

    name = "spy"
    seen: list[object] = []

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        SpyBot.seen.append(view)
        return view.legal_moves()[0]


def test_fair_bots_get_views_of_their_seat() -> None:
    SpyBot.seen = []
    rules = Rules.preset("scopa")
    play_table([lambda s: SpyBot(s), lambda s: make_bot("random", s)], rules, [0, 1], "v", False)
    assert SpyBot.seen
    assert all(isinstance(v, PlayerView) and v.seat == 0 and v.my_turn for v in SpyBot.seen)


def test_omniscient_bot_gets_a_copy_of_the_game() -> None:
    class Full(Bot):
        omniscient = True
        games: list[Hand] = []

        def choose_full(self, game: Hand, limit: Limit | None = None) -> Move:
            Full.games.append(game)
            move = game.legal_moves()[0]
            game.play(move)  # tampering with the copy changes nothing
            return move

    rules = Rules.preset("scopa")
    out = play_table([Full, lambda s: make_bot("random", s)], rules, [0, 1], "o", False)
    assert Full.games and all(isinstance(g, Hand) for g in Full.games)
    assert sum(out.points) >= 0 and len(out.times) == 36


def test_illegal_move_names_the_bot() -> None:
    class Bad(Bot):
        def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
            return Move.parse("7d:1d")

    with pytest.raises(ArenaError, match="'bad' at seat"):
        play_table([Bad, lambda s: make_bot("random", s)], Rules.preset("scopa"), [0, 1], "i",
                   False, labels=["bad", "random"])


def test_one_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="at least two"):
        play_duplicate_deal(["random"], Rules.preset("scopa"), 1)


def test_listening_bots_hear_every_hand_end_and_the_match_end() -> None:
    heard: list[tuple[str, object]] = []

    class Listener(Bot):
        def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
            return view.legal_moves()[0]

        def hand_end(self, result: dict, scores: list[int]) -> None:
            heard.append(("hand", list(scores)))

        def match_end(self, winner: int | None, scores: list[int]) -> None:
            heard.append(("match", winner))

    rules = Rules.preset("scopa", target=6)
    out = play_table([Listener, lambda s: make_bot("random", s)], rules, [0, 1], "n", True)
    hands = [h for h in heard if h[0] == "hand"]
    assert len(hands) == len(out.decks)
    assert hands[-1][1] == out.points
    assert heard[-1] == ("match", out.winner)


def test_team_game_partners_are_the_same_bot_and_margins_are_by_side() -> None:
    rules = Rules.preset("scopone-scientifico")
    out = play_duplicate(["random", "greedy"], rules, "team")
    assert [t.seat_bot for t in out.tables] == [[0, 1, 0, 1], [1, 0, 1, 0]]
    first, second = out.tables
    expected = ((first.points[0] - first.points[1]) + (second.points[1] - second.points[0])) / 2
    assert out.margins[1] == pytest.approx(-expected)
