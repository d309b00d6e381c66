"""Incompatible option values are declared once (``rules.CONFLICTS``): the rules refuse
them with an error naming both options, every variant's facts carry them for clients, and
each has its explanation in both languages."""

from __future__ import annotations

import pytest

from scopa.messages import LANGUAGES, catalogue
from scopa.rules import CONFLICTS, OPTION_VALUES, VARIANTS, Rules, table_rules, variant_facts


@pytest.mark.parametrize("conflict", CONFLICTS, ids=[c.message for c in CONFLICTS])
def test_each_conflict_is_refused_by_name(conflict):
    (a, va), (b, vb) = conflict.first, conflict.second
    assert va in OPTION_VALUES[a] and vb in OPTION_VALUES[b]  # values a client can pick
    with pytest.raises(ValueError) as err:
        table_rules("scopa", {a: va, b: vb})
    assert a in str(err.value) and b in str(err.value)
    assert conflict.text() in str(err.value)
    # either value alone is fine with the other option left as the preset has it
    for key, value in (conflict.first, conflict.second):
        try:
            rules = Rules.preset("scopa", **{key: value})
        except ValueError:
            continue  # the preset's other value is the conflicting one
        assert getattr(rules, key) == value
        assert not conflict.applies(rules)


def test_every_conflict_is_explained_in_both_languages():
    for conflict in CONFLICTS:
        for lang in LANGUAGES:
            assert catalogue()[lang].get(conflict.message), (lang, conflict.message)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_variant_facts_carry_the_conflicts_and_no_preset_breaks_one(variant):
    facts = variant_facts(variant)
    assert facts["conflicts"] == [c.to_dict() for c in CONFLICTS]
    defaults = {o["key"]: o["default"] for o in facts["options"]}
    for c in facts["conflicts"]:
        (a, va), (b, vb) = c["options"]
        assert not (defaults[a] == va and defaults[b] == vb)


def test_the_known_pairs_are_declared():
    pairs = {(c.first, c.second) for c in CONFLICTS}
    assert (("ace_takes_all", True), ("capture", "fifteen")) in pairs
    assert (("napola_outright", True), ("napola", False)) in pairs
