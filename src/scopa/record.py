"""Game records (our PGN): rules, every hand's seed and deck, every move, every result.

A record replays exactly: ``replay`` rebuilds the match through the engine and checks each
recorded result and the final score against what the moves produce, so a corrupt or edited
record is refused with the place where it goes wrong. Two forms, JSON and a line-based text
form, hold the same data (see docs/formats.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from .cards import CARD_BY_TEXT, NUM_CARDS, card_text
from .match import Match
from .meaning import meaning_of
from .moves import Move
from .replay import Deal, ReplayError, replay_log
from .rules import Rules
from .shuffle import commitment, deck_from_seed

FORMAT = "scopa-record"
VERSION = 1


class RecordError(ValueError):
    """A record that is malformed or does not replay."""


# -- building ---------------------------------------------------------------------------
def game_record(
    game: Match, players: list[str] | None = None, commitments: bool = True
) -> dict[str, Any]:
    """The JSON record of a match so far. The hand in progress, if any, is included with
    its deck and seed: a record of an unfinished match is for its host, not for players."""
    hands = []
    for number, entry in enumerate(game.hand_log(), start=1):
        hand: dict[str, Any] = {
            "number": number,
            "dealer": entry["dealer"],
            "seed": entry["seed"],
            "redeals": entry["redeals"],
        }
        if commitments and entry["seed"] is not None:
            hand["commitment"] = commitment(entry["seed"])
        hand["deck"] = entry["deck"]
        hand["moves"] = entry["moves"]
        hand["result"] = entry["result"]
        hands.append(hand)
    over = game.hand.hand_over
    scores = game.match_totals() if over else list(game.scores)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "players": list(players) if players is not None else None,
        "seed": game.seed,
        "hands": hands,
        "scores": scores,
        "winner": game.winner,
    }


# -- replaying --------------------------------------------------------------------------
def _need(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(message)


def _deck_of(hand: dict[str, Any], where: str) -> list[int]:
    deck_text = hand.get("deck")
    seed = hand.get("seed")
    redeals = hand.get("redeals", 0)
    _need(isinstance(redeals, int) and not isinstance(redeals, bool) and redeals >= 0,
          f"{where}: redeals must be a count")
    if deck_text is None:
        if not isinstance(seed, str):
            raise RecordError(f"{where}: needs a deck or a seed")
        return deck_from_seed(seed, redeals)
    _need(isinstance(deck_text, list) and len(deck_text) == NUM_CARDS,
          f"{where}: deck must list the 40 cards")
    deck = []
    for t in deck_text:
        c = CARD_BY_TEXT.get(t) if isinstance(t, str) else None
        _need(c is not None, f"{where}: {t!r} is not a card")
        assert c is not None
        deck.append(c)
    _need(len(set(deck)) == NUM_CARDS, f"{where}: deck holds a card twice")
    if isinstance(seed, str):
        _need(deck == deck_from_seed(seed, redeals), f"{where}: deck does not come from its seed")
    return deck


def replay(record: dict[str, Any]) -> Match:
    """Rebuild the match a record describes, checking every move and every result."""
    return replay_steps(record, on_move=None)


def replay_steps(record: Any, on_move: Any = None) -> Match:
    """Replay, calling ``on_move(game, hand_number, move, seat)`` after every move and
    ``on_move(game, hand_number, None, None)`` after each deal (through the one replay of
    an event log, ``scopa.replay``)."""
    _need(isinstance(record, dict), "a record must be a JSON object")
    _need(record.get("format") == FORMAT, f"not a {FORMAT} (format field)")
    _need(record.get("version") == VERSION, f"unsupported record version {record.get('version')!r}")
    try:
        rules = Rules.from_dict(record.get("rules"))
    except ValueError as e:
        raise RecordError(f"rules: {e}") from None
    hands = record.get("hands")
    _need(isinstance(hands, list) and len(hands) >= 1, "a record needs at least one hand")
    match_seed = record.get("seed")
    _need(match_seed is None or isinstance(match_seed, str), "seed must be text or null")
    game: Match | None = None
    try:
        for step in replay_log(rules, _events(rules, hands), match_seed):
            game = step.game
            if on_move:
                on_move(game, step.hand, step.move, step.seat)
            if step.move is not None and game.hand.hand_over:
                result = hands[step.hand - 1].get("result")
                if result is not None:
                    check_result(game.hand.hand_result(), result, f"hand {step.hand}")
    except ReplayError as e:
        raise RecordError(str(e)) from None
    assert game is not None
    if not game.hand.hand_over:
        _need(hands[-1].get("result") is None,
              f"hand {len(hands)}: a result is recorded for an unfinished hand")
    _check_final(game, record)
    return game


def _events(rules: Rules, hands: list[Any]) -> Iterator[Deal | Any]:
    """A record's hands as an event log, each hand's fields checked when it is reached."""
    for i, hand in enumerate(hands, start=1):
        where = f"hand {i}"
        _need(isinstance(hand, dict), f"{where}: must be an object")
        dealer = hand.get("dealer")
        _need(isinstance(dealer, int) and not isinstance(dealer, bool)
              and 0 <= dealer < rules.players, f"{where}: bad dealer")
        deck = _deck_of(hand, where)
        seed = hand.get("seed")
        moves = hand.get("moves")
        _need(isinstance(moves, list), f"{where}: moves must be a list")
        yield Deal(seed=seed if isinstance(seed, str) else None, deck=deck, dealer=dealer,
                   redeals=hand.get("redeals", 0))
        yield from moves


def check_result(actual: dict[str, Any], recorded: Any, where: str) -> None:
    """Every item a recorded score sheet states must be what the moves give. A side's
    ``points`` may leave out items: those scored 0 (the text form lists only items that
    scored). Anything the sheet does not know is refused."""
    _need(isinstance(recorded, dict) and isinstance(recorded.get("sides"), list),
          f"{where}: result must hold sides")
    unknown = set(recorded) - set(actual)
    _need(not unknown, f"{where}: unknown result field(s) {', '.join(map(str, unknown))}")
    sides = recorded["sides"]
    _need(len(sides) == len(actual["sides"]) and all(isinstance(s, dict) for s in sides),
          f"{where}: result must hold one object per side ({len(actual['sides'])})")
    got = [s["total"] for s in actual["sides"]]
    want = [s.get("total") for s in sides]
    _need(_same(got, want), f"{where}: recorded totals {want} but the moves give {got}")
    items = list(actual["sides"][0]["points"])
    for side in sides:
        points = side.get("points", {})
        _need(isinstance(points, dict), f"{where}: points must be an object")
        extra = set(points) - set(items)
        _need(not extra, f"{where}: unknown score item(s) {', '.join(map(str, extra))}")
    for item in items:
        got_pts = [s["points"][item] for s in actual["sides"]]
        want_pts = [s["points"].get(item, 0) if "points" in s else g
                    for s, g in zip(sides, got_pts, strict=True)]
        _need(_same(got_pts, want_pts),
              f"{where}, {item}: recorded {_dash(want_pts)} points but the moves give "
              f"{_dash(got_pts)}")
    for j, (a, r) in enumerate(zip(actual["sides"], sides, strict=True)):
        for key, value in r.items():
            _need(key in a, f"{where}, side {j}: unknown score-sheet item {key!r}")
            if key not in ("points", "total"):
                _need(_same(value, a[key]), f"{where}, side {j}, {key}: recorded "
                      f"{json.dumps(value)} but the moves give {json.dumps(a[key])}")
    if "outright" in recorded:
        _need(_same(recorded["outright"], actual["outright"]),
              f"{where}, outright: recorded {recorded['outright']} but the moves give "
              f"{actual['outright']}")


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: ``true`` is not ``1`` and ``22.0`` is not ``22``."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _dash(values: list[Any]) -> str:
    return "-".join(str(v) for v in values)


def _check_final(game: Match, record: dict[str, Any]) -> None:
    scores = game.match_totals() if game.hand.hand_over else game.scores
    if record.get("scores") is not None:
        _need(_same(record["scores"], scores),
              f"recorded final scores {record['scores']} but the moves give {scores}")
    if "winner" in record:
        _need(_same(record["winner"], game.winner),
              f"recorded winner {record['winner']} but the moves give {game.winner}")


# -- checking seeds ---------------------------------------------------------------------
def verify_record(record: dict[str, Any]) -> list[str]:
    """Problems with the record's fairness evidence: every hand with a revealed seed must
    have its deck come from that seed (after its void redeals) and match its commitment.
    An empty list means every revealed deal checks out."""
    problems: list[str] = []
    rules = Rules.from_dict(record["rules"])
    for i, hand in enumerate(record.get("hands", []), start=1):
        seed = hand.get("seed")
        if not isinstance(seed, str):
            problems.append(f"hand {i}: no seed revealed")
            continue
        committed = hand.get("commitment")
        if committed is not None and committed != commitment(seed):
            problems.append(f"hand {i}: the seed does not match its commitment")
        redeals = hand.get("redeals", 0)
        deck = deck_from_seed(seed, redeals)
        if hand.get("deck") is not None and [card_text(c) for c in deck] != hand["deck"]:
            problems.append(f"hand {i}: the deck does not come from the seed")
        void_deal = meaning_of(rules).void_deal
        for attempt in range(redeals):
            if not void_deal(deck_from_seed(seed, attempt)):
                problems.append(f"hand {i}: redeal {attempt} was not a void deal")
        if void_deal(deck):
            problems.append(f"hand {i}: the dealt deck is a void deal")
    return problems


# -- text form --------------------------------------------------------------------------
def record_to_text(record: dict[str, Any]) -> str:
    """The line-based text form: one keyword per line, JSON where text could be ambiguous.
    ``record_to_text(parse_text(t)) == t`` for every text this function writes."""
    lines = [f"{FORMAT} {VERSION}", "rules " + json.dumps(record["rules"], separators=(",", ":"))]
    if record.get("players") is not None:
        lines.append("players " + json.dumps(record["players"], ensure_ascii=False))
    if record.get("seed") is not None:
        lines.append("seed " + json.dumps(record["seed"], ensure_ascii=False))
    for hand in record["hands"]:
        head = f"hand {hand['number']} dealer {hand['dealer']} redeals {hand.get('redeals', 0)}"
        if hand.get("seed") is not None:
            head += f" seed {_word(hand['seed'])}"
        if hand.get("commitment") is not None:
            head += f" commitment {_word(hand['commitment'])}"
        lines += ["", head]
        if hand.get("deck") is not None:
            lines.append("deck " + " ".join(hand["deck"]))
        moves = [str(Move.from_dict(m)) if isinstance(m, dict) else m for m in hand["moves"]]
        for k in range(0, len(moves), 12):
            lines.append("moves " + " ".join(moves[k : k + 12]))
        if hand.get("result") is not None:
            lines.append(_result_line(hand["result"]["sides"]))
    if record.get("scores") is not None:
        lines += ["", "final " + _dash(record["scores"])
                  + ("" if record.get("winner") is None else f" winner {record['winner']}")]
    return "\n".join(lines) + "\n"


def _result_line(sides: list[dict[str, Any]]) -> str:
    """``result 4-1 cards 1-0 coins 1-0 ...``: totals, then each item that scored."""
    names: list[str] = []
    for side in sides:
        names += [k for k in side.get("points", {}) if k not in names]
    items = " ".join(
        f"{item} " + _dash([s.get("points", {}).get(item, 0) for s in sides])
        for item in names
        if any(s.get("points", {}).get(item, 0) for s in sides)
    )
    return f"result {_dash([s['total'] for s in sides])} {items}".rstrip()


_BARE_WORD = re.compile(r'[^\s"]+')


def _word(text: str) -> str:
    """A value on a ``hand`` line: bare when it is one plain word, else a JSON string."""
    return text if _BARE_WORD.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def _words(text: str) -> list[str]:
    """Split a ``hand`` line into words, reading JSON strings whole."""
    out: list[str] = []
    i = 0
    decoder = json.JSONDecoder()
    while i < len(text):
        if text[i].isspace():
            i += 1
        elif text[i] == '"':
            value, i = decoder.raw_decode(text, i)
            out.append(value)
        else:
            m = _BARE_WORD.match(text, i)
            assert m is not None
            out.append(m.group())
            i = m.end()
    return out


def _numbers(text: str) -> list[int]:
    """``4-1`` -> [4, 1]."""
    return [int(t) for t in text.split("-")]


def parse_text(text: str) -> dict[str, Any]:
    """Parse the text form into the JSON form. A ``result`` line gives each side's total
    and the points of every item it lists (items it leaves out scored 0); a line of totals
    alone states nothing about the items."""
    # lines end at "\n" only: names and seeds may hold other line separators (U+2028...)
    lines = [ln.strip() for ln in text.split("\n")]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    _need(bool(lines) and lines[0].split() == [FORMAT, str(VERSION)],
          f"the first line must be '{FORMAT} {VERSION}'")
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "players": None, "seed": None,
                              "hands": [], "scores": None}
    hand: dict[str, Any] | None = None
    for n, line in enumerate(lines[1:], start=2):
        key, _, rest = line.partition(" ")
        try:
            if key == "rules":
                record["rules"] = json.loads(rest)
            elif key == "players":
                record["players"] = json.loads(rest)
            elif key == "seed":
                record["seed"] = json.loads(rest)
            elif key == "hand":
                words = _words(rest)
                fields = dict(zip(words[1::2], words[2::2], strict=False))
                _need(len(words) % 2 == 1 and set(fields) <= {"dealer", "redeals", "seed",
                                                            "commitment"},
                      f"line {n}: a hand line is 'hand N dealer D redeals R [seed S] "
                      "[commitment C]'")
                hand = {"number": int(words[0]), "dealer": int(fields["dealer"]),
                        "seed": fields.get("seed"), "redeals": int(fields.get("redeals", "0"))}
                if "commitment" in fields:
                    hand["commitment"] = fields["commitment"]
                hand.update({"deck": None, "moves": [], "result": None})
                record["hands"].append(hand)
            elif key in ("deck", "moves", "result"):
                _need(hand is not None, f"line {n}: '{key}' before any 'hand' line")
                assert hand is not None
                if key == "deck":
                    hand["deck"] = rest.split()
                elif key == "moves":
                    hand["moves"].extend(rest.split())
                else:
                    hand["result"] = _parse_result(rest, n)
            elif key == "final":
                words = rest.split()
                _need(len(words) in (1, 3) and (len(words) == 1 or words[1] == "winner"),
                      f"line {n}: a final line is 'final A-B [winner W]'")
                record["scores"] = _numbers(words[0])
                record["winner"] = int(words[2]) if len(words) == 3 else None
            else:
                raise RecordError(f"line {n}: unknown keyword {key!r}")
        except (ValueError, KeyError, IndexError) as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"line {n}: cannot read {line[:60]!r} ({e})") from None
    _need("rules" in record, "the record has no rules line")
    return record


def _parse_result(rest: str, n: int) -> dict[str, Any]:
    words = rest.split()
    totals = _numbers(words[0])
    _need(len(words) % 2 == 1, f"line {n}: a result line is 'result A-B item A-B ...'")
    if len(words) == 1:  # totals only (a record that kept no sheet): nothing more to check
        return {"sides": [{"total": t} for t in totals]}
    sides: list[dict[str, Any]] = [{"total": t, "points": {}} for t in totals]
    for item, values in zip(words[1::2], words[2::2], strict=True):
        points = _numbers(values)
        _need(len(points) == len(sides), f"line {n}: {item} needs one number per side")
        _need(item not in sides[0]["points"], f"line {n}: {item} is listed twice")
        for side, p in zip(sides, points, strict=True):
            side["points"][item] = p
    return {"sides": sides}


def load_record(data: str | dict[str, Any]) -> dict[str, Any]:
    """Parse a record in either form and check that it replays; return the JSON form."""
    if isinstance(data, str):
        stripped = data.lstrip()
        if stripped.startswith("{"):
            try:
                data = json.loads(stripped)
            except json.JSONDecodeError as e:
                raise RecordError(f"not valid JSON: {e}") from None
        else:
            data = parse_text(data)
    assert isinstance(data, dict)
    replay(data)
    return data
