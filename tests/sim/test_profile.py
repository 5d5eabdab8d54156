"""Profiles: the TOML format, validation errors with key paths, names, classes, DNF."""

from __future__ import annotations

from pathlib import Path

import pytest
from simkit import expand, fillers, make_pool, monster, spell, trap

from deckcheck.errors import ProfileError
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.keys import key_path
from deckcheck.sim.goldfish.profile import (
    inline_profile,
    inline_roles,
    load_profile_file,
    parse_profile,
    path_text,
    profile_next_to,
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
    assert (feat.kind, feat.name, feat.members) == ("prop", "DARK", {"Snake Head"})


def test_card_in_pool_but_not_in_deck_is_an_error_or_a_note_for_a_b() -> None:
    data = {"roles": {"t": ["Elsewhere Trap", "Trap Hand"]}, "conditions": {"x": "t >= 1"}}
    with pytest.raises(ProfileError) as exc:
        compiled(data)
    assert str(exc.value) == ("p.toml: roles.t[0]: Elsewhere Trap is not in this deck; remove "
                              "it from the profile or add it to the deck.")
    cp = compile_profile(parse_profile(data), CARDS, POOL, "p.toml", strict=False)
    assert cp.notes == ["Elsewhere Trap (roles.t[0]) is not in this deck."]


def test_unknown_archetype_is_an_error() -> None:
    with pytest.raises(ProfileError, match=r"roles.s.archetypes\[0\]: no card of archetype "
                                           r"'Snaek' is in this deck"):
        compiled({"roles": {"s": {"archetypes": ["Snaek"]}}, "conditions": {"x": "s >= 1"}})


def test_a_wrong_operator_is_not_read_as_a_card_name() -> None:
    with pytest.raises(ProfileError) as exc:
        compiled({"conditions": {"x": "Starter A => 1"}})
    assert "'Starter A =' is not a condition" not in str(exc.value)
    assert "is not a condition: the comparison is one of >=" in str(exc.value)


def test_unknown_name_suggests() -> None:
    with pytest.raises(ProfileError) as exc:
        compiled({"roles": {"starter": ["Starter A"]}, "conditions": {"x": "startr >= 1"}})
    msg = str(exc.value)
    assert msg == ("p.toml: conditions.x: 'startr' is neither a role nor a known card or card "
                   "property (did you mean 'starter', 'Starter A', 'Starter B'?); fix the name.")


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
    ({"cards": {"Draw Pot": {"draw": -1}}}, 'cards."Draw Pot".draw: Input should be greater'),
    ({"options": {"overlapp": True}}, "options.overlapp: unknown key"),
    ({"roles": {"s": 3}}, "roles.s"),
])
def test_pydantic_errors_are_one_sentence(data: dict, fragment: str) -> None:
    with pytest.raises(ProfileError) as exc:
        parse_profile(data, "p.toml")
    assert fragment in str(exc.value) and str(exc.value).startswith("p.toml: ")


def test_a_card_entry_needs_one_kind() -> None:
    with pytest.raises(ProfileError) as exc:
        compiled({"conditions": {"x": "Starter A"},
                  "cards": {"Draw Pot": {"draw": 2, "search": "Starter A"}}})
    assert str(exc.value).startswith('p.toml: cards."Draw Pot": a card needs exactly one of '
                                     'search, draw')


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


def _plain(terms: list) -> list:  # type: ignore[type-arg]
    return [(t.lows, t.highs) if not t.nots else (t.lows, t.highs, [_plain(n) for n in t.nots])
            for t in terms]


def test_operators_become_bounds() -> None:
    def term(text: str) -> list:  # type: ignore[type-arg]
        cp = compiled({"conditions": {"c": text}})
        return _plain(cp.conditions["c"])

    assert term("Brick >= 2") == [({0: 2}, {})]
    assert term("Brick > 1") == [({0: 2}, {})]
    assert term("Brick <= 1") == [({}, {0: 1})]
    assert term("Brick < 1") == [({}, {0: 0})]
    assert term("Brick == 1") == [({0: 1}, {0: 1})]
    assert term("Brick = 0") == [({}, {0: 0})]
    assert term("Brick") == [({0: 1}, {})]
    assert term("Brick != 1") == [({}, {}, [[({0: 1}, {0: 1})]])]  # not (== 1), whole
    assert term("Brick < 0") == []          # never
    assert term("Brick >= 0") == [({}, {})]  # always


def test_not_and_any_expand_to_dnf() -> None:
    cp = compiled({"roles": {"s": ["Starter A"], "b": ["Brick"]},
                   "conditions": {"c": {"not": {"any": ["s >= 1", "b == 1"]}}}})
    s, b = (next(i for i, f in enumerate(cp.features) if f.name == n) for n in ("s", "b"))
    # "b == 1" has an upper bound: its complement needs an "at least", so the negation of
    # the whole "any" is kept whole (a complement under the matching)
    assert _plain(cp.conditions["c"]) == [({}, {}, [[({s: 1}, {}), ({b: 1}, {b: 1})]])]
    cp2 = compiled({"roles": {"s": ["Starter A"], "b": ["Brick"]},
                    "conditions": {"c": {"not": {"any": ["s >= 1", "b >= 2"]}}}})
    assert _plain(cp2.conditions["c"]) == [({}, {s: 0, b: 1})]  # pushed: copy counts only
    cp3 = compiled({"roles": {"s": ["Starter A"], "b": ["Brick"]},
                    "conditions": {"c": {"not": {"all": ["s >= 1", "b >= 2"]}}}})
    assert _plain(cp3.conditions["c"]) == [({}, {}, [[({s: 1, b: 2}, {})]])]


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


@pytest.mark.parametrize("written, cards", [
    ('x="A, with comma",B', ["A, with comma", "B"]),
    ("x=A, with comma;B", ["A, with comma", "B"]),
    ('x="A,B"', ["A", "B"]),
    ("x=A,B", ["A", "B"]),
])
def test_role_option_takes_names_with_commas(written: str, cards: list[str]) -> None:
    assert inline_roles([written]) == {"x": cards}


def test_profile_next_to_the_deck(tmp_path: Path) -> None:
    deck = tmp_path / "deck.ydk"
    deck.write_text("#main\n")
    assert profile_next_to(deck) is None
    (tmp_path / "deck.toml").write_text("")
    assert profile_next_to(deck) == str(tmp_path / "deck.toml")
    (tmp_path / "deck.profile.toml").write_text("")
    assert profile_next_to(deck) == str(tmp_path / "deck.profile.toml")


def _pathlib_rule(deck_path: str) -> str | None:
    """The profile next to a deck as pathlib found it before `profile_next_to` (the
    reference)."""
    p = Path(deck_path)
    try:
        candidates = (p.with_suffix(".profile.toml"), p.with_suffix(".toml"))
    except ValueError:
        return None
    return next((str(c) for c in candidates if c.is_file() and c != p), None)


SPELLINGS = ["deck.ydk", "./deck.ydk", "sub/deck.ydk", "sub//deck.ydk", "./sub/./deck.ydk",
             "sub/../deck.ydk", "deck", "deck.", ".deck", "deck.profile", "deck.toml",
             "deck.profile.toml", "sub/", "sub/.", ".", "..", "/", "", "sub/.deck.ydk",
             "many.dots.in.deck.ydk", "ünï cödé.ydk"]


@pytest.mark.parametrize("deck", SPELLINGS)
def test_profile_next_to_finds_what_pathlib_finds(deck: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The string reader `odds` uses (no pathlib to import) finds the same file, written the
    same way, for every way of writing the deck's path, and `path_text` writes a path as
    pathlib does."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    for name in ("deck", "deck.", ".deck", "deck.profile", "many.dots.in.deck", "ünï cödé",
                 "sub/deck", "sub/.deck", "sub/"):
        for suffix in (".profile.toml", ".toml"):
            (tmp_path / (name + suffix)).write_text("")
    assert path_text(deck) == str(Path(deck))
    assert profile_next_to(deck) == _pathlib_rule(deck)
    (tmp_path / "deck.profile.toml").unlink()  # then deck.toml
    assert profile_next_to(deck) == _pathlib_rule(deck)


def _typing_rules(cls: type) -> dict[str, object]:
    """`plain_rules` from the annotations evaluated by `typing` (the reference)."""
    import types
    import typing

    from deckcheck.sim.goldfish.profile_fields import declared_fields

    hints = typing.get_type_hints(cls)
    out: dict[str, object] = {}
    for f in declared_fields(cls):
        if f.internal:
            continue
        union = typing.get_origin(hints[f.name]) in (typing.Union, types.UnionType)
        args = typing.get_args(hints[f.name]) if union else (hints[f.name],)
        base = next(a for a in args if a is not type(None))
        rule = (typing.get_args(base) if typing.get_origin(base) is typing.Literal
                else (base, *(f.range or ())))
        out[f.name] = (rule, type(None) in args)
    return out


def test_plain_rules_read_the_annotations_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain reader's rules come from the annotations as written, with no evaluation
    (`typing.get_type_hints` compiles each: ~1 ms of `odds`), and are what evaluating them
    gives; an annotation of another shape is refused at once, naming the field."""
    import typing

    from deckcheck.sim.goldfish import profile_fields as pf

    expected = {cls: _typing_rules(cls) for cls in (pf.Options, pf.CardEntry, pf.Behaviour)}
    pf.plain_rules.cache_clear()
    monkeypatch.setattr(typing, "get_type_hints", lambda *a, **k: 1 / 0)
    try:
        assert {cls: pf.plain_rules(cls) for cls in expected} == expected
    finally:
        pf.plain_rules.cache_clear()
    monkeypatch.setattr(pf, "_written_rule", lambda written: None)  # e.g. list[int]
    with pytest.raises(TypeError, match=r"^Options\.\w+: write its annotation as bool"):
        pf.plain_rules(pf.Options)  # (a call that raises is not cached)
    monkeypatch.undo()
    assert pf._written_rule("int | None") == ((int,), True)
    assert pf._written_rule("Literal['bottom', \"shuffle\"]") == (("bottom", "shuffle"), False)
    for other in ("dict[str, Any]", "Literal['a, b']", "int | str", "Any", "list[int]"):
        assert pf._written_rule(other) is None


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


def test_plain_check_reads_profiles_as_the_pydantic_models_do() -> None:
    """A plainly well-formed profile is read without pydantic; anything else goes through
    the pydantic models (`_profile_schema`). Both give the same profile; the plain check
    leaves to pydantic whatever it would coerce."""
    import re
    import tomllib

    from deckcheck.sim.goldfish import cardrules
    from deckcheck.sim.goldfish._profile_schema import (
        to_plain,
        validate_behaviour,
        validate_profile,
    )
    from deckcheck.sim.goldfish.profile import _plain_profile, behaviour

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    datas = [tomllib.loads(t) for t in re.findall(r"```toml\n(.*?)```", readme, re.S)]
    datas += [tomllib.loads((FIX / "basic.profile.toml").read_text(encoding="utf-8")),
              tomllib.loads((Path(__file__).resolve().parents[2] / "examples"
                             / "tcg-legal.profile.toml").read_text(encoding="utf-8"))]
    assert len(datas) >= 4
    for data in datas:
        plain = _plain_profile(data)
        assert plain is not None
        assert plain == to_plain(validate_profile(data, "p"))
        for name, entry in plain.cards.items():
            b = behaviour(cardrules.builtin_rules(name), entry, "cards.x", "p")
            fields = dict(cardrules.builtin_rules(name) or {})
            if b is not None:
                given = {k: v for k, v in entry.given.items() if k != "play"}
                if {"search", "draw", "excavate", "redraw_hand", "small_world"} & set(given):
                    for k in ("search", "draw", "excavate", "redraw_hand", "small_world"):
                        fields.pop(k, None)
                fields.update(given)
                assert b.__dict__ == validate_behaviour(fields, "p", "x").model_dump()
    for base in cardrules.CARD_RULES.values():
        assert behaviour(base, None, "x", "p").__dict__ == \
            validate_behaviour(dict(base), "p", "x").model_dump()  # type: ignore[union-attr]
    # what pydantic coerces is left to it: the same profile either way
    odd = {"options": {"overlap": 1}, "roles": {"r": ("A", "B")},
           "cards": {"X": {"draw": 2.0, "play": "yes"}}}
    assert _plain_profile(odd) is None
    pf = parse_profile(odd)
    assert (pf.options.overlap, pf.roles["r"], pf.cards["X"].given) == \
        (True, ["A", "B"], {"draw": 2, "play": True})


def test_profile_fields_are_declared_once_for_both_readers() -> None:
    """The plain reader and the pydantic fallback follow from one field list
    (`profile_fields`): the same keys, and each count's bounds from the same declaration."""
    from deckcheck.sim.goldfish import _profile_schema, profile_fields
    from deckcheck.sim.goldfish.profile import _plain_profile

    for cls in (profile_fields.Options, profile_fields.RoleSpec, profile_fields.CardEntry,
                profile_fields.Behaviour, profile_fields.ProfileFile):
        model = _profile_schema._MODELS[cls]
        assert tuple(model.model_fields) == profile_fields.keys(cls)
    bounded = {f.name: f.range for f in profile_fields.declared_fields(profile_fields.CardEntry)
               if f.range is not None}
    assert set(bounded) == {"draw", "banish_top", "excavate"}
    for key, (_, hi) in bounded.items():
        assert _plain_profile({"cards": {"X": {key: hi}}}) is not None
        assert _plain_profile({"cards": {"X": {key: hi + 1}}}) is None
        with pytest.raises(ProfileError, match=f'cards.X.{key}: Input should be less than or '
                                               f'equal to {hi}'):
            parse_profile({"cards": {"X": {key: hi + 1}}})
