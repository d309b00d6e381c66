"""``scopa play`` speaks the catalogue's languages (issue 44 section 2): a whole match in
Italian or Spanish shows no English word of its own, the prompts and errors follow the language, the
environment's locale chooses it by default, and an unknown language is refused."""

from __future__ import annotations

import itertools
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from scopa.cli import app
from scopa.messages import catalogue
from scopa.rules import Rules
from scopa.terminal.session import TerminalMatch, language, parse_choice

#: the terminal's English words that must not show in another language
ENGLISH = ("Your move", "Your hand", "Table:", "Stock:", "Hand 1", "score sheet", "Match:",
           "playing to", "to play", "dealer", "in hand", "sweeps", "hand points", "You ")


def _play(lang: str, answers: list[str]) -> tuple[str, list[str]]:
    console = Console(record=True, width=140, color_system=None,
                      file=open("/dev/null", "w"))  # noqa: SIM115
    prompts: list[str] = []
    script = itertools.chain(answers, itertools.repeat("1"))

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 3000:
            raise AssertionError("the match asked for too many inputs")
        return next(script)

    match = TerminalMatch(Rules.preset(target=1), ["random"], seed=3, console=console,
                          ask=ask, lang=lang)
    match.run()
    return console.export_text(), prompts


def test_a_match_in_italian_says_nothing_in_english() -> None:
    shown, prompts = _play("it", ["help", "99", "1"])
    for word in ("La tua mossa", "La tua mano", "Tavola:", "Mazzo:", "Mano 1",
                 "foglio dei punti", "Partita:", "punti della mano", "non c'è la mossa 99",
                 "Scrivi il numero di una mossa"):
        assert word in shown + "".join(prompts), word
    leaks = [w for w in ENGLISH if w in shown or any(w in p for p in prompts)]
    assert leaks == [], leaks
    assert re.search(r"(Hai vinto la partita!|vince la partita\.)", shown)


def test_a_match_in_spanish_says_nothing_in_english() -> None:
    shown, prompts = _play("es", ["help", "99", "1"])
    for word in ("Tu jugada", "Tu mano", "Mesa:", "Mazo:", "Mano 1", "hoja de puntos",
                 "Partida:", "puntos de la mano", "no existe la jugada 99",
                 "Escribe el número de una jugada", " de oros", " de espadas"):
        assert word in shown + "".join(prompts), word
    leaks = [w for w in ENGLISH if w in shown or any(w in p for p in prompts)]
    assert leaks == [], leaks
    assert re.search(r"(¡Has ganado la partida!|gana la partida\.)", shown)


def test_english_stays_as_it_was() -> None:
    shown, prompts = _play("en", [])
    assert "Your move" in prompts[0] and "Your hand" in shown and "Hand 1" in shown


def test_errors_follow_the_language() -> None:
    from scopa.match import Match

    moves = Match(Rules.preset(), seed="lang").hand.legal_moves()
    with pytest.raises(ValueError, match="non c'è la mossa 40: scegli da 1 a"):
        parse_choice("40", moves, "it")
    with pytest.raises(ValueError, match="no existe la jugada 40: elige de 1 a"):
        parse_choice("40", moves, "es")
    with pytest.raises(ValueError, match="there is no move 40: choose 1 to"):
        parse_choice("40", moves, "en")


def test_the_locale_chooses_the_language() -> None:
    assert language({"LANG": "it_IT.UTF-8"}) == "it"
    assert language({"LC_ALL": "en_GB.UTF-8", "LANG": "it_IT.UTF-8"}) == "en"
    assert language({"LC_MESSAGES": "it", "LANG": "en_US"}) == "it"
    assert language({"LANG": "es_ES.UTF-8"}) == "es"
    assert language({"LC_ALL": "es_AR.UTF-8", "LANG": "it_IT.UTF-8"}) == "es"
    assert language({"LANG": "fr_FR.UTF-8"}) == "en"  # not in the catalogue
    assert language({"LANG": "C.UTF-8"}) == "en"
    assert language({}) == "en"


def test_every_terminal_word_is_in_every_language() -> None:
    table = catalogue()
    keys = {k for k in table["en"] if k.startswith("term.")}
    assert keys and all(keys <= set(table[lang]) for lang in table if lang != "_comment")


def test_the_command_takes_lang_and_refuses_an_unknown_one() -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["play", "--lang", "it", "--opponents", "random", "--seed", "1"],
                         input="quit\n", env={"LANG": "en_US.UTF-8"})
    assert done.exit_code == 0, done.output
    assert "Hai lasciato la partita." in done.output
    refused = runner.invoke(app, ["play", "--lang", "xx"], input="quit\n")
    assert refused.exit_code != 0 and "unknown language 'xx'" in refused.output
    by_locale = runner.invoke(app, ["play", "--opponents", "random", "--seed", "1"],
                              input="quit\n", env={"LANG": "it_IT.UTF-8"})
    assert "Hai lasciato la partita." in by_locale.output
    spanish = runner.invoke(app, ["play", "--lang", "es", "--opponents", "random", "--seed",
                                  "1"], input="quit\n", env={"LANG": "en_US.UTF-8"})
    assert spanish.exit_code == 0 and "Has dejado la partida." in spanish.output
    by_spanish_locale = runner.invoke(app, ["play", "--opponents", "random", "--seed", "1"],
                                      input="quit\n", env={"LANG": "es_ES.UTF-8"})
    assert "Has dejado la partida." in by_spanish_locale.output
