"""Terminal play: whole matches scripted through an injected input function."""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterator

import pytest
from rich.console import Console

from scopa.bots.base import Limit
from scopa.cards import card_name
from scopa.moves import Move
from scopa.rules import Rules
from scopa.terminal.session import TerminalMatch, parse_choice

CARD = re.compile(r"(?<![\w+])(10|[1-9])[dcsb](?!\w)")


def _console() -> Console:
    return Console(record=True, width=120, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115


def _capped(answers: Iterator[str], cap: int = 3000) -> Iterator[str]:
    """The scripted answers, failing the test instead of looping forever."""
    for i, a in enumerate(answers):
        if i >= cap:
            raise AssertionError("the match asked for too many inputs")
        yield a


def _match(rules: Rules, answers: Iterator[str], **kw: object) -> tuple[TerminalMatch, Console]:
    console = _console()
    script = _capped(answers)
    opponents = kw.pop("opponents", ["random"])
    seed = kw.pop("seed", 1)
    match = TerminalMatch(rules, opponents, seed=seed, console=console,  # type: ignore[arg-type]
                          ask=lambda _p: next(script), **kw)  # type: ignore[arg-type]
    return match, console


def test_scripted_match_against_a_bot_is_played_to_the_end() -> None:
    match, console = _match(Rules.preset("scopa", target=11), itertools.repeat("1"))
    out = match.run()
    text = console.export_text()
    assert not out.quit and out.winner is not None
    assert max(out.scores) >= 11 and out.scores[out.winner] == max(out.scores)
    assert text.count("score sheet") == out.hands
    assert "wins the match" in text or "You win the match" in text
    assert "Your moves" in text and "Table:" in text and "primiera" in text


def test_same_seed_and_input_same_screen() -> None:
    texts = []
    for _ in range(2):
        script = itertools.cycle(["2", "1"])
        match, console = _match(Rules.preset("scopa", target=4), script, seed=9)
        match.run()
        texts.append(console.export_text())
    assert texts[0] == texts[1]


def test_screen_never_shows_a_card_in_another_hand() -> None:
    holder: list[TerminalMatch] = []
    console = _console()
    leaks: list[str] = []
    seen_cards: set[str] = set()
    prompts = 0

    def ask(_prompt: str) -> str:
        nonlocal prompts
        prompts += 1
        game = holder[0].game.hand
        shown = set(m.group(0) for m in CARD.finditer(console.export_text(clear=True)))
        hidden = {Move(c).__str__() for s in range(1, game.n) for c in range(40)
                  if game.hands[s] >> c & 1}
        hidden |= {Move(c).__str__() for c in game.stock}
        leaks.extend(shown & hidden)
        seen_cards.update(shown)
        return "1"

    rules = Rules.preset("scopone", target=6)
    match = TerminalMatch(rules, ["random", "greedy"], seed=3, console=console, ask=ask)
    holder.append(match)
    match.run()
    assert prompts > 20 and len(seen_cards) > 30  # the check does read the cards shown
    assert leaks == []


def test_team_game_names_the_partner() -> None:
    match, console = _match(Rules.preset("scopa", players=4), iter(["quit"]),
                            opponents=["greedy", "random"])
    assert match.names == ["You", "greedy 1", "partner random 2", "greedy 3"]
    assert match.run().quit


def test_help_bad_input_and_typed_moves() -> None:
    answers = iter(["help", "0", "99", "banana", "10z", "", "quit"])
    match, console = _match(Rules.preset("scopa"), answers)
    out = match.run()
    text = console.export_text()
    assert out.quit and out.winner is None
    assert "hint   what the search bot would play" in text
    assert "there is no move 0" in text and "there is no move 99" in text
    assert "not a card" in text and "You left the match" in text


def test_end_of_input_leaves_the_match() -> None:
    def ask(_p: str) -> str:
        raise EOFError

    match = TerminalMatch(Rules.preset("scopa"), ["random"], seed=1, console=_console(), ask=ask)
    assert match.run().quit


def test_hint_shows_the_search_bots_values() -> None:
    answers = iter(["hint", "quit"])
    match, console = _match(Rules.preset("scopa"), answers, hint_limit=Limit(simulations=100))
    match.run()
    text = console.export_text()
    assert "Hint: the search bot's view of your moves" in text
    assert re.search(r"[+-]\d\.\d\d", text)
    # the reasons and the margin in words, from the shared message catalogue
    assert "Still unseen:" in text
    assert re.search(r"The strongest\s+move|Every move\s+loses|It is your\s+only", text)


def test_each_play_is_said_in_words_with_its_notation() -> None:
    match, console = _match(Rules.preset("scopa", target=4), itertools.repeat("1"), seed=3)
    match.run()
    text = console.export_text()
    said = re.findall(r"^(You|random 1) (laid|took) (the .+?) \((\S+)", text, re.M)
    assert said, text[:2000]
    for _who, verb, words, notation in said:
        move = Move.parse(notation.rstrip(")"))
        assert (verb == "took") == bool(move.capture)
        assert words.endswith(card_name(move.card)), words


def test_hint_without_the_analysis_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scopa.bots.analysis", None)
    match, console = _match(Rules.preset("scopa"), iter(["hint", "quit"]))
    match.run()
    assert "Hints need the search bot's analysis" in console.export_text()


def test_unknown_or_omniscient_opponent_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown opponent"):
        TerminalMatch(Rules.preset("scopa"), ["grandmaster"], console=_console())
    with pytest.raises(ValueError, match="sees every card"):
        TerminalMatch(Rules.preset("scopa"), ["oracle"], console=_console())


def test_parse_choice() -> None:
    moves = [Move.parse("7d:3s+4d"), Move.parse("7d:1d+6c"), Move.parse("2c")]
    assert parse_choice("2", moves) == moves[1]
    assert parse_choice("7d:4d+3s", moves) == moves[0]
    assert parse_choice("2c", moves) == moves[2]
    with pytest.raises(ValueError, match="with that card: 7d:4d\\+3s, 7d:1d\\+6c"):
        parse_choice("7d", moves)
    with pytest.raises(ValueError, match="not in your hand"):
        parse_choice("5b", moves)
    with pytest.raises(ValueError, match="no move 4"):
        parse_choice("4", moves)


@pytest.mark.parametrize("variant", ["scopa", "scopone", "scopone-scientifico",
                                     "asso-pigliatutto", "napola", "re-bello", "quindici",
                                     "escoba", "cirulla"])
def test_every_variant_plays_to_a_short_target(variant: str) -> None:
    rules = Rules.preset(variant, target=1)
    match, console = _match(rules, itertools.cycle(["3", "2", "1"]), opponents=["greedy"])
    out = match.run()
    assert out.winner is not None and max(out.scores) >= 1
    assert "score sheet" in console.export_text()


def test_cirulla_declarations_are_typed_and_shown() -> None:
    """The human declares by typing ``declare``; the move list offers declare and pass;
    the score sheet lists Cirulla's own items."""
    answers = itertools.cycle(["declare", "3", "2", "1"])
    match, console = _match(Rules.preset("cirulla", target=5), answers, opponents=["greedy"])
    out = match.run()
    text = console.export_text()
    assert out.winner is not None
    assert "declare your hand" in text and "declares the hand" in text
    assert "grande" in text and "declared hands" in text
