"""Whole matches through real WebSockets: several variants and player counts, humans and
bots; every frame checked for hidden cards; every hand's seed checked against the
commitment published at its start."""

from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any

import pytest
from server_helpers import Client, ServerProcess, play_human, secrecy_violations

from scopa.cards import card_text
from scopa.shuffle import deck_from_seed

CASES = [
    # variant, players, target, seat kinds (h = human, b = random bot, i = intermediate)
    ("scopa", 2, 11, "hb"),
    ("scopa", 2, 4, "hh"),
    ("scopone", 4, 6, "hbhb"),
    ("quindici", 3, 4, "hhb"),
    ("escoba", 2, 4, "hi"),
    ("asso-pigliatutto", 6, 3, "hbbhbb"),
    ("re-bello", 5, 3, "hbhbb"),
    ("scopone-scientifico", 4, 4, "hhhh"),
    ("cirulla", 4, 8, "hbhi"),
]


def seat_spec(k: str) -> dict[str, Any]:
    if k == "h":
        return {"kind": "human"}
    return {"kind": "bot", "level": "random" if k == "b" else "intermediate"}


async def run_match(server: ServerProcess, variant: str, players: int, target: int,
                    kinds: str, seed: int) -> tuple[dict[str, Any], list[Client], Client]:
    created = server.create(variant=variant, players=players, target=target,
                            seats=[seat_spec(k) for k in kinds])
    table_id, invite = created["table"]["id"], created["invite"]
    tokens = {created["seat"]: created["token"]}
    humans = [i for i, k in enumerate(kinds) if k == "h"]
    spectator = await Client(server, table_id, invite=invite).connect()
    clients = [await Client(server, table_id, tokens[humans[0]]).connect()]
    for n, s in enumerate(humans[1:]):
        joined = server.join(invite, name=f"P{n}", seat=s)
        clients.append(await Client(server, table_id, joined["token"]).connect())
    rng = random.Random(seed)
    ends = await asyncio.gather(*(play_human(c, rng) for c in clients))
    await spectator.expect("match_end")
    for c in [*clients, spectator]:
        await c.close()
    return ends[0], clients, spectator


@pytest.mark.parametrize(("variant", "players", "target", "kinds"), CASES)
def test_full_match(server: ServerProcess, variant: str, players: int, target: int,
                    kinds: str) -> None:
    end, clients, spectator = asyncio.run(
        run_match(server, variant, players, target, kinds, seed=len(kinds))
    )
    assert max(end["scores"]) >= target
    match = server.get(f"/api/matches/{end['match_id']}").json()
    replay = match["replay"]
    assert match["winner"] == end["winner"]
    assert match["rules"]["variant"] == variant
    # every frame to every seat and to the spectator holds only what it may see
    problems = []
    for c in clients:
        seat = next(f["seat"] for f in c.frames if f["type"] == "welcome")
        problems += secrecy_violations(c.frames, seat, replay, 1)
    problems += secrecy_violations(spectator.frames, None, replay, 1)
    assert problems == []
    # each socket saw its own hand and never another's: the spectator saw no hand at all
    spectated = [f["view"] for f in spectator.frames if f["type"] == "state" and f["view"]]
    assert spectated and all(v["hand"] == [] and v["seat"] is None for v in spectated)
    # provably fair: commitment at hand start, seed at hand end, deal from the seed
    for c in [*clients, spectator]:
        check_commitments(c.frames, replay)


def check_commitments(frames: list[dict[str, Any]], replay: dict[str, Any]) -> None:
    published: dict[int, str] = {}
    ended = 0
    for f in frames:
        if f["type"] == "state" and f["commitment"] is not None:
            c = f["commitment"]
            published.setdefault(c["hand_number"], c["commitment"])
            assert published[c["hand_number"]] == c["commitment"]
        if f["type"] == "hand_end":
            ended += 1
            n = f["hand_number"]
            assert published[n] == f["commitment"]
            digest = hashlib.sha256(f"scopa-commit/{f['seed']}".encode()).hexdigest()
            assert digest == f["commitment"]
            hand = replay["hands"][n - 1]
            deck = [card_text(c) for c in deck_from_seed(f["seed"], f["redeals"])]
            # the first position of the hand was dealt from this deck: the table cards
            # and each hand come from it (checked through the engine's replay)
            first = hand["positions"][0]
            dealt = {c for h in first["hands"] for c in h} | set(first["table"])
            dealt |= {c for p in first["captured"] for c in p}  # Escoba's opening sweep
            assert dealt | set(first["stock"]) == set(deck)
            assert first["stock"] == [c for c in deck if c not in dealt]
    assert ended == len(replay["hands"])
