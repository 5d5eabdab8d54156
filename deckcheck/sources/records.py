"""The source record types: what every card-data source yields and the import layer reads.

Each source (`deckcheck.sources.<name>`) turns what its project publishes into *source
records* (`SourceRecord`: plain dicts, typed, keyed like `deckcheck.cards.model.Card` fields,
holding only what the source knows), plus

- ``alias`` (cdb): the id this record points at (alternate artwork or rule name),
- ``extra_ids``: more ids for the same card (prerelease ids),
- ``hints``: same-name rule evidence ``[evidence_key, "name"|"id", value, lang]``,
- ``spoke``: evidence keys of texts the source has for the card (silence is an opinion too),
- ``enrich_only``: the record only adds to cards other sources know,
- ``released``: first release per region ("tcg", "ocg", "kr", "sc", "md"…: YYYY-MM-DD; the
  merged card keeps the earliest any source gives),
- ``printed`` / ``tcg_printed``: the card has an official printing (in the TCG): an id of
  100,000,000 or more without one is unofficial (see `deckcheck.imports.merge`),
- ``master_duel``: whether the card is in Master Duel (True wins over False).

A `SourceData` is one source's records with its name, version, origin and coverage: what a
parser gives and `deckcheck.imports.run.import_sources` takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Required, TypedDict

__all__ = ["Hint", "SourceData", "SourceRecord"]

#: same-name rule evidence: [evidence key, "name" | "id", the name or passcode, language or None]
Hint = list[Any]


class SourceRecord(TypedDict, total=False):
    """What one source says about one card (see the module docstring). Plain data: records
    are built, merged and stored by the ten thousand, and the merged card is validated once
    against `deckcheck.cards.schema.CardSchema` by the import."""

    passcode: Required[int]
    name: str
    names: dict[str, str]
    kind: str
    frame: str
    text: str | None
    konami_id: int
    monster_types: list[str]
    level: int | None
    rank: int | None
    link_rating: int | None
    link_arrows: list[str]
    scale: int
    attribute: str | None
    race: str | None
    atk: int | None
    defense: int | None
    archetypes: list[str]
    scopes: list[str]
    cannot_normal_summon: bool
    alt_passcodes: list[int]
    alias: int
    extra_ids: list[int]
    hints: list[Hint]
    spoke: list[str]
    enrich_only: bool
    released: dict[str, str]
    printed: bool
    tcg_printed: bool
    master_duel: bool


@dataclass
class SourceData:
    """One source's records, ready for an import."""

    name: str
    records: list[SourceRecord]
    version: str | None = None
    origin: str | None = None
    #: family of facts -> the last day the data covers ("cards", "tcg", "ocg", "md";
    #: `deckcheck.cards.coverage`)
    covers: dict[str, str] = field(default_factory=dict)
    #: every record holds only dicts, lists, text, whole numbers, booleans and None, by the
    #: parser's construction (no float can reach one): the store writes their JSON without
    #: looking through them first (`deckcheck.imports.writer`)
    plain: bool = False
    #: every record holds, by the parser's construction, only values of the types the card's
    #: fields take (`deckcheck.cards.schema.CardSchema`: a kind and a frame `Card` knows,
    #: dates as YYYY-MM-DD, whole numbers, text): the merge of such records makes valid cards,
    #: so an import of only such sources does not check them again (`imports.run`)
    checked: bool = False
