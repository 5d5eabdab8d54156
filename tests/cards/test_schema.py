"""`Card` (plain) and `CardSchema` (strict, checked at import) agree on fields and defaults,
and a card dumped to the store's JSON reads back as the same card."""

from __future__ import annotations

from deckcheck.cards.builtin import builtin_cards
from deckcheck.cards.model import Card
from deckcheck.cards.schema import CardSchema


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
