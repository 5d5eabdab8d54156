from __future__ import annotations

from rulekit import FILLER, SKILL, codes, deck, only, run, speed

from deckcheck.decks.model import Location, ReadProblem
from deckcheck.formats.model import SizeRange


def test_forty_cards_pass() -> None:
    assert codes(run(deck(fill=40))) == []


def test_thirty_nine_cards_fail() -> None:
    v = only(run(deck(fill=39)), "DC101")
    assert (v.count, v.limit, v.section, v.card) == (39, 40, "main", None)
    assert v.place == "deck.ydk"
    assert v.message == "The Main Deck has 39 cards; TCG Advanced allows 40 to 60."


def test_too_many_points_at_the_entry_that_goes_over() -> None:
    d = deck([(FILLER[0], 3)] * 7, fill=40)  # 40 + 21 = 61 cards, one per line from line 2
    v = only(run(d), "DC101")
    assert (v.count, v.limit) == (61, 60)
    assert v.place == "deck.ydk:62"  # the 61st card


def test_skill_card_is_not_counted_in_speed_duel() -> None:
    d = deck([(SKILL, 1)], fill=20)
    r = run(d, speed())
    assert r.sizes["main"] == 20
    assert "DC101" not in codes(r)
    assert "DC101" in codes(run(deck(fill=19), speed(main=SizeRange(min=20, max=30))))


def _unknown(n: int, written: str = "Ash Blosom", line: int = 50) -> ReadProblem:
    return ReadProblem(kind="unknown-name", message=f'No card is named "{written}".',
                       section="main", written=written, count=n,
                       location=Location(source="deck.ydk", line=line))


def test_an_unknown_name_is_one_problem_not_a_size_error_too() -> None:
    """A typo on a 40-card list is DC401 alone, not also "The Main Deck has 37 cards"."""
    d = deck(fill=37)
    d.problems.append(_unknown(3))
    r = run(d)
    assert codes(r) == ["DC401"]
    assert r.sizes["main"] == 37  # what could be resolved


def test_written_and_known_counts_both_when_the_written_count_is_wrong() -> None:
    d = deck(fill=36)
    d.problems.append(_unknown(2))
    v = only(run(d), "DC101")
    assert (v.count, v.limit) == (38, 40)
    assert v.message == ("The Main Deck has 38 cards written (36 known, 2 unknown); TCG "
                         "Advanced allows 40 to 60.")


def test_unknown_passcodes_count_as_written() -> None:
    d = deck([(12345678, 2)], fill=37)  # 39 written, 2 of them unknown to the pool
    v = only(run(d), "DC101")
    assert v.message == ("The Main Deck has 39 cards written (37 known, 2 unknown); TCG "
                         "Advanced allows 40 to 60.")
    assert "DC101" not in codes(run(deck([(12345678, 2)], fill=38)))
