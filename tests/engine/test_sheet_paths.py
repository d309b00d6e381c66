"""The score sheet's two entry points agree: ``Hand.hand_result`` (the game's own meaning)
and ``scoring.score_hand`` (the meaning looked up from the rules), keys in the same order."""

from __future__ import annotations

import json
import random

import pytest

from scopa import Rules
from scopa.match import Match
from scopa.rules import VARIANTS
from scopa.scoring import score_hand


@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_result_is_score_hand(variant: str) -> None:
    rules = Rules.preset(variant)
    rng = random.Random(variant)
    for i in range(30):
        g = Match(rules, seed=f"sheet-{i}").hand
        while not g.hand_over:
            g.play_code(rng.choice(g.legal_codes()))
        sheet = g.hand_result()
        again = score_hand(rules, g.captured, g.scope, g.declared)
        assert json.dumps(sheet) == json.dumps(again)
        # each side's points are the items' points read per side
        for item in sheet["items"]:
            for side, got in zip(sheet["sides"], item["points"], strict=True):
                assert side["points"][item["key"]] == got
        for side in sheet["sides"]:
            assert side["total"] == sum(side["points"].values())
