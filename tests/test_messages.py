"""The message catalogue: both languages say every message with the same arguments, and
every message the explanations produce renders in both without a gap."""

from __future__ import annotations

import json
import random
import re
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Move
from scopa.bots.explain import describe, doing, reasons, still_to_come, verdict
from scopa.hand import Hand
from scopa.match import Match
from scopa.messages import (
    LANGUAGES,
    Message,
    catalogue,
    items,
    join,
    message,
    render,
    sentence,
)
from scopa.rules import VARIANTS
from scopa.view import PlayerView

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_the_catalogue_is_the_package_file_the_browser_loads() -> None:
    raw = json.loads(resources.files("scopa").joinpath("web", "messages.json").read_text())
    assert set(raw) >= set(LANGUAGES)
    assert catalogue() == {lang: raw[lang] for lang in LANGUAGES}


def test_both_languages_have_every_key_with_the_same_placeholders() -> None:
    en, it = catalogue()["en"], catalogue()["it"]
    # Italian may add a key only as a variant of an English one (an article for aces)
    assert set(en) - set(it) == set(), "keys missing in Italian"
    for key in set(it) - set(en):
        assert key.rsplit(".", 1)[0] in en, key
    for key, text in en.items():
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(it[key])), key


def test_cards_lists_and_numbers_in_both_languages() -> None:
    take = message("move.take", card={"card": "1s"}, cards={"cards": ["3s", "4d", "10c"]})
    assert render(take) == (
        "Take the 3 of swords, the 4 of coins and the king of cups with the ace of swords"
    )
    assert render(take, "it") == (
        "Prendi il tre di spade, il quattro di denari e il re di coppe con l'asso di spade"
    )
    assert join(["a"], "it") == "a" and join([]) == ""


def test_a_count_of_one_picks_the_singular_text() -> None:
    assert render(message("why.coins", n=1)) == "It wins a coin toward the most coins."
    assert render(message("why.coins", n=3)) == "It wins 3 coins toward the most coins."
    singular = render(message("why.coins", n=1), "it")
    assert singular == "Prendi un denaro per la maggioranza dei denari."


def test_nested_messages_and_lists_of_messages() -> None:
    parts = [message("still.settebello"), message("still.coins", n=4)]
    msg = message("still.intro", items=items(parts))
    assert sentence(msg) == "Still unseen: the settebello and 4 coins."
    assert sentence(msg, "it") == "Ancora da uscire: il settebello e 4 denari."


def test_bad_messages_are_refused_clearly() -> None:
    with pytest.raises(KeyError, match="no message"):
        render(message("no.such.key"))
    with pytest.raises(ValueError, match="not a message argument"):
        render(message("why.lays", card={"what": 1}))
    with pytest.raises(ValueError, match="unknown language"):
        render(message("why.empty"), "fr")


def _said(game: Hand, rng: random.Random) -> list[Message]:
    view = PlayerView.of(game, game.to_move)
    moves = view.legal_moves()
    ranked = [(m, rng.uniform(-2, 2)) for m in moves]
    ranked.sort(key=lambda p: -p[1])
    out: list[Message] = []
    for i, (move, _) in enumerate(ranked):
        out += [describe(view, move), doing(move), *reasons(view, move), *verdict(ranked, i)]
    context = still_to_come(view)
    return out + ([context] if context else [])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10_000), st.integers(0, 40))
def test_every_explanation_renders_fully_in_both_languages(variant: str, seed: int,
                                                           plies: int) -> None:
    game = Match.new(variant, seed=seed).hand
    rng = random.Random(seed)
    for _ in range(plies):
        if game.hand_over:
            break
        game.play(rng.choice(game.legal_moves()))
    if game.hand_over:
        return
    for msg in _said(game, rng):
        json.dumps(msg)  # plain data: it travels to the browser as it is
        for lang in LANGUAGES:
            words = sentence(msg, lang)
            assert words and "{" not in words and words[0] == words[0].upper(), (lang, msg)


def test_a_move_from_a_dict_is_described_like_the_browser_shows_it() -> None:
    game = Match.new("scopa", seed="describe").hand
    view = PlayerView.of(game, game.to_move)
    move = view.legal_moves()[0]
    assert Move.from_dict(move.to_dict()) == move
    assert render(describe(view, move)).split(" ")[0] in ("Lay", "Take", "Sweep")


def test_one_home_for_each_key_the_page_knows() -> None:
    """The page's own strings (strings.js) and the shared catalogue never define the same
    key: a text shared with the server lives in the catalogue only."""
    page = resources.files("scopa").joinpath("web", "js", "strings.js").read_text("utf-8")
    page_keys = set(re.findall(r'^\s+"([\w.]+)":', page, re.M))
    assert {"lobby.start", "teach.title"} <= page_keys  # the file was read
    for lang in LANGUAGES:
        assert not page_keys & set(catalogue()[lang]), lang
