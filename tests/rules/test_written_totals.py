from __future__ import annotations

from rulekit import codes, deck, only, run

from deckcheck.decks.model import Location, ReadProblem


def test_clean_deck_passes() -> None:
    assert "DC407" not in codes(run(deck()))


def test_a_written_total_that_differs_fails() -> None:
    p = ReadProblem(kind="written-total", section="main", written="Total Monster Cards: 20",
                    count=20, location=Location(source="form.xlsx", sheet="Deck", cell="B25"),
                    message="The total written at B25 ('Total Monster Cards: 20') is 20, but 18 "
                            "cards are listed; correct the total or the list.")
    r = run(deck(problems=[p]))
    v = only(r, "DC407")
    assert (v.place, v.count, v.severity) == ("form.xlsx:Deck!B25", 20, "error")
    assert v.message == p.message
    assert r.verdict == "illegal" and "DC405" not in codes(r)
