from __future__ import annotations

from rulekit import codes, deck, only, run

from deckcheck.decks.model import Location, ReadProblem


def test_clean_deck_passes() -> None:
    assert "DC405" not in codes(run(deck()))


def test_bad_count_fails() -> None:
    p = ReadProblem(kind="bad-count", message='"x3" is not a number of copies', section="main",
                    written="x3 Pot of Greed", location=Location(source="list.txt", line=7))
    r = run(deck(problems=[p]))
    v = only(r, "DC405")
    assert (v.place, v.card, v.message) == ("list.txt:7", "x3 Pot of Greed",
                                               '"x3" is not a number of copies.')
    assert r.verdict == "illegal"
