"""Profiles: the TOML format, validation errors with key paths, names, classes, DNF."""

from __future__ import annotations

from pathlib import Path

import pytest
from simkit import expand, fillers, make_pool, monster, spell, trap

from deckcheck.errors import ProfileError
from deckcheck.sim.goldfish.profile import (
    compile_profile,
    find_profile,
    inline_profile,
    key_path,
    load_profile_file,
    parse_profile,
)

FIX = Path(__file__).parent / "fixtures"
STARTER_A = monster(1, "Starter A", 4, names={"ja": "スターターＡ"})
STARTER_B = monster(2, "Starter B", 4)
HAND_TRAP = monster(3, "Trap Hand", 3)
BRICK = monster(4, "Brick", 8)
CALLED = spell(5, "Called Card", "Quick-Play")
POT = spell(6, "Draw Pot")
SNAKE = monster(7, "Snake Head", 4, archetypes=("Snake",), attribute="DARK")
NOT_IN_DECK = trap(8, "Elsewhere Trap")
FILL = fillers(25)
SPEC = [(STARTER_A, 3), (STARTER_B, 2), (HAND_TRAP, 3), (BRICK, 2), (CALLED, 1), (POT, 2),
        (SNAKE, 2), *[(c, 1) for c in FILL]]
CARDS = expand(SPEC)
POOL = make_pool([c for c, _ in SPEC], NOT_IN_DECK)


def compiled(data: dict, cards: list | None = None):  # type: ignore[no-untyped-def]
    return compile_profile(parse_profile(data), cards or CARDS, POOL, "p.toml")


def test_fixture_profile_compiles_into_classes() -> None:
    cp = compile_profile(load_profile_file(FIX / "basic.profile.toml"), CARDS, POOL, "basic")
    assert len(CARDS) == 40 and cp.deck_size == 40
    labels = {c.label: c.size for c in cp.classes}
    assert labels == {"Starter A": 3, "Starter B": 2, "Trap Hand": 3, "Brick": 2,
                      "Called Card": 1, "Draw Pot": 2, "Snake Head": 2, "other": 25}
    assert sum(cp.K) == 40
    assert set(cp.conditions) == {"a starter", "interaction", "few bricks", "one called"}
    assert cp.has_draws and not cp.monotone
    a = cp.class_of_name["Starter A"]
    assert cp.behaviours[a].kind == "search" and not cp.behaviours[a].is_spent
    assert cp.features[cp.targets[a]].name == "extender"
    extender = cp.features[cp.targets[a]]
    assert extender.members == {"Starter B", "Snake Head"}


def test_classes_group_cards_with_the_same_roles() -> None:
    cp = compiled({"roles": {"starter": ["Starter A", "Starter B"]},
                   "conditions": {"s": "starter >= 1"}})
    assert {c.label: c.size for c in cp.classes} == {"starter": 5, "other": 35}
    assert cp.monotone and not cp.has_draws


def test_names_in_any_language_and_archetypes() -> None:
    cp = compiled({"roles": {"s": ["スターターＡ"], "snakes": {"archetypes": ["snake"]}},
                   "conditions": {"x": "s >= 1", "y": "snakes >= 1"}})
    labels = {c.label: c.size for c in cp.classes}
    assert labels["Starter A"] == 3 and labels["Snake Head"] == 2


def test_attribute_target_for_then_banish() -> None:
    cp = compiled({"conditions": {"x": "Starter A"},
                   "cards": {"Draw Pot": {"draw": 2, "then_banish": "dark"}}})
    pot = cp.class_of_name["Draw Pot"]
    feat = cp.features[cp.targets[pot]]
    assert (feat.kind, feat.name, feat.members) == ("attr", "DARK", {"Snake Head"})


def test_card_in_pool_but_not_in_deck_is_a_note() -> None:
    cp = compiled({"roles": {"t": ["Elsewhere Trap", "Trap Hand"]},
                   "conditions": {"x": "t >= 1"}})
    assert cp.notes == ["Elsewhere Trap (roles.t[0]) is not in this deck."]


def test_unknown_name_suggests() -> None:
    with pytest.raises(ProfileError) as exc:
        compiled({"roles": {"starter": ["Starter A"]}, "conditions": {"x": "startr >= 1"}})
    msg = str(exc.value)
    assert msg == ("p.toml: conditions.x: 'startr' is neither a role nor a known card "
                   "(did you mean 'starter', 'Starter B', 'Starter A'?); fix the name.")


def test_unknown_key_error_has_the_toml_path() -> None:
    with pytest.raises(ProfileError) as exc:
        load_profile_file(FIX / "bad_key.profile.toml")
    msg = str(exc.value)
    assert 'cards."Draw Pot".drawz: unknown key' in msg
    assert msg.count(". ") == 0 and msg.endswith(".")


def test_bad_condition_table_error_has_the_toml_path() -> None:
    pf = load_profile_file(FIX / "bad_condition.profile.toml")
    with pytest.raises(ProfileError, match=r"conditions\.interaction\.any\[1\]\.at_leest: "
                                           r"unknown key"):
        compile_profile(pf, CARDS, POOL, "bad")


@pytest.mark.parametrize("data, fragment", [
    ({"cards": {"Draw Pot": {"draw": 2, "search": "x"}}}, "exactly one of search, draw"),
    ({"cards": {"Draw Pot": {"draw": -1}}}, 'cards."Draw Pot".draw: Input should be greater'),
    ({"options": {"overlapp": True}}, "options.overlapp: unknown key"),
    ({"roles": {"s": 3}}, "roles.s"),
])
def test_pydantic_errors_are_one_sentence(data: dict, fragment: str) -> None:
    with pytest.raises(ProfileError) as exc:
        parse_profile(data, "p.toml")
    assert fragment in str(exc.value) and str(exc.value).startswith("p.toml: ")


@pytest.mark.parametrize("cond, fragment", [
    (["a"], "a list is not a condition"),
    ({"all": []}, "needs a non-empty list"),
    ({"role": "nope", "at_least": 1}, "no role 'nope'"),
    ({"role": "starter"}, "give at_least and/or at_most, or exactly"),
    ({"role": "starter", "exactly": 1, "at_most": 2}, "give at_least"),
    ({"role": "starter", "card": "Brick", "at_least": 1}, "exactly one of role"),
    ({"role": "starter", "at_least": -1}, "whole number"),
    (3, "is not a condition"),
])
def test_condition_errors(cond: object, fragment: str) -> None:
    with pytest.raises(ProfileError, match=fragment):
        compiled({"roles": {"starter": ["Starter A"]}, "conditions": {"c": cond}})


def test_success_may_name_conditions_but_not_loop() -> None:
    cp = compiled({"roles": {"s": ["Starter A"]},
                   "conditions": {"one": "s >= 1", "two": "Brick <= 0"},
                   "success": {"any": ["one", "two"]}})
    assert len(cp.success) == 2
    with pytest.raises(ProfileError, match="refers to itself"):
        compiled({"conditions": {"a": {"all": ["b"]}, "b": {"any": ["a"]}}})


def test_operators_become_bounds() -> None:
    def term(text: str) -> list[tuple[dict, dict]]:
        cp = compiled({"conditions": {"c": text}})
        return [(t.lows, t.highs) for t in cp.conditions["c"]]

    assert term("Brick >= 2") == [({0: 2}, {})]
    assert term("Brick > 1") == [({0: 2}, {})]
    assert term("Brick <= 1") == [({}, {0: 1})]
    assert term("Brick < 1") == [({}, {0: 0})]
    assert term("Brick == 1") == [({0: 1}, {0: 1})]
    assert term("Brick = 0") == [({}, {0: 0})]
    assert term("Brick") == [({0: 1}, {})]
    assert term("Brick != 1") == [({}, {0: 0}), ({0: 2}, {})]
    assert term("Brick < 0") == []          # never
    assert term("Brick >= 0") == [({}, {})]  # always


def test_not_and_any_expand_to_dnf() -> None:
    cp = compiled({"roles": {"s": ["Starter A"], "b": ["Brick"]},
                   "conditions": {"c": {"not": {"any": ["s >= 1", "b == 1"]}}}})
    s, b = (next(i for i, f in enumerate(cp.features) if f.name == n) for n in ("s", "b"))
    terms = [(t.lows, t.highs) for t in cp.conditions["c"]]
    assert terms == [({}, {s: 0, b: 0}), ({b: 2}, {s: 0})]


def test_contradictions_are_dropped() -> None:
    cp = compiled({"conditions": {"c": {"all": ["Brick >= 2", "Brick <= 1"]}}})
    assert cp.conditions["c"] == []


def test_no_condition_is_an_error() -> None:
    with pytest.raises(ProfileError, match="no \\[conditions\\] and no success"):
        compiled({"roles": {"s": ["Starter A"]}})


def test_inline_profile() -> None:
    pf = inline_profile(['starter="Starter A, Starter B"'], ["starter>=1"])
    cp = compile_profile(pf, CARDS, POOL, "command line")
    assert {c.label: c.size for c in cp.classes}["starter"] == 5
    with pytest.raises(ProfileError, match="is not NAME="):
        inline_profile(["starter"], ["starter>=1"])
    with pytest.raises(ProfileError, match="No condition given"):
        inline_profile([], [])


def test_find_profile_next_to_the_deck(tmp_path: Path) -> None:
    deck = tmp_path / "deck.ydk"
    deck.write_text("#main\n")
    assert find_profile(deck) is None
    (tmp_path / "deck.toml").write_text("")
    assert find_profile(deck) == tmp_path / "deck.toml"
    (tmp_path / "deck.profile.toml").write_text("")
    assert find_profile(deck) == tmp_path / "deck.profile.toml"


def test_toml_syntax_and_missing_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[roles\n")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile_file(bad)
    with pytest.raises(ProfileError, match="No profile file"):
        load_profile_file(tmp_path / "none.toml")


def test_key_path() -> None:
    assert key_path(("cards", "Pot of Desires", "draw")) == 'cards."Pot of Desires".draw'
    assert key_path(("conditions", "x", "any", 1)) == "conditions.x.any[1]"


def test_the_documented_example_is_valid() -> None:
    import tomllib

    from deckcheck.sim.goldfish import profile as module

    doc = module.__doc__ or ""
    block = doc.split("Example (``deck.profile.toml``)::\n", 1)[1].split("\nMeaning:", 1)[0]
    text = "\n".join(line[4:] for line in block.splitlines())
    pf = parse_profile(tomllib.loads(text), "doc")
    names = ["Snake-Eye Ash", "Snake-Eye Oak", "Bonfire", "Ash Blossom & Joyous Spring",
             "Effect Veiler", "WANTED: Seeker of Sinful Spoils", "Diabellstar the Black Witch",
             "Called by the Grave", "Pot of Desires", "Allure of Darkness", "Trade-In",
             "Pot of Prosperity"]
    cards = [monster(500 + i, n, archetypes=("Snake-Eye",) if "Snake" in n else ())
             for i, n in enumerate(names)]
    deck = expand([(c, 2) for c in cards]) + fillers(16)
    cp = compile_profile(pf, deck, make_pool(cards, fillers(16)), "doc")
    assert set(cp.conditions) == {"a starter", "interaction", "few bricks", "one field spell"}
    assert {b.kind for b in cp.behaviours.values()} == {"search", "draw", "excavate"}
    assert cp.notes == []
