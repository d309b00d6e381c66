"""Game records (our PGN): rules, every hand's seed and deck, every move, every result.

A record replays exactly: ``replay`` rebuilds the match through the engine and checks each
recorded result and the final score against what the moves produce, so a corrupt or edited
record is refused with the place where it goes wrong. Two forms, JSON and a line-based text
form, hold the same data (see docs/formats.md).
"""

from __future__ import annotations

import json
from typing import Any

from .cards import CARD_BY_TEXT, NUM_CARDS, card_text
from .game import Game, IllegalMoveError, Move, PositionError
from .meaning import meaning_of
from .rules import Rules
from .shuffle import commitment, deck_from_seed

FORMAT = "scopa-record"
VERSION = 1


class RecordError(ValueError):
    """A record that is malformed or does not replay."""


# -- building ---------------------------------------------------------------------------
def game_record(
    game: Game, players: list[str] | None = None, commitments: bool = True
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
    over = game.hand_over
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


def replay(record: dict[str, Any]) -> Game:
    """Rebuild the match a record describes, checking every move and every result."""
    return replay_steps(record, on_move=None)


def replay_steps(record: Any, on_move: Any = None) -> Game:
    """Replay, calling ``on_move(game, hand_number, move, seat)`` after every move and
    ``on_move(game, hand_number, None, None)`` after each deal."""
    _need(isinstance(record, dict), "a record must be a JSON object")
    _need(record.get("format") == FORMAT, f"not a {FORMAT} (format field)")
    _need(record.get("version") == VERSION, f"unsupported record version {record.get('version')!r}")
    try:
        rules = Rules.from_dict(record.get("rules"))
    except ValueError as e:
        raise RecordError(f"rules: {e}") from None
    hands = record.get("hands")
    _need(isinstance(hands, list) and len(hands) >= 1, "a record needs at least one hand")
    game: Game | None = None
    for i, hand in enumerate(hands, start=1):
        where = f"hand {i}"
        _need(isinstance(hand, dict), f"{where}: must be an object")
        dealer = hand.get("dealer")
        _need(isinstance(dealer, int) and not isinstance(dealer, bool)
              and 0 <= dealer < rules.players, f"{where}: bad dealer")
        deck = _deck_of(hand, where)
        seed = hand.get("seed")
        try:
            if game is None:
                game = Game(rules, dealer=dealer, deck=deck)
                game.seed = record.get("seed")
            else:
                _need(game.hand_over, f"{where}: the previous hand did not finish")
                _need(not game.match_over, f"{where}: the match was already over")
                _need(dealer == (game.dealer + 1) % rules.players,
                      f"{where}: dealer should be seat {(game.dealer + 1) % rules.players}")
                game.next_hand(deck=deck)
        except PositionError as e:
            raise RecordError(f"{where}: {e}") from None
        game.hand_seed = seed if isinstance(seed, str) else None
        game.hand_attempt = hand.get("redeals", 0)
        if on_move:
            on_move(game, i, None, None)
        moves = hand.get("moves")
        _need(isinstance(moves, list), f"{where}: moves must be a list")
        for k, m in enumerate(moves, start=1):
            _need(not game.hand_over, f"{where}: move {k} comes after the hand ended")
            seat = game.to_move
            try:
                move = Move.parse(m) if isinstance(m, str) else Move.from_dict(m)
                game.play(move)
            except IllegalMoveError as e:
                raise RecordError(f"{where}, move {k}: {e}") from None
            if on_move:
                on_move(game, i, move, seat)
        result = hand.get("result")
        if game.hand_over:
            if result is not None:
                _check_result(game.hand_result(), result, where)
        else:
            _need(i == len(hands), f"{where}: the hand is unfinished but more hands follow")
            _need(result is None, f"{where}: a result is recorded for an unfinished hand")
    assert game is not None
    _check_final(game, record)
    return game


def _check_result(actual: dict[str, Any], recorded: Any, where: str) -> None:
    _need(isinstance(recorded, dict) and isinstance(recorded.get("sides"), list),
          f"{where}: result must hold sides")
    got = [s["total"] for s in actual["sides"]]
    want = [s.get("total") if isinstance(s, dict) else None for s in recorded["sides"]]
    _need(got == want, f"{where}: recorded totals {want} but the moves give {got}")
    for a, r in zip(actual["sides"], recorded["sides"], strict=True):
        if "points" in r:
            _need(r["points"] == a["points"],
                  f"{where}: recorded points {r['points']} but the moves give {a['points']}")


def _check_final(game: Game, record: dict[str, Any]) -> None:
    scores = game.match_totals() if game.hand_over else game.scores
    if record.get("scores") is not None:
        _need(record["scores"] == scores,
              f"recorded final scores {record['scores']} but the moves give {scores}")
    if "winner" in record:
        _need(record["winner"] == game.winner,
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
    """The line-based text form: one keyword per line, JSON where text could be ambiguous."""
    lines = [f"{FORMAT} {VERSION}", "rules " + json.dumps(record["rules"], separators=(",", ":"))]
    if record.get("players") is not None:
        lines.append("players " + json.dumps(record["players"], ensure_ascii=False))
    if record.get("seed") is not None:
        lines.append("seed " + json.dumps(record["seed"]))
    for hand in record["hands"]:
        head = f"hand {hand['number']} dealer {hand['dealer']} redeals {hand.get('redeals', 0)}"
        if hand.get("seed") is not None:
            head += f" seed {hand['seed']}"
        if hand.get("commitment") is not None:
            head += f" commitment {hand['commitment']}"
        lines += ["", head]
        if hand.get("deck") is not None:
            lines.append("deck " + " ".join(hand["deck"]))
        moves = [str(Move.from_dict(m)) if isinstance(m, dict) else m for m in hand["moves"]]
        for k in range(0, len(moves), 12):
            lines.append("moves " + " ".join(moves[k : k + 12]))
        if hand.get("result") is not None:
            sides = hand["result"]["sides"]
            totals = "-".join(str(s["total"]) for s in sides)
            items = " ".join(
                f"{item} " + "-".join(str(s["points"][item]) for s in sides)
                for item in sides[0]["points"]
                if any(s["points"][item] for s in sides)
            )
            lines.append(f"result {totals} {items}".rstrip())
    lines += ["", "final " + "-".join(str(s) for s in record["scores"])
              + ("" if record.get("winner") is None else f" winner {record['winner']}")]
    return "\n".join(lines) + "\n"


def parse_text(text: str) -> dict[str, Any]:
    """Parse the text form into the JSON form (results are recomputed on replay)."""
    lines = [ln.strip() for ln in text.splitlines()]
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
                words = rest.split()
                fields = dict(zip(words[1::2], words[2::2], strict=False))
                hand = {"number": int(words[0]), "dealer": int(fields["dealer"]),
                        "redeals": int(fields.get("redeals", "0")), "seed": fields.get("seed"),
                        "moves": [], "result": None, "deck": None}
                if "commitment" in fields:
                    hand["commitment"] = fields["commitment"]
                record["hands"].append(hand)
            elif key in ("deck", "moves", "result"):
                _need(hand is not None, f"line {n}: '{key}' before any 'hand' line")
                assert hand is not None
                if key == "deck":
                    hand["deck"] = rest.split()
                elif key == "moves":
                    hand["moves"].extend(rest.split())
                else:
                    totals = [int(t) for t in rest.split()[0].split("-")]
                    hand["result"] = {"sides": [{"total": t} for t in totals]}
            elif key == "final":
                words = rest.split()
                record["scores"] = [int(t) for t in words[0].split("-")]
                record["winner"] = int(words[2]) if len(words) >= 3 else None
            else:
                raise RecordError(f"line {n}: unknown keyword {key!r}")
        except (ValueError, KeyError, IndexError, json.JSONDecodeError) as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"line {n}: cannot read {line[:60]!r} ({e})") from None
    _need("rules" in record, "the record has no rules line")
    return record


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
