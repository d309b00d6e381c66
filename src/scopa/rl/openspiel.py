"""Scopa as an OpenSpiel Python game: ``import scopa.rl.openspiel`` registers
``python_scopa``; ``pyspiel.load_game("python_scopa", {"variant": "scopone", ...})``.

A game is one hand (a deal). Parameters: ``variant`` (a preset name), ``players`` and
``teams`` (0: the preset's), and ``options``, the other rules options as a JSON object
(``'{"target": 21, "fewest_cards": true}'``). The 40 chance nodes deal the deck card by
card in deal order; where kings (or aces) on the opening table void a deal, the chance
probabilities are those of a shuffle conditioned on a deal that is not void (so no redeal
is needed and the game stays bounded). Player actions are the fixed action space of
``scopa.rl.actions``. Returns are each seat's side's point margin in the hand.

Information states and observations come from the seat's ``PlayerView`` (plus the public
move in progress): the information-state tensor is ``Layout.encode_info`` (the view and
every play of the hand: perfect recall), the observation tensor ``Layout.encode``; the
observer keeps both up to date play by play for the state it was last given
(``InfoTracker``, equal to those encodings: tests/rl/test_info_tracker.py).
``resample_from_infostate`` draws the hidden cards with the view's own sampler and replays
the public history on them, so the state it returns has a proper action history.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any

import numpy as np
import pyspiel

from ..cards import ALL_CARDS, NUM_CARDS, RANK, card_text, cards_of, cards_text
from ..hand import Hand
from ..match import Match
from ..meaning import meaning_of
from ..moves import is_card_play
from ..notation import dump_position
from ..rules import Rules
from ..view import PlayerView
from .actions import (
    DECLARE_ACTION,
    DONE,
    NUM_ACTIONS,
    PASS_ACTION,
    TAKE,
    Turn,
    apply_action,
    legal_actions,
)
from .encoding import Layout
from .episode import side_margins
from .info_tracker import InfoTracker

SHORT_NAME = "python_scopa"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_DEFAULTS: dict[str, Any] = {"variant": "scopa", "players": 0, "teams": 0, "options": "{}"}
#: how the actions that are not a card read
_WORDS = {DECLARE_ACTION: "declare", PASS_ACTION: "pass", DONE: "done taking"}


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The rules named by the game parameters (see the module docstring)."""
    p = {**_DEFAULTS, **params}
    try:
        options = json.loads(p["options"])
    except json.JSONDecodeError as e:
        raise ValueError(f"options must be a JSON object: {e}") from None
    if not isinstance(options, dict):
        raise ValueError("options must be a JSON object")
    if p["players"]:
        options["players"] = p["players"]
    if p["teams"]:
        options["teams"] = p["teams"]
    return Rules.preset(p["variant"], **options)


def max_hand_points(rules: Rules) -> int:
    """A bound on one side's points in a hand: the four card points, most sevens, a
    sweep per play at most, napola's run and re bello."""
    return 5 + NUM_CARDS + (10 if rules.napola else 0) + (1 if rules.re_bello else 0)


_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Scopa (one hand)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class ScopaGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of any variant; see the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules = rules_from_params(dict(params or {}))
        bound = float(max_hand_points(rules))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            # a play is its card plus at most one action per card taken
            max_game_length=2 * NUM_CARDS,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.rules = rules
        self.layout = Layout(rules)

    def new_initial_state(self) -> ScopaState:
        return ScopaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ScopaObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        iig = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return ScopaObserver(self.layout, iig)


@dataclass
class _Hand:
    """The state's own data: the deck dealt so far, then the hand and the move in progress."""

    rules: Rules
    deck: list[int]
    game: Hand | None
    turn: Turn | None
    #: the cards of ``deck`` as a mask (what every chance node reads)
    dealt: int = 0
    #: ``_void_counts`` of ``deck``, kept as it grows while a deal may still be void (every
    #: chance node reads it: recounting the deck each time was a third of OpenSpiel's time)
    void: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        game = None if self.game is None else self.game.copy()
        return _Hand(self.rules, list(self.deck), game, self.turn, self.dealt, self.void)


class ScopaState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress (chance nodes) then the hand; see the module docstring."""

    def __init__(self, game: ScopaGame) -> None:
        super().__init__(game)
        self._hand = _Hand(game.rules, [], None, None)

    # OpenSpiel clones a Python state by deep-copying its attributes: one holder that
    # copies itself with ``Hand.copy`` keeps that cheap (the rules and caches are shared)
    @property
    def rules(self) -> Rules:
        return self._hand.rules

    @property
    def deck(self) -> list[int]:
        return self._hand.deck

    @property
    def game(self) -> Hand | None:
        return self._hand.game

    @property
    def turn(self) -> Turn | None:
        return self._hand.turn

    # -- flow -------------------------------------------------------------------------
    def current_player(self) -> int:  # OpenSpiel asks several times an action: kept lean
        game = self._hand.game
        if game is None:
            return _CHANCE
        if game.hand_over:
            return _TERMINAL
        return game.to_move

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None
        return legal_actions(self.game, self.turn) if player == self.game.to_move else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck: uniform, unless a deal could still be void (then each
        card gets the chance of a deal that is not void after it: a king, in Cirulla an
        ace, or any other card)."""
        hand = self._hand
        left = cards_of(ALL_CARDS & ~hand.dealt)
        p = 1.0 / len(left)
        if not _may_void(hand.rules, len(hand.deck)):
            return [(c, p) for c in left]
        counts = hand.void or _void_counts(hand.rules, hand.deck)
        weight = _card_weights(hand.rules, len(hand.deck), *counts)
        return [(c, weight[c] * p) for c in left if weight[c] > 0]

    def _apply_action(self, action: int) -> None:
        hand = self._hand
        if hand.game is None:
            if _may_void(hand.rules, len(hand.deck)):
                hand.void = _void_counts(hand.rules, [action], len(hand.deck), hand.void)
            hand.deck.append(action)
            hand.dealt |= 1 << action
            if len(hand.deck) == NUM_CARDS:
                hand.game = Match(hand.rules, deck=hand.deck).hand
            return
        hand.turn = apply_action(hand.game, hand.turn, action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_text(action)}"
        if action < TAKE:
            return f"play {card_text(action)}"
        if action < DECLARE_ACTION:
            return f"take {card_text(action - TAKE)}"
        return _WORDS[action]

    def is_terminal(self) -> bool:
        game = self._hand.game
        return game is not None and game.hand_over

    def returns(self) -> list[float]:
        n = self.rules.players
        if not self.is_terminal():
            return [0.0] * n
        assert self.game is not None
        sides = side_margins([side["total"] for side in self.game.hand_result()["sides"]])
        return [sides[s % self.rules.teams] for s in range(n)]

    def __str__(self) -> str:
        if self.game is None:
            return "dealing: " + " ".join(card_text(c) for c in self.deck)
        return json.dumps(dump_position(self.game), sort_keys=True)

    # -- what a seat knows ------------------------------------------------------------
    def view(self, player: int) -> PlayerView | None:
        """The seat's view once the deal is done (None while dealing)."""
        return None if self.game is None else PlayerView.of(self.game, player)

    def dealt_to(self, player: int) -> tuple[int, int]:
        """While dealing: the cards so far in ``player``'s first hand, and on the table."""
        n = self.rules.players
        first_round = n * self.rules.rounds[0]
        hand = table = 0
        for i, c in enumerate(self.deck):
            if i < first_round:
                if i % n == player:  # the dealer is the last seat: seat 0 gets the first card
                    hand |= 1 << c
            elif i < first_round + self.rules.table_cards:
                table |= 1 << c
        return hand, table

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ScopaState:
        """A state with the same information state for ``player_id``, its hidden cards drawn
        uniformly by the view's sampler, reached by a full action history."""
        rng = random.Random(probability_sampler())
        new: ScopaState = self.get_game().new_initial_state()
        if self.game is None:
            for c in _resampled_prefix(self, player_id, rng):
                new.apply_action(c)
            return new
        view = PlayerView.of(self.game, player_id)
        world = view.sample(rng)
        if self.turn is not None:  # the card being played is public: the mover holds it
            hands, stock = list(world.hands), list(world.stock)
            _give(hands, stock, self.game.to_move, self.turn.card, rng)
            world = view.determinize(hands, stock)
        for c in _deck_of_world(self, world):
            new.apply_action(c)
        _replay(new, self.history()[NUM_CARDS:])
        return new


def _replay(state: ScopaState, actions: list[int]) -> None:
    """Replay a hand's player actions on a resampled deal. Another seat's pass is hidden
    (a pass would tell its hand could declare), so a resampled hand may differ there: a
    pass is skipped where that seat has no choice, and made where it has one the history
    did not (a declared hand is public, so its declarations always replay)."""
    for action in actions:
        game = state.game
        assert game is not None
        if action == PASS_ACTION and not game.deciding:
            continue
        if game.deciding and action not in (DECLARE_ACTION, PASS_ACTION):
            state.apply_action(PASS_ACTION)
        state.apply_action(action)


@cache
def _void_until(rules: Rules) -> int:
    """How many cards are dealt before no card can make the opening table void (0: the
    rules void no deal)."""
    if not meaning_of(rules).void_limits():
        return 0
    return rules.players * rules.rounds[0] + rules.table_cards


def _may_void(rules: Rules, dealt: int) -> bool:
    """Whether the next card dealt may still make the opening table void."""
    return dealt < _void_until(rules)


def _not_void(rules: Rules, prefix: list[int]) -> float:
    """The probability that a deck starting with ``prefix`` is not a void deal: the table
    slots still to deal hold fewer than the limit of each voiding rank (kings, aces)."""
    limits = meaning_of(rules).void_limits()
    if not limits:
        return 1.0
    start = rules.players * rules.rounds[0]
    end = start + rules.table_cards
    return _not_void_counts(tuple(limits), start, end, len(prefix), *_void_counts(rules, prefix))


def _void_counts(
    rules: Rules,
    cards: list[int],
    at: int = 0,
    before: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Of each voiding rank, how many cards of a deck prefix are on the table slots, and
    how many it holds at all: ``cards`` dealt from position ``at`` on, added to the counts
    ``before`` them (none: an empty prefix)."""
    limits = meaning_of(rules).void_limits()
    start = rules.players * rules.rounds[0]
    end = start + rules.table_cards
    on_table = list(before[0]) if before else [0] * len(limits)
    dealt = list(before[1]) if before else [0] * len(limits)
    for i, c in enumerate(cards, at):
        for j, (rank, _) in enumerate(limits):
            if RANK[c] == rank:
                dealt[j] += 1
                on_table[j] += start <= i < end
    return tuple(on_table), tuple(dealt)


@cache
def _card_weights(
    rules: Rules, length: int, on_table: tuple[int, ...], dealt: tuple[int, ...]
) -> tuple[float, ...]:
    """``_next_card_weights`` card by card: a voiding rank's weight for its cards, the
    others' weight for every other card (0 for a card that cannot come next); this cache
    is the one that keeps them."""
    weight = _next_card_weights(rules, length, on_table, dealt)
    voiding = {rank for rank, _ in meaning_of(rules).void_limits()}
    return tuple(
        weight.get(RANK[c] if RANK[c] in voiding else 0, 0.0) for c in range(NUM_CARDS)
    )


def _next_card_weights(
    rules: Rules, length: int, on_table: tuple[int, ...], dealt: tuple[int, ...]
) -> dict[int, float]:
    """After ``length`` cards with these counts (``_void_counts``), the chance that the
    deal is not void once the next card is dealt, over the chance now: per voiding rank
    for a card of that rank, and under 0 for any other card."""
    limits = tuple(meaning_of(rules).void_limits())
    start = rules.players * rules.rounds[0]
    end = start + rules.table_cards
    base = _not_void_counts(limits, start, end, length, on_table, dealt)
    weights = {}  # only for cards still to deal: no key is looked up for another
    if NUM_CARDS - length > sum(4 - n for n in dealt):
        weights[0] = _not_void_counts(limits, start, end, length + 1, on_table, dealt) / base
    slot = 1 if start <= length < end else 0
    for i, (rank, _) in enumerate(limits):
        if dealt[i] == 4:
            continue
        table = tuple(n + slot if j == i else n for j, n in enumerate(on_table))
        gone = tuple(n + 1 if j == i else n for j, n in enumerate(dealt))
        weights[rank] = _not_void_counts(limits, start, end, length + 1, table, gone) / base
    return weights


@cache
def _not_void_counts(
    limits: tuple[tuple[int, int], ...], start: int, end: int, length: int,
    on_table: tuple[int, ...], dealt: tuple[int, ...],
) -> float:
    """``_not_void`` from what it depends on: how many cards are dealt, and of each
    voiding rank how many are on the table slots and dealt at all (a few hundred cases)."""
    remaining = NUM_CARDS - length
    slots = max(0, end - max(start, length))
    rooms, lefts = [], []
    for (_, limit), table, gone in zip(limits, on_table, dealt, strict=True):
        room = limit - 1 - table
        if room < 0:
            return 0.0
        rooms.append(min(room, slots))
        lefts.append(4 - gone)
    others = remaining - sum(lefts)
    ok = 0
    for counts in itertools.product(*(range(room + 1) for room in rooms)):
        term = comb(others, slots - sum(counts)) if sum(counts) <= slots else 0
        for k, left in zip(counts, lefts, strict=True):
            term *= comb(left, k)
        ok += term
    return ok / comb(remaining, slots)


def _give(hands: list[int], stock: list[int], seat: int, c: int, rng: random.Random) -> None:
    """Put card ``c`` in ``seat``'s hand, swapping it with a random card of that hand (the
    result is uniform among the worlds where the seat holds ``c``)."""
    hand = hands[seat]
    if hand >> c & 1:
        return
    out = rng.choice(cards_of(hand))
    hands[seat] = hand ^ (1 << out) ^ (1 << c)
    for s, other in enumerate(hands):
        if s != seat and other >> c & 1:
            hands[s] = other ^ (1 << c) ^ (1 << out)
            return
    stock[stock.index(c)] = out


def _resampled_prefix(state: ScopaState, player: int, rng: random.Random) -> list[int]:
    """While dealing: the same deal so far where ``player`` can see it (its own cards and
    the table), the other seats' cards and the stock shuffled among themselves."""
    n = state.rules.players
    first_round = n * state.rules.rounds[0]
    stock = first_round + state.rules.table_cards
    hidden = [
        i for i in range(len(state.deck))
        if (i < first_round and i % n != player) or i >= stock
    ]
    cards = [state.deck[i] for i in hidden]
    rng.shuffle(cards)
    prefix = list(state.deck)
    for i, c in zip(hidden, cards, strict=True):
        prefix[i] = c
    return prefix


def _deck_of_world(state: ScopaState, world: Hand) -> list[int]:
    """A deck in deal order that deals ``world``: each seat's cards of each round are the
    ones it played in that round (plus its hand, in the current round), the opening table
    is the public one, and the rest is the world's stock."""
    rules = state.rules
    n = rules.players
    plays = [(seat, code & 63) for seat, code, _ in world.history if is_card_play(code)]
    packets: list[list[list[int]]] = []
    at = 0
    for r, size in enumerate(rules.rounds):
        packet: list[list[int]] = [[] for _ in range(n)]
        for seat, c in plays[at : at + n * size]:
            packet[seat].append(c)
        at += n * size
        if r == world.round:
            for seat in range(n):
                packet[seat].extend(cards_of(world.hands[seat]))
        packets.append(packet)
        if r == world.round:
            break
    first_round = n * rules.rounds[0]
    deck: list[int] = []
    for r, packet in enumerate(packets):
        for i in range(rules.rounds[r]):
            for seat in range(n):  # seat 0 plays first: the dealer is the last seat
                deck.append(packet[seat][i])
        if r == 0:
            deck.extend(state.deck[first_round : first_round + rules.table_cards])
    deck.extend(reversed(world.stock))
    return deck


class ScopaObserver:
    """OpenSpiel's observer interface: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    ``perfect_recall`` gives the information state (every play of the hand), otherwise
    the observation (the seat's view summed up)."""

    def __init__(self, layout: Layout, iig_obs_type: Any) -> None:
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            iig_obs_type.public_info
        ):
            raise ValueError("only the seat's own observation (public and private) is offered")
        self.layout = layout
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = layout.info_size if self.perfect_recall else layout.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        #: the vectors of the last state seen, kept play by play (another state: rebuilt)
        self._tracked = InfoTracker(layout)

    def set_from(self, state: ScopaState, player: int) -> None:
        game = state.game
        if game is None:  # still dealing
            self.tensor.fill(0.0)
            hand, table = state.dealt_to(player)
            for name, mask in (("hand", hand), ("table", table)):
                a = self.layout.sections[name][0]
                for c in cards_of(mask):
                    self.tensor[a + c] = 1.0
            return
        if self.perfect_recall:
            self._tracked.write(self.tensor, game, state.turn, player)
        else:
            self._tracked.tracker.write(self.tensor, game, state.turn, player)

    def string_from(self, state: ScopaState, player: int) -> str:
        view = state.view(player)
        if view is None:
            hand, table = state.dealt_to(player)
            return (
                f"p{player} dealing {len(state.deck)}; hand {' '.join(cards_text(hand))}; "
                f"table {' '.join(cards_text(table))}"
            )
        data = view.to_dict()
        if not self.perfect_recall:
            data.pop("history")
            data["played"] = _played(view)
        turn = state.turn
        if turn is not None:
            data["turn"] = {"card": card_text(turn.card), "taken": cards_text(turn.taken)}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _played(view: PlayerView) -> list[list[str]]:
    """Per seat, the cards it played this hand (the observation keeps no order)."""
    played = [0] * view.rules.players
    for seat, code, _ in view.history:
        if is_card_play(code):
            played[seat] |= 1 << (code & 63)
    return [cards_text(m) for m in played]


pyspiel.register_game(_GAME_TYPE, ScopaGame)
