"""`deckcheck.plain.Plain`: the value classes' equality, hashing, copies and dumps (what the
code and library users relied on when they were pydantic models)."""

from __future__ import annotations

import datetime as dt
import pickle

import pytest

from deckcheck.cards.model import Card, Kind
from deckcheck.decks.model import Deck, Entry, Location, ReadProblem
from deckcheck.formats.model import Banlist, BanlistEntry, Format
from deckcheck.reports.model import Checked, CheckResult, Outcome, Report, Violation


def _deck() -> Deck:
    return Deck(name="d", source="d.ydk",
                main=[Entry(passcode=1, written="1", count=2, location=Location(source="d.ydk",
                                                                                line=2))],
                problems=[ReadProblem(kind="bad-line", message="m", suggestions=["a"])],
                meta={"player": "p"})


def test_fields_constructors_and_equality() -> None:
    assert list(Location.model_fields) == ["source", "line", "sheet", "cell", "part"]
    assert Entry(passcode=1) == Entry(passcode=1, count=1, location=Location())
    assert Entry(passcode=1) != Entry(passcode=2)
    assert hash(Location(source="a", line=1)) == hash(Location(source="a", line=1))
    assert len({Entry(passcode=1), Entry(passcode=1)}) == 1
    with pytest.raises(TypeError):
        Location("a.ydk")  # type: ignore[misc]  # keyword-only, as pydantic's were
    with pytest.raises(TypeError):
        Entry(pasccode=1)  # type: ignore[call-arg]  # an unknown field is refused
    with pytest.raises(TypeError):
        hash(_deck())  # mutable values do not hash
    assert _deck().problems[0].suggestions == ("a",)  # a list given, a tuple kept


def test_copy_and_update() -> None:
    deck = _deck()
    copy = deck.model_copy(update={"name": "e"})
    assert copy.name == "e" and deck.name == "d" and copy.main is deck.main  # shallow
    deep = deck.model_copy(deep=True)
    assert deep == deck and deep.main is not deck.main
    with pytest.raises(TypeError, match="no field 'nope'"):
        deck.model_copy(update={"nope": 1})


def test_dump_and_validate_round_trip() -> None:
    deck = _deck()
    assert Deck.model_validate(deck.model_dump()) == deck
    assert Deck.model_validate_json(deck.model_dump_json()) == deck
    report = Report(deck="d.ydk", verdict="illegal", format="tcg", sizes={"main": 40},
                    violations=[Violation(code="DC201", name="too-many-copies", message="m",
                                          location=Location(source="d.ydk", line=3))])
    result = CheckResult(format="tcg", outcomes=[Outcome(source="d.ydk", decks=[
        Checked(report=report, deck=deck)])])
    dumped = result.model_dump(mode="json")
    assert "deck" not in dumped["outcomes"][0]["decks"][0]  # excluded, as before
    assert dumped["outcomes"][0]["decks"][0]["report"]["violations"][0]["location"]["line"] == 3
    back = CheckResult.model_validate(dumped)
    assert back.reports == [report]


def test_json_mode_values() -> None:
    card = Card(passcode=1, name="A", kind="monster", frame="effect", rule_name="A",
                alt_passcodes=[2], scopes=["tcg_only"], released={"tcg": "2020-01-02"})
    assert card.kind is Kind.MONSTER and card.released["tcg"] == dt.date(2020, 1, 2)
    data = card.model_dump(mode="json")
    assert data["kind"] == "monster" and data["released"] == {"tcg": "2020-01-02"}
    assert data["alt_passcodes"] == [2] and data["scopes"] == ["tcg_only"]
    assert Card.model_validate(data) == card
    bl = Banlist(name="L", format="tcg", effective=dt.date(2026, 1, 1),
                 entries=[BanlistEntry(passcode=5, limit=1)])
    assert bl.model_dump(mode="json")["effective"] == "2026-01-01"
    assert bl.limit_of((5,)) == 1


def test_pickles() -> None:  # event --jobs sends reports between processes
    deck, fmt = _deck(), Format(id="x", name="X")
    assert pickle.loads(pickle.dumps(deck)) == deck
    assert pickle.loads(pickle.dumps(fmt)) == fmt


def test_violations_cannot_be_changed_once_built() -> None:
    """`Found` and `Violation` are immutable, as the docs say: a field cannot be reassigned
    (`Violation.code` could be before)."""
    from deckcheck.rules.violation import Found

    loc = Location(source="a.ydk", line=3)
    violation = Violation(code="DC201", name="too-many-copies", message="m", location=loc)
    seen = {violation}
    for value, field in ((violation, "code"), (Found("m"), "message")):
        with pytest.raises(AttributeError):
            setattr(value, field, 9)
        with pytest.raises(AttributeError):
            value.not_a_field = 9  # type: ignore[union-attr]  # no __dict__ either
    assert violation in seen
    assert violation.model_copy(update={"code": "DC202"}).code == "DC202"
    assert violation.code == "DC201"


def test_a_value_is_declared_once() -> None:
    """One annotated list gives the fields, their order, the keyword-only constructor and its
    defaults, equality, hashing, dumps, copies and pickling."""
    from deckcheck.plain import Value, from_fields

    class Point(Value):
        x: int
        y: int = 0
        label: str | None = None

    p = Point(x=1, label="a")
    assert list(Point.model_fields) == ["x", "y", "label"]
    assert (p.x, p.y, p.label) == (1, 0, "a") and repr(p) == "Point(x=1, y=0, label='a')"
    assert p == Point(x=1, y=0, label="a") == from_fields(Point, (1, 0, "a"))
    assert p != Point(x=2, label="a") and p != (1, 0, "a")  # a value, not a tuple
    assert hash(p) == hash(Point(x=1, label="a"))
    assert p.model_dump() == {"x": 1, "y": 0, "label": "a"}
    assert Point.model_validate(p.model_dump()) == p
    assert p.model_copy(update={"y": 5}).y == 5
    with pytest.raises(TypeError):
        Point(1)  # type: ignore[misc]  # keyword-only
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]  # x has no default
    with pytest.raises(TypeError, match="no field 'z'"):
        p.model_copy(update={"z": 1})


def test_values_pickle_and_copy() -> None:  # event --jobs sends them between processes
    import copy

    from deckcheck.rules.violation import Found

    loc = Location(source="a.ydk", line=3)
    v = Violation(code="DC201", name="too-many-copies", message="m", location=loc,
                  suggestions=("A",))
    found = Found("m", "Card", 1, "main", loc, suggestions=("B",))
    for value in (loc, Entry(passcode=1, location=loc), v, found):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value
    assert v.suggestions == ["A"] and Violation(code="c", name="n", message="m").suggestions == []
    assert copy.deepcopy(v).suggestions is not v.suggestions


def test_a_value_class_builds_no_namedtuple(monkeypatch: pytest.MonkeyPatch) -> None:
    """A `Value`'s fields read through namedtuple's own C getters, taken without building a
    namedtuple class per value class (it cost start-up)."""
    import collections

    import deckcheck.plain
    from deckcheck.plain import Value

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a namedtuple was built")

    monkeypatch.setattr(collections, "namedtuple", refuse)
    # a module that took the name at its import (`from collections import namedtuple`)
    monkeypatch.setattr(deckcheck.plain, "namedtuple", refuse, raising=False)

    class Pair(Value, kw_only=False):
        left: int
        right: str = "r"

    p = Pair(1)
    assert (p.left, p.right) == (1, "r") and p == Pair(left=1, right="r")
    with pytest.raises(AttributeError):
        p.left = 2  # type: ignore[misc]
