"""`deckcheck.decks.diff`: what differs between two decks, by section, artworks folded."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from deckcheck.decks.diff import deck_hash, diff_decks, format_diff
from deckcheck.decks.model import Deck, Entry, Location, ReadProblem


def test_identical_decks_say_so(kit: SimpleNamespace, pool: Any) -> None:
    a = kit.make_deck(kit.LEGAL_MAIN, kit.LEGAL_EXTRA, kit.LEGAL_SIDE, source="a.ydk")
    b = kit.make_deck(kit.LEGAL_MAIN, kit.LEGAL_EXTRA, kit.LEGAL_SIDE, source="b.ydk")
    d = diff_decks(a, b, pool)
    assert d.identical and d.changes == [] and d.moves == []
    assert format_diff(d) == "The decks are identical (main 40, extra 3, side 2)."


def test_alternate_artwork_is_the_same_card(kit: SimpleNamespace, pool: Any) -> None:
    a = kit.make_deck([(kit.ASH, 3), (kit.MAXX_C, 1)])
    b = kit.make_deck([(kit.ASH_ALT, 2), (kit.MAXX_C, 1), (kit.ASH, 1)])
    assert diff_decks(a, b, pool).identical
    assert deck_hash(a, pool) == deck_hash(b, pool)
    # without a pool that knows the artwork, they differ
    assert not diff_decks(a, b, None).identical


def test_changes_moves_and_totals(kit: SimpleNamespace, pool: Any) -> None:
    a = kit.make_deck([(kit.ASH, 3), (kit.MAXX_C, 3)], [(kit.ACCESSCODE, 1)], [(kit.VEILER, 2)])
    b = kit.make_deck([(kit.ASH, 2), (kit.MAXX_C, 3), (kit.VEILER, 2)], [(kit.ACCESSCODE, 1)],
                      [(kit.ASH_ALT, 1), (kit.NIBIRU, 3)])
    d = diff_decks(a, b, pool, a_label="registered.ydk", b_label="played.ydk")
    assert not d.identical
    assert format_diff(d) == "\n".join([
        "Main: Ash Blossom & Joyous Spring 3 \u2192 2 (\u22121)",
        "Main: Effect Veiler 0 \u2192 2 (+2)",
        "Side: Ash Blossom & Joyous Spring 0 \u2192 1 (+1)",
        "Side: Effect Veiler 2 \u2192 0 (\u22122)",
        "Side: Nibiru, the Primal Being 0 \u2192 3 (+3)",
        "Moved: Ash Blossom & Joyous Spring \u00d71 main \u2192 side",
        "Moved: Effect Veiler \u00d72 side \u2192 main",
        "Totals: main 6 \u2192 7, extra 1 \u2192 1, side 2 \u2192 4",
    ])
    data = d.model_dump(mode="json")
    assert data["a"] == "registered.ydk" and data["b"] == "played.ydk"
    assert data["changes"][0] == {"section": "main", "card": "Ash Blossom & Joyous Spring",
                                  "passcode": kit.ASH, "before": 3, "after": 2}
    assert data["moves"][1] == {"card": "Effect Veiler", "passcode": kit.VEILER, "count": 2,
                                "from_section": "side", "to_section": "main"}


def test_unknown_passcodes_compare_as_written(kit: SimpleNamespace, pool: Any) -> None:
    a = kit.make_deck([(99999999, 2)])
    b = kit.make_deck([(99999999, 3)])
    assert format_diff(diff_decks(a, b, pool)).splitlines()[0] == "Main: 99999999 2 \u2192 3 (+1)"


def test_hash_depends_on_section_not_order(kit: SimpleNamespace, pool: Any) -> None:
    a = kit.make_deck([(kit.ASH, 3), (kit.MAXX_C, 3)])
    b = kit.make_deck([(kit.MAXX_C, 3), (kit.ASH, 3)])
    c = kit.make_deck([(kit.MAXX_C, 3)], side=[(kit.ASH, 3)])
    assert deck_hash(a, pool) == deck_hash(b, pool) != deck_hash(c, pool)


def test_hash_counts_entries_written_as_unknown_names(pool: Any) -> None:
    def named(*entries: tuple[str, int]) -> Deck:
        return Deck(main=[Entry(passcode=None, written=w, count=n) for w, n in entries])

    two = deck_hash(named(("Ash Blosom", 2)), pool)
    assert two == deck_hash(named(("ash blosom", 1), ("ASH BLOSOM", 1)), pool)
    assert two != deck_hash(named(("Ash Blosom", 3)), pool)
    assert two != deck_hash(named(("Maxx D", 2)), pool)
    assert two != deck_hash(named(), pool)


def test_unreadable_entries_are_noted_and_never_identical(kit: SimpleNamespace,
                                                          pool: Any) -> None:
    a = kit.make_deck([(kit.ASH, 3)])
    b = kit.make_deck([(kit.ASH, 3)])
    b.problems = [ReadProblem(kind="unknown-name", message="No card.", written=w,
                              location=Location(source="b.txt", line=n))
                  for n, w in ((4, "Ash Blosom"), (7, "Maxx D"))]
    d = diff_decks(a, b, pool)
    assert not d.identical and d.changes == []
    assert d.notes == ["B has 2 entries (b.txt:4, …) that could not be read and are not "
                       "compared."]
