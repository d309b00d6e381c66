"""Look-alike user names without a server: the TR39 skeleton (from Unicode's confusables
data) makes names that only look different the same, and the bots' names and reserved
words refuse every name that looks like them. (Over HTTP, against other players' names:
test_accounts.py.)"""

from __future__ import annotations

import pytest

from scopa.server import passwords
from scopa.server.lookalike import name_skeleton, skeleton
from scopa.server.names import BOT_NAMES


@pytest.mark.parametrize("a,b", [
    ("\u0430dmin", "admin"),          # Cyrillic а
    ("r\u043e\u043et", "root"),      # two Cyrillic о
    ("G\u0456ulia", "giulia"),       # Cyrillic і
    ("\u0412runo", "bruno"),          # Cyrillic capital В
    ("GIULIA", "Giulia"),             # case alone
    ("\uff27iulia", "giulia"),        # fullwidth G
    ("pa0lo", "paolo"),               # digit zero for o
    ("rnarco", "marco"),              # rn for m
])
def test_names_that_look_alike_have_one_skeleton(a: str, b: str) -> None:
    assert a != b and name_skeleton(a) == name_skeleton(b)


@pytest.mark.parametrize("a,b", [("Luca", "Lucia"), ("elena", "\u00e9lena"),
                                 ("marta", "marca")])
def test_names_that_look_different_stay_apart(a: str, b: str) -> None:
    assert name_skeleton(a) != name_skeleton(b)


def test_the_skeleton_is_tr39_s() -> None:
    assert skeleton("\u0440\u0430ypal") == skeleton("paypal")  # Cyrillic р, а
    assert skeleton("paypal") == skeleton(skeleton("paypal"))  # idempotent


@pytest.mark.parametrize("name", ["\u0430dmin", "r\u043e\u043et", "G\u0456ulia", "MARC0",
                                  "S\u043efia", "Adm\u0456n", "gu\u0435st"])
def test_names_like_a_bot_s_or_a_reserved_word_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="reserved"):
        passwords.check_user_name(name)


def test_every_bot_name_is_reserved() -> None:
    for bot in BOT_NAMES:
        with pytest.raises(ValueError, match="reserved"):
            passwords.check_user_name(bot.upper())
