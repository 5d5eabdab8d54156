"""`Card` is declared once: its annotations are the field list its slots, constructor,
stored-JSON decoder (`card_from_stored`), boundary schema (`CardSchema`) and the import's merge
follow; a card dumped to the store's JSON reads back as the same card."""

from __future__ import annotations

import inspect
import pickle
from typing import Any

import pytest
from pydantic import ValidationError

from deckcheck.cards.builtin import builtin_cards
from deckcheck.cards.model import Card, card_from_stored
from deckcheck.cards.schema import CardSchema, validate_cards


def test_schema_matches_the_plain_card() -> None:
    assert list(Card.model_fields) == list(CardSchema.model_fields)
    values = {"passcode": 1, "name": "A", "kind": "monster", "frame": "effect",
              "rule_name": "A"}
    assert Card(**values).model_dump() == CardSchema(**values).model_dump()  # type: ignore[arg-type]


def test_every_builtin_card_passes_the_schema_and_round_trips() -> None:
    for card in builtin_cards():
        data = card.model_dump(mode="json")
        assert CardSchema.model_validate(data).model_dump() == card.model_dump()
        assert Card.model_validate_json(card.model_dump_json()) == card


def test_one_field_list() -> None:
    """The annotations are the fields: the slots, the constructor's keywords (same order) and
    the schema follow them; the merge copies every field it does not work out itself."""
    from deckcheck.imports.merge import _WORKED_OUT, FIELDS

    fields = [f for f in Card.__annotations__ if not f.startswith("_")]
    assert list(Card.model_fields) == fields
    assert [s for s in Card.__slots__ if not s.startswith("_")] == fields
    keywords = [p.name for p in inspect.signature(Card).parameters.values()]
    assert keywords == fields
    assert list(CardSchema.model_fields) == fields
    assert set(FIELDS) | _WORKED_OUT == set(fields) and not set(FIELDS) & _WORKED_OUT


def test_defaults_are_the_constructors_everywhere() -> None:
    """A field left out takes the same value from the constructor, the stored-JSON decoder
    and the schema; each card gets its own dicts."""
    values = {"passcode": 1, "name": "A", "kind": "monster", "frame": "effect",
              "rule_name": "A"}
    built, stored = Card(**values), card_from_stored(dict(values))  # type: ignore[arg-type]
    assert built == stored and built.model_dump() == stored.model_dump()
    assert CardSchema(**values).model_dump() == built.model_dump()
    assert built.names is not Card(**values).names  # type: ignore[arg-type]


def test_card_has_no_hidden_attributes() -> None:
    """Only a card built from a store's compact row fills fields in lazily (`RowCard`); a
    `Card` has no `__getattr__` (which would make any attribute valid, unseen by mypy), and a
    row card equals, pickles and copies as the card it stands for."""
    from deckcheck.cards.compact import RowCard, card_from_row, stored_facts

    assert "__getattr__" not in vars(Card)
    data = {"passcode": 1, "name": "A", "kind": "monster", "frame": "effect",
            "rule_name": "A", "text": "Its text.", "atk": 100}

    class Store:
        def stored_card(self, passcode: int) -> Card:
            return card_from_stored(dict(data))

    row = card_from_row(1, stored_facts(data), Store())
    full = card_from_stored(dict(data))
    assert type(row) is RowCard and isinstance(row, Card)
    assert row == full and full == row and hash(row) == hash(full)
    back = pickle.loads(pickle.dumps(card_from_row(1, stored_facts(data), Store())))
    assert back == full and back.atk == 100


_OK = {"passcode": 1, "name": "A", "kind": "monster", "frame": "effect", "rule_name": "A"}


@pytest.mark.parametrize("card", [
    _OK, {**_OK, "x": 1}, {k: v for k, v in _OK.items() if k != "name"},
    {**_OK, "kind": "bogus"}, {**_OK, "released": {"tcg": "2020-13-01"}},
    {**_OK, "released": {"tcg": "2020-01-02"}}, {**_OK, "atk": 1.5}, {**_OK, "atk": "12"},
    {**_OK, "atk": True}, {**_OK, "atk": 1e16}, {**_OK, "alt_passcodes": [1, "x"]},
    {**_OK, "names": {"en": None}}, {**_OK, "master_duel": "yes"},
    {**_OK, "passcode": None, "x": 2}, {**_OK, "rule_name_evidence": {"a": 1}},
    {**_OK, "scopes": "ocg_only"}, {**_OK, "scopes": ["ocg_only", "ocg_only"]},
    {**_OK, "konami_id": 2**70}, {**_OK, "text": b"x"}, {**_OK, "frame": None},
])
def test_the_import_checks_cards_as_the_schema_does(card: dict[str, Any]) -> None:
    """`validate_cards` (a TypedDict of the schema's fields, no model per card) accepts and
    refuses exactly what a list of `CardSchema` does, with the same errors."""
    from pydantic import TypeAdapter

    def errors(check: Any) -> list[tuple[Any, ...]] | None:
        try:
            check([card])
        except ValidationError as exc:
            return [(e["loc"], e["msg"]) for e in exc.errors()]
        return None

    models = TypeAdapter(list[CardSchema])  # type: ignore[valid-type]
    assert errors(validate_cards) == errors(models.validate_python)
