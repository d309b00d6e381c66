"""Look-alike user names without a server: the TR39 skeleton (from Unicode's confusables
data) makes names that only look different the same, and the bots' names and reserved
words refuse every name that looks like them. (Over HTTP, against other players' names:
test_accounts.py.) Upgrading a database with look-alike accounts keeps both."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, text

from scopa.server.common.lookalike import name_skeleton, skeleton
from scopa.server.players import passwords
from scopa.server.players.account_store import AccountStore
from scopa.server.players.names import BOT_NAMES
from scopa.server.store import migrate
from scopa.server.store.account_models import UserRow
from scopa.server.store.database import Store


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



def test_upgrading_gives_existing_accounts_their_look_even_look_alike_ones(url: str) -> None:
    """Accounts made before the look was kept, two of them look-alikes: both stay, each
    gets a unique skeleton, and no third look-alike can be made."""
    async def run() -> None:
        store = Store(url)
        try:
            await migrate.upgrade(store.engine, "0004_abandoned")
            async with store.engine.begin() as conn:
                for name in ("Mira", "\u041cira", "Bruno"):  # the second: Cyrillic М
                    await conn.execute(text(
                        "INSERT INTO users (name, name_key, password_hash, private, "
                        "created_at) VALUES (:n, :k, 'x', false, CURRENT_TIMESTAMP)"),
                        {"n": name, "k": name.casefold()})
            await store.migrate()
            async with store.session() as s:
                looks = {u.name: u.name_skeleton for u in await s.scalars(select(UserRow))}
            assert looks["Mira"] == name_skeleton("Mira")
            assert looks["\u041cira"] is not None and looks["\u041cira"] != looks["Mira"]
            assert looks["Bruno"] == name_skeleton("Bruno")
            accounts = AccountStore(store)
            assert await accounts.name_taken("m\u0456ra", passwords.skeleton_key("m\u0456ra"))
            # the unique index refuses it even past the check (two sign-ups at once)
            twin = "M\u0456ra"
            assert await accounts.create_user(twin, twin.casefold(), "x",
                                              passwords.skeleton_key(twin)) is None
        finally:
            await store.close()

    asyncio.run(run())
