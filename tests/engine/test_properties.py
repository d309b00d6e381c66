"""Property tests over every preset and player count: random hands checked move by move
against an independent reading of docs/rules.md (see helpers.oracle_moves / oracle_score)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa import VARIANTS, IllegalMoveError, Rules, card
from scopa.hand import Hand
from scopa.match import Match
from scopa.notation import dump_position, load_position
from scopa.playout import random_playout
from scopa.rules import VARIANT_SEATINGS
from scopa.scoring import hand_totals
from scopa.view import PlayerView

from .helpers import (
    ALL_CARDS,
    cards_in,
    moves_of,
    oracle_declaration,
    oracle_moves,
    oracle_score,
    position,
    rank,
)

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def player_counts(variant: str) -> list[int]:
    return sorted(VARIANT_SEATINGS[variant])


PRESETS = [(v, n) for v in VARIANTS for n in player_counts(v)]


@st.composite
def rules_st(draw: st.DrawFn) -> Rules:
    variant, players = draw(st.sampled_from(PRESETS))
    base = Rules.preset(variant, players=players)
    opts: dict = {}
    if draw(st.booleans()):
        opts["fewest_cards"] = True
    if draw(st.booleans()):
        opts["last_sweep_counts"] = True
    if base.capture == "equal" and draw(st.integers(0, 3)) == 0:
        opts["ace_takes_all"] = True
    if (base.ace_takes_all or opts.get("ace_takes_all")) and draw(st.booleans()):
        opts["ace_sweep_scopa"] = True
    if players == 6 and draw(st.booleans()):
        opts["teams"] = 3
    if players == 4 and 4 in VARIANT_SEATINGS[variant][4] and draw(st.integers(0, 4)) == 0:
        opts["teams"] = 4  # four players each for themselves
    if variant == "cirulla":
        if draw(st.integers(0, 3)) == 0:
            opts["declarations"] = "auto"
        if draw(st.integers(0, 3)) == 0:
            opts["ace_takes_all"] = False
        elif draw(st.booleans()):
            opts["ace_sweep_scopa"] = True
    if draw(st.integers(0, 3)) == 0:
        opts["primiera_faces"] = "rank"
    if draw(st.integers(0, 3)) == 0:
        opts["napola"] = True
        opts["re_bello"] = True
    return Rules.preset(variant, players=players, **opts)


def all_cards_of(p: dict) -> list[str]:
    return [
        *(c for h in p["hands"] for c in h),
        *p["table"],
        *p["stock"],
        *(c for pile in p["captured"] for c in pile),
    ]


def check_conserved(p: dict) -> None:
    cards = all_cards_of(p)
    assert len(cards) == 40 and set(cards) == set(ALL_CARDS), Counter(cards).most_common(2)


def shown_cards(p: dict) -> set[str]:
    """Cards of declared hands still held: public to everyone (Cirulla)."""
    decl = p.get("declarations")
    if not decl:
        return set()
    return {c for s, shown in enumerate(decl["shown"]) for c in shown if c in p["hands"][s]}


def check_views(g: Hand, p: dict, rng: random.Random) -> None:
    n = len(p["hands"])
    for seat in range(n):
        v = PlayerView.of(g, seat)
        d = json.loads(json.dumps(v.to_dict()))
        hidden = {c for s in range(n) if s != seat for c in p["hands"][s]} | set(p["stock"])
        hidden -= shown_cards(p)
        leaked = cards_in(d) & hidden
        assert {ALL_CARDS[c] for c in range(40) if v.unseen() >> c & 1} == hidden
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"
        assert set(d["hand"]) == set(p["hands"][seat])
        assert d["hand_sizes"] == [len(h) for h in p["hands"]]
        assert d["stock_size"] == len(p["stock"])
        assert set(d["table"]) == set(p["table"])
        assert [set(x) for x in d["captured"]] == [set(x) for x in p["captured"]]
        if seat == p["to_move"] and not g.hand_over:
            assert {(m.card, m.capture) for m in v.legal_moves()} == {
                (m.card, m.capture) for m in g.legal_moves()
            }
    seat = rng.randrange(n)
    v = PlayerView.of(g, seat)
    d = v.to_dict()
    s = v.sample(rng)
    sp = dump_position(s)
    check_conserved(sp)
    assert PlayerView.of(s, seat).to_dict() == d
    assert set(sp["hands"][seat]) == set(p["hands"][seat])
    assert [len(h) for h in sp["hands"]] == [len(h) for h in p["hands"]]
    assert len(sp["stock"]) == len(p["stock"])
    assert set(sp["table"]) == set(p["table"])
    assert sp["to_move"] == p["to_move"] and sp["dealer"] == p["dealer"]
    assert sp["scope"] == p["scope"] and sp["scores"] == p["scores"]
    assert [set(x) for x in sp["captured"]] == [set(x) for x in p["captured"]]
    # the sampled state is a playable game consistent with the rules
    if not s.hand_over and not s.deciding:
        assert moves_of(s) == oracle_moves(s.rules, sp["hands"][sp["to_move"]], sp["table"])
        random_playout(s, rng)  # a search bot's rollout from the sample
        end = dump_position(s)
        check_conserved(end)
        assert s.hand_over and end["stock"] == [] and all(h == [] for h in end["hands"])


def hidden_layouts(v, rng: random.Random, k: int) -> set:
    out = set()
    for _ in range(k):
        s = v.sample(rng)
        out.add((tuple(s.hands), tuple(s.stock)))
    return out


def check_samples_differ(g: Hand, p: dict, rng: random.Random) -> None:
    n = len(p["hands"])
    for seat in range(n):
        zones = [len(p["hands"][s]) for s in range(n) if s != seat] + [len(p["stock"])]
        if sum(1 for z in zones if z) >= 2:
            assert len(hidden_layouts(PlayerView.of(g, seat), rng, 20)) >= 2
        else:  # at most one zone holds unseen cards: only their order can vary
            layouts = hidden_layouts(PlayerView.of(g, seat), rng, 3)
            assert len({hands for hands, _ in layouts}) == 1
            assert len({frozenset(stock) for _, stock in layouts}) == 1


def check_illegal(g: Hand, p: dict, legal: set, rng: random.Random) -> None:
    """A few random non-legal moves must raise IllegalMoveError and change nothing."""
    hand = p["hands"][p["to_move"]]
    for _ in range(3):
        c = rng.choice(hand) if rng.random() < 0.7 else rng.choice(ALL_CARDS)
        cap = [t for t in p["table"] if rng.random() < 0.3]
        if rng.random() < 0.2:
            cap.append(rng.choice(ALL_CARDS))
        if (c, frozenset(cap)) in legal:
            continue
        try:
            g.play({"card": c, "capture": cap})
        except IllegalMoveError:
            pass
        else:
            raise AssertionError(f"illegal move {c}:{cap} was accepted")
        assert dump_position(g) == p


def expect_after(g: Hand, p: dict, move: dict) -> dict:
    """The state after ``move`` by docs/rules.md: table, pile, sweeps, last capturer, leftovers."""
    r = g.rules
    seat = p["to_move"]
    if "declare" in move:  # a declaration moves no card
        return {"table": set(p["table"]), "captured": [set(x) for x in p["captured"]],
                "scope": list(p["scope"]), "last_capturer": p["last_capturer"]}
    c, cap = move["card"], move["capture"]
    table = set(p["table"])
    captured = [set(x) for x in p["captured"]]
    scope = list(p["scope"])
    lc = p["last_capturer"]
    last_play = not p["stock"] and sum(len(h) for h in p["hands"]) == 1
    if cap:
        table -= set(cap)
        captured[seat] |= {c, *cap}
        lc = seat
        if not table:
            ace_sweep = r.ace_takes_all and rank(c) == 1 and not any(rank(t) == 1 for t in cap)
            if (not last_play or r.last_sweep_counts) and (not ace_sweep or r.ace_sweep_scopa):
                scope[seat] += 1
    else:
        table.add(c)
    if last_play and lc is not None:
        captured[lc] |= table
        table = set()
    return {"table": table, "captured": captured, "scope": scope, "last_capturer": lc}


def check_turn_after(p_before: dict, p_after: dict, rules: Rules) -> None:
    n = len(p_before["hands"])
    if p_after["hands"] == p_before["hands"]:  # a declaration: the same seat plays on
        assert p_after["to_move"] == p_before["to_move"]
        return
    left = sum(len(h) for h in p_before["hands"]) - 1
    first = (p_before["dealer"] + 1) % n
    if left:
        assert p_after["to_move"] == (p_before["to_move"] + 1) % n
        assert p_after["stock"] == p_before["stock"]
    elif p_before["stock"]:  # next round: dealt one at a time from the seat after the dealer
        size = len(p_before["stock"]) - len(p_after["stock"])
        assert size % n == 0 and size // n in rules.rounds
        assert p_after["to_move"] == first
        dealt = p_before["stock"][:size]
        for seat in range(n):
            k = (seat - first) % n
            assert set(p_after["hands"][seat]) == set(dealt[k::n])
        assert p_after["stock"] == p_before["stock"][size:]


class Declarations:
    """Cirulla's declarations by RULES.md, followed independently of the engine: who may
    declare now, and the points declared so far."""

    def __init__(self, g: Hand, p: dict) -> None:
        self.rules = g.rules
        decl = p.get("declarations")
        self.points = list(decl["points"]) if decl else [0] * g.rules.players
        self.open = set(decl["pending"]) if decl else set()
        self.stock = len(p["stock"])

    def before(self, p: dict) -> None:
        """A new round was dealt: every hand that scores may declare (or does, "auto")."""
        if self.rules.declarations == "off" or len(p["stock"]) == self.stock:
            return
        self.stock = len(p["stock"])
        self.open = set()
        for seat, hand in enumerate(p["hands"]):
            if oracle_declaration(hand):
                if self.rules.declarations == "auto":
                    self.points[seat] += oracle_declaration(hand)
                else:
                    self.open.add(seat)

    def expected_moves(self, p: dict) -> set | None:
        if p["to_move"] in self.open:
            return {("declare", frozenset()), ("pass", frozenset())}
        return None

    def after(self, p: dict, move: dict) -> None:
        if "declare" in move:
            seat = p["to_move"]
            self.open.discard(seat)
            if move["declare"]:
                self.points[seat] += oracle_declaration(p["hands"][seat])


def play_checked_hand(g: Hand, rng: random.Random, deep: bool) -> None:
    """Play a hand with random moves, checking every state against docs/rules.md."""
    step = 0
    differ_at = rng.randrange(0, 10)
    decl = Declarations(g, dump_position(g))
    while not g.hand_over:
        p = dump_position(g)
        check_conserved(p)
        decl.before(p)
        hand = p["hands"][p["to_move"]]
        legal = moves_of(g)
        listed = g.legal_moves()
        assert len(listed) == len(legal), "a move is listed twice"
        assert legal == (decl.expected_moves(p) or oracle_moves(g.rules, hand, p["table"]))
        q = json.loads(json.dumps(p))
        loaded = load_position(q)
        assert dump_position(loaded) == p
        assert moves_of(loaded) == legal
        if deep:
            check_illegal(g, p, legal, rng)
            check_views(g, p, rng)
            if step == differ_at:
                check_samples_differ(g, p, rng)
        chosen = rng.choice(listed)
        assert sorted(g.legal_codes()) == sorted(m.code for m in listed)
        fast = g.copy()
        fast.play_code(chosen.code)  # the bots' path: same effect, the original untouched
        assert dump_position(g) == p
        move = chosen.to_dict()
        want = expect_after(g, p, move)
        decl.after(p, move)
        g.play(move)
        after = dump_position(g)
        assert dump_position(fast) == after
        assert set(after["table"]) == want["table"]
        assert [set(x) for x in after["captured"]] == want["captured"]
        assert after["scope"] == want["scope"]
        assert after["last_capturer"] == want["last_capturer"]
        check_turn_after(p, after, g.rules)
        step += 1
    p = dump_position(g)
    check_conserved(p)
    assert all(h == [] for h in p["hands"]) and p["stock"] == []
    assert dump_position(load_position(json.loads(json.dumps(p)))) == p
    check_score(g, p, decl.points)


def check_score(g: Hand, p: dict, declared: list[int] | None = None) -> None:
    res = g.hand_result()
    assert json.loads(json.dumps(res)) == res
    if declared is None and "declarations" in p:
        declared = p["declarations"]["points"]
    want = oracle_score(g.rules, p["captured"], p["scope"], declared)
    got = [{k: side["points"].get(k, 0) for k in want[0]} for side in res["sides"]]
    assert got == want
    assert [side["total"] for side in res["sides"]] == [sum(w.values()) for w in want]
    piles = [sum(1 << card(c) for c in pile) for pile in p["captured"]]
    assert hand_totals(g.rules, piles, p["scope"], declared) == [
        side["total"] for side in res["sides"]
    ]
    for item in res["items"]:  # the sheet's own list of the items played
        assert item["points"] == [w.get(item["key"], 0) for w in want]
    for i, side in enumerate(res["sides"]):
        assert side["seats"] == [s for s in range(g.rules.players) if s % g.rules.teams == i]


@settings(SETTINGS, max_examples=150)
@given(rules=rules_st(), seed=st.integers(0, 2**32 - 1))
def test_every_state_of_a_random_hand(rules, seed):
    """Cards conserved; legal moves equal the brute force; illegal moves change nothing;
    views hide what they must; samples agree with the view; positions round-trip; each
    move has the effect docs/rules.md gives; the score sheet matches docs/rules.md."""
    m = Match(rules, seed=seed)
    check_opening(m)
    play_checked_hand(m.hand, random.Random(seed), deep=True)


def check_opening(m: Match) -> None:
    """The fresh deal by docs/rules.md from the match's deck (in deal order)."""
    r = m.rules
    p = dump_position(m.hand)
    assert m.deck is not None
    deck = [ALL_CARDS[c] for c in m.deck]
    n, first = r.players, (p["dealer"] + 1) % r.players
    size = r.rounds[0]
    for seat in range(n):
        k = (seat - first) % n
        assert set(p["hands"][seat]) == set(deck[k : n * size : n])
    table = deck[n * size : n * size + r.table_cards]
    assert p["stock"] == deck[n * size + r.table_cards :]
    if r.king_redeal is not None:
        assert sum(1 for c in table if rank(c) == 10) < r.king_redeal
    if r.ace_redeal is not None:  # checked first: such a table is never a 15/30
        assert sum(1 for c in table if rank(c) == 1) < r.ace_redeal
    total = sum(rank(c) for c in table)
    if r.table_fifteen and table and total in (15, 30):
        assert p["table"] == []
        assert set(p["captured"][p["dealer"]]) == set(table)
        assert p["scope"][p["dealer"]] == total // 15
    else:
        assert set(p["table"]) == set(table)
        assert p["scope"] == [0] * n and all(x == [] for x in p["captured"])
    if r.declarations != "off":
        scoring = {s for s in range(n) if oracle_declaration(p["hands"][s])}
        points = [oracle_declaration(p["hands"][s]) for s in range(n)]
        if r.declarations == "auto":
            assert p["declarations"]["points"] == points and p["declarations"]["pending"] == []
        else:
            assert set(p["declarations"]["pending"]) == scoring


@settings(SETTINGS, max_examples=80)
@given(rules=rules_st(), seed=st.integers(0, 2**32 - 1))
def test_hands_from_positions_of_other_players(rules, seed):
    """The same checks (lighter) on a hand started from a fresh-deal position with a dealer
    other than the default."""
    rng = random.Random(seed)
    g = Match(rules, seed=seed, dealer=rng.randrange(rules.players)).hand
    play_checked_hand(load_position(dump_position(g)), rng, deep=False)


@settings(SETTINGS, max_examples=60)
@given(rules=rules_st(), seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game(rules, seed):
    games = [Match(rules, seed=f"s{seed}") for _ in range(2)]
    rngs = [random.Random(seed), random.Random(seed)]
    assert dump_position(games[0].hand) == dump_position(games[1].hand)
    assert games[0].hand_seed == games[1].hand_seed
    for _ in range(2):
        while not games[0].hand.hand_over:
            for g, rng in zip(games, rngs, strict=True):
                g.hand.play(rng.choice(g.hand.legal_moves()))
            assert dump_position(games[0].hand) == dump_position(games[1].hand)
        assert games[0].hand.hand_result() == games[1].hand.hand_result()
        if games[0].match_over:
            break
        for g in games:
            g.next_hand()
        assert dump_position(games[0].hand) == dump_position(games[1].hand)
    other = Match(rules, seed=f"t{seed}").hand
    assert dump_position(other) != dump_position(Match(rules, seed=f"s{seed}").hand)


@settings(SETTINGS, max_examples=300)
@given(
    rules=rules_st(), seed=st.integers(0, 2**32 - 1), plays=st.integers(0, 40),
)
def test_playout_function_and_method_agree(rules, seed, plays):
    rng = random.Random(seed)
    g = Match(rules, seed=seed).hand
    for _ in range(plays):
        if g.hand_over:
            break
        g.play(rng.choice(g.legal_moves()))
    before = dump_position(g)
    a, b = g.copy(), g.copy()
    ra, rb = random.Random(seed + 1), random.Random(seed + 1)
    random_playout(a, ra)
    random_playout(b, rb)
    assert ra.random() == rb.random()  # the same randomness consumed
    assert dump_position(g) == before  # the copies are independent
    for x in (a, b):
        assert x.hand_over
    assert a.hands == b.hands and a.table == b.table and a.captured == b.captured
    assert a.scope == b.scope and a.last_capturer == b.last_capturer
    assert a.hand_result() == b.hand_result()
    pa = dump_position(a)
    check_conserved(pa)
    assert all(h == [] for h in pa["hands"]) and pa["stock"] == []
    check_score(a, pa)
    # sweeps only grow, piles only grow
    for s in range(rules.players):
        assert set(before["captured"][s]) <= set(pa["captured"][s])
        assert pa["scope"][s] >= before["scope"][s]


@settings(SETTINGS, max_examples=40)
@given(rules=rules_st(), seed=st.integers(0, 2**32 - 1))
def test_whole_match(rules, seed):
    """Matches to the end: the deal rotates, points are banked, the winner follows docs/rules.md."""
    rng = random.Random(seed)
    g = Match(rules, seed=seed)
    banked = [0] * rules.teams
    for hand in range(1, 60):
        assert g.hand_number == hand
        assert g.hand.dealer == (rules.players - 1 + hand - 1) % rules.players
        assert g.scores == banked
        while not g.hand.hand_over:
            g.hand.play(rng.choice(g.hand.legal_moves()))
        res = g.hand.hand_result()
        totals = [b + side["total"] for b, side in zip(banked, res["sides"], strict=True)]
        top = max(totals)
        outright = res.get("outright")
        if outright is not None:
            assert g.winner == outright
        elif top >= rules.target and totals.count(top) == 1:
            assert g.winner == totals.index(top)
        else:
            assert g.winner is None
        if g.match_over:
            break
        g.next_hand()
        banked = totals
        assert len(g.results) == hand
    assert g.match_over


def test_sample_is_uniform_small_case():
    # three players, last round: seat 0 to move knows every card but two, one in each other
    # hand; both layouts must come up about equally often
    p = position([["5d"], ["6c"], ["7s"]], ["2b"], last_capturer=0, rest_seat=0)
    g = load_position(p)
    v = PlayerView.of(g, 0)
    rng = random.Random(1)
    counts = Counter()
    for _ in range(2000):
        s = dump_position(v.sample(rng))
        counts[s["hands"][1][0]] += 1
    assert set(counts) == {"6c", "7s"}
    assert 850 < counts["6c"] < 1150


def test_sample_uniform_over_stock_and_hands():
    # two players, seat 0 to move in the fifth round: 3 cards in seat 1's hand and 6 in the
    # stock are unseen; each unseen card lands in seat 1's hand with probability 3/9
    p = position(
        [["5d", "6d", "7d"], ["1c", "2c", "3c"]], ["1b"], stock=["4c", "5c", "6c"],
        stock_size=6, last_capturer=1,
    )
    g = load_position(p)
    unseen = set(p["hands"][1]) | set(p["stock"])
    rng = random.Random(2)
    counts = Counter()
    trials = 3000
    for _ in range(trials):
        s = dump_position(PlayerView.of(g, 0).sample(rng))
        assert set(s["hands"][1]) | set(s["stock"]) == unseen
        counts.update(s["hands"][1])
    for c in unseen:
        assert abs(counts[c] / trials - 1 / 3) < 0.05, (c, counts[c])


@settings(SETTINGS, max_examples=400)
@given(
    rules=rules_st(),
    deck=st.permutations(ALL_CARDS),
    hand_size=st.integers(1, 3),
    table_size=st.integers(0, 18),
)
def test_captures_on_crowded_tables(rules, deck, hand_size, table_size):
    """Hand-built positions with up to 18 table cards (several of a rank, many sums): the
    legal moves are exactly the brute force, and each one plays as docs/rules.md says."""
    n = rules.players
    hands = [deck[i * hand_size : (i + 1) * hand_size] for i in range(n)]
    used = n * hand_size
    table = deck[used : used + table_size]
    p = position(
        hands, table, rest_seat=0, **{k: v for k, v in rules.to_dict().items() if k != "players"}
    )
    g = load_position(p)
    legal = moves_of(g)
    assert legal == oracle_moves(g.rules, hands[0], table)
    assert len(g.legal_moves()) == len(legal)
    for m in g.legal_moves():
        h = g.copy()
        h.play(m)
        d = m.to_dict()
        want = expect_after(g, p, d)
        after = dump_position(h)
        assert set(after["table"]) == want["table"]
        assert after["scope"] == want["scope"]
