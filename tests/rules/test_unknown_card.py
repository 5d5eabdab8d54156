from __future__ import annotations

from rulekit import codes, deck, only, run

from deckcheck.decks.model import Location, ReadProblem


def test_known_cards_pass() -> None:
    assert "DC401" not in codes(run(deck()))


def test_unknown_passcode_fails_once_per_passcode() -> None:
    r = run(deck([(12345678, 2)]))
    v = only(r, "DC401")
    assert (v.card, v.passcode, v.count, v.place) == ("12345678", 12345678, 2, "deck.ydk:40")
    assert v.message == ("Passcode 12345678 is not a card deckcheck knows; check the number, or "
                         "update the card database if the card is new (also at line 41).")
    assert r.verdict == "illegal"


def test_unknown_name_from_the_reader_has_suggestions() -> None:
    problem = ReadProblem(kind="unknown-name", message="unknown card", section="main",
                          written="Ash Blosom & Joyous Spring", count=3,
                          location=Location(source="list.txt", line=4))
    v = only(run(deck(problems=[problem])), "DC401")
    assert v.suggestions == ["Ash Blossom & Joyous Spring"]
    assert v.message == ('No card is named "Ash Blosom & Joyous Spring" (did you mean Ash '
                         'Blossom & Joyous Spring?).')
    assert (v.place, v.count, v.section) == ("list.txt:4", 3, "main")


def test_reader_suggestions_are_kept() -> None:
    problem = ReadProblem(kind="ambiguous-name", message="\"Gaia\" matches several cards",
                          written="Gaia", suggestions=("Gaia The Fierce Knight",))
    v = only(run(deck(problems=[problem])), "DC401")
    assert v.message == "\"Gaia\" matches several cards."
    assert v.suggestions == ["Gaia The Fierce Knight"] and v.place is None


def test_unknown_passcode_problem_is_not_reported_twice() -> None:
    problem = ReadProblem(kind="unknown-passcode", message="unknown passcode 12345678",
                          written="12345678", location=Location(source="deck.ydk", line=40))
    assert codes(run(deck([(12345678, 1)], problems=[problem]))).count("DC401") == 1


def test_suggestions_have_a_budget() -> None:
    """9,990 made-up names once took 42 s: suggestions stop after SUGGEST_MAX look-ups or
    SUGGEST_SECONDS, and a notice says so; every name is still reported. The work is
    counted (look-ups made), not timed."""
    from rulekit import make_pool

    from deckcheck.rules import unknown_card

    pool = make_pool()
    calls = []

    def counting_suggest(name: str, limit: int = 3) -> list[str]:
        calls.append(name)
        return ["Pot of Greed"]

    pool.suggest = counting_suggest  # type: ignore[method-assign]
    problems = [ReadProblem(kind="unknown-name", message="unknown card", section="main",
                            written=f"Made-up Card {i}", count=1,
                            location=Location(source="list.csv", line=i + 2))
                for i in range(2000)]
    r = run(deck(problems=problems), pool=pool)
    found = [v for v in r.violations if v.code == "DC401"]
    assert len(found) == 2000
    assert len(calls) == unknown_card.SUGGEST_MAX
    assert sum(1 for v in found if v.suggestions) == unknown_card.SUGGEST_MAX
    assert (f'"Did you mean" suggestions were looked up for the first '
            f"{unknown_card.SUGGEST_MAX} unknown names only (1975 more have none).") in r.notices
