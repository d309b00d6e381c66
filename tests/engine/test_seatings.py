"""Player counts, sides and options are declared (``VARIANT_SEATINGS``, ``OPTION_VALUES``)
and the rules' validation agrees with the declaration: what clients are offered is exactly
what builds."""

from __future__ import annotations

import pytest

from scopa import VARIANTS, Rules
from scopa.rules import OPTION_VALUES, VARIANT_SEATINGS, variant_facts


@pytest.mark.parametrize("variant", VARIANTS)
def test_declared_seatings_are_exactly_the_valid_ones(variant: str) -> None:
    declared = VARIANT_SEATINGS[variant]
    for players in range(2, 7):
        for teams in range(2, players + 1):
            ok = players in declared and teams in declared[players]
            if ok:
                assert Rules.preset(variant, players=players, teams=teams).teams == teams
            else:
                with pytest.raises(ValueError):
                    Rules.preset(variant, players=players, teams=teams)
        if players in declared:  # the first declared layout is the default
            assert Rules.preset(variant, players=players).teams == declared[players][0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_facts_offer_every_option_with_its_values(variant: str) -> None:
    facts = variant_facts(variant)
    assert facts["players"] == list(VARIANT_SEATINGS[variant])
    default = Rules.preset(variant, players=facts["players"][0])
    assert facts["target"] == default.target and default.target in facts["targets"]
    keys = [o["key"] for o in facts["options"]]
    assert keys == list(OPTION_VALUES)
    for option in facts["options"]:
        assert option["default"] in option["values"]
        assert getattr(default, option["key"]) == option["default"]


def test_cirulla_facts() -> None:
    facts = variant_facts("cirulla")
    assert facts["players"] == [2, 3, 4] and facts["teams"]["4"] == [2]
    assert facts["target"] == 51
    decl = next(o for o in facts["options"] if o["key"] == "declarations")
    assert decl == {"key": "declarations", "default": "choice", "values": ["off", "choice", "auto"]}


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_facts_give_the_deal_at_each_player_count(variant: str) -> None:
    """The rules page draws its deal tables from these: every card of the deck is dealt."""
    facts = variant_facts(variant)
    assert list(facts["deals"]) == [str(p) for p in facts["players"]]
    for players, deal in facts["deals"].items():
        rules = Rules.preset(variant, players=int(players))
        assert deal == {"table": rules.table_cards, "rounds": list(rules.rounds)}
        assert deal["table"] + int(players) * sum(deal["rounds"]) == 40


def test_five_and_six_player_deals() -> None:
    deals = variant_facts("scopa")["deals"]
    assert deals["5"] == {"table": 5, "rounds": [3, 4]}
    assert deals["6"] == {"table": 4, "rounds": [3, 3]}
    assert variant_facts("scopone-scientifico")["deals"] == {"4": {"table": 0, "rounds": [10]}}
