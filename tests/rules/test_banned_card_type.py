from __future__ import annotations

from rulekit import ARCRAY, DECODE, ODD_PEN, XFILLER, codes, deck, only, run
from test_points_over_cap import genesys


def test_fusion_monsters_pass_in_genesys() -> None:
    assert codes(run(deck(extra=[(XFILLER[0], 1)]), genesys())) == []


def test_link_monster_in_genesys_fails() -> None:
    v = only(run(deck(extra=[(DECODE, 1)], side=[(DECODE, 1)]), genesys()), "DC302")
    assert (v.card, v.count, v.section) == ("Decode Talker", 2, "extra")
    assert v.message == ("Decode Talker is a Link Monster, and Genesys does not allow Link "
                         "Monsters (also at line 45).")


def test_pendulum_monsters_fail_by_glob() -> None:
    r = run(deck([(ODD_PEN, 1)], extra=[(ARCRAY, 1)]), genesys())
    assert [v.card for v in r.violations if v.code == "DC302"] == [
        "Odd-Eyes Pendulum Dragon", "Odd-Eyes Arcray Dragon"]
    assert "does not allow Pendulum Monsters" in r.violations[0].message


def test_link_monster_in_tcg_passes() -> None:
    assert codes(run(deck(extra=[(DECODE, 1)]))) == []
