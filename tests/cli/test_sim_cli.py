"""`deckcheck draw` and `deckcheck odds` through CliRunner, on hand-made cards."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool
from deckcheck.cli.common import Ctx
from deckcheck.cli.main import cli


def _monster(pc: int, name: str) -> Card:
    return Card(passcode=pc, name=name, kind=Kind.MONSTER, frame=Frame.EFFECT, level=4,
                rule_name=name)


X = _monster(100, "Card X")
POT = Card(passcode=200, name="Pot", kind=Kind.SPELL, frame=Frame.SPELL, race="Normal",
           rule_name="Pot")
WALL = Card(passcode=300, name="Wall", kind=Kind.TRAP, frame=Frame.TRAP, race="Normal",
            rule_name="Wall")
FUSION = Card(passcode=400, name="Fusion", kind=Kind.MONSTER, frame=Frame.FUSION, level=8,
              rule_name="Fusion")
FILL = [_monster(1000 + i, f"Filler {i}") for i in range(37)]
SKILL = Card(passcode=500, name="Skill Card", kind=Kind.SKILL, frame=Frame.SKILL,
             rule_name="Skill Card")
POOL = MemoryPool([X, POT, WALL, FUSION, SKILL, *FILL])
NEED_X = 1 - Fraction(comb(37, 5), comb(40, 5))
NEED_X2 = 1 - Fraction(comb(37, 6), comb(40, 6))


@pytest.fixture(autouse=True)
def _pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Ctx, "pool", lambda self, quiet=False: POOL)


def ydk(path: Path, main: list[int], extra: list[int] = ()) -> str:  # type: ignore[assignment]
    path.write_text("#main\n" + "".join(f"{p}\n" for p in main) + "#extra\n"
                    + "".join(f"{p}\n" for p in extra) + "!side\n")
    return str(path)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def x_deck(tmp_path: Path) -> str:
    return ydk(tmp_path / "x.ydk", [X.passcode] * 3 + [c.passcode for c in FILL],
               [FUSION.passcode])


def test_draw_exact_output(tmp_path: Path) -> None:
    deck = ydk(tmp_path / "pots.ydk", [POT.passcode] * 40, [FUSION.passcode] * 3)
    res = run("draw", deck, "--seed", "5", "--turns", "3", "-n", "2")
    assert res.exit_code == 0, res.output
    assert res.output == (f"Deck: {deck}, going first, seed 5\n"
                          "Hand 1:\n  Spell (5): Pot x5\n  Turn 2 draw: Pot\n  Turn 3 draw: Pot\n"
                          "Hand 2:\n  Spell (5): Pot x5\n  Turn 2 draw: Pot\n  Turn 3 draw: Pot\n")
    res = run("draw", deck, "--seed", "5", "--second")
    assert res.output == (f"Deck: {deck}, going second, seed 5\n"
                          "Hand 1:\n  Spell (5): Pot x5\n  Turn 1 draw: Pot\n")


def test_draw_groups_and_json(tmp_path: Path) -> None:
    deck = ydk(tmp_path / "mix.ydk",
               [X.passcode] * 14 + [POT.passcode] * 13 + [WALL.passcode] * 13)
    a = run("draw", deck, "--seed", "9", "-n", "5", "--turns", "2")
    assert a.output == run("draw", deck, "--seed", "9", "-n", "5", "--turns", "2").output
    assert a.output != run("draw", deck, "--seed", "10", "-n", "5", "--turns", "2").output
    res = run("draw", deck, "--seed", "9", "-n", "5", "--turns", "2", "--json")
    data = json.loads(res.output)
    assert data["seed"] == 9 and data["going"] == "first" and len(data["hands"]) == 5
    for hand, block in zip(data["hands"], a.output.split("Hand ")[1:], strict=True):
        assert len(hand["opening"]) == 5 and list(hand["draws"]) == ["2"]
        assert len(hand["hand"]) == 6
        groups = hand["groups"]
        assert set(groups) <= {"Monster", "Spell", "Trap"}
        assert sum(i["count"] for g in groups.values() for i in g) == 5
        for g, items in groups.items():
            assert f"  {g} ({sum(i['count'] for i in items)}): " in block
        assert f"Turn 2 draw: {hand['draws']['2'][0]}" in block


def test_draw_json_hand_is_the_hand_after_the_end_phases(tmp_path: Path) -> None:
    # going first, turn 4: 5 + 3 draws seen; turn 3's End Phase discards the 7th card
    deck = ydk(tmp_path / "mix.ydk",
               [X.passcode] * 14 + [POT.passcode] * 13 + [WALL.passcode] * 13)
    res = run("draw", deck, "--seed", "3", "-n", "4", "--turns", "4", "--json")
    for hand in json.loads(res.output)["hands"]:
        seen = hand["opening"] + [c for t in ("2", "3", "4") for c in hand["draws"][t]]
        assert len(seen) == 8
        assert list(hand["discarded"]) == ["3"] and len(hand["discarded"]["3"]) == 1
        assert len(hand["hand"]) == 7
        assert sorted(hand["hand"] + hand["discarded"]["3"]) == sorted(seen)
    text = run("draw", deck, "--seed", "3", "--turns", "4").output
    assert "  Turn 3 End Phase discard: " in text


def test_draw_without_seed_prints_one_that_repeats(x_deck: str) -> None:
    res = run("draw", x_deck, "-n", "3")
    seed = res.output.splitlines()[0].rsplit("seed ", 1)[1]
    again = run("draw", x_deck, "-n", "3", "--seed", seed)
    assert again.output == res.output


def test_draw_unknown_card_is_one_line(tmp_path: Path) -> None:
    deck = ydk(tmp_path / "bad.ydk", [12345] + [POT.passcode] * 39)
    res = run("draw", deck)
    assert res.exit_code == 2
    assert res.output.startswith("deckcheck: Passcode 12345 (")
    assert res.output.count("\n") == 1 and "Traceback" not in res.output


def test_odds_exact_output(x_deck: str) -> None:
    res = run("odds", x_deck, "--need", "Card X>=1", "--exact", "--no-sensitivity")
    assert res.exit_code == 0, res.output
    p1, p2 = float(NEED_X) * 100, float(NEED_X2) * 100
    fail = comb(37, 5) / comb(40, 5) * 100
    w = len("  Card X>=1") + 2
    assert res.output == (
        f"Deck: {x_deck} (40 cards)\n"
        "Profile: command line\n"
        "Engine: exact\n"
        "Policy: no overlap: each card fills at most one 'at least' requirement (exact "
        "matching); hand limit: at the End Phase cards that only 'at most' limits count go "
        "first, then cards without roles, then the least needed.\n"
        "\n"
        f"{'':{w}}{'going first':>22}{'going second':>22}\n"
        f"{'success':{w}}{f'{p1:6.2f}% ({NEED_X})':>22}{f'{p2:6.2f}% ({NEED_X2})':>22}\n"
        f"{'  Card X>=1':{w}}{f'{p1:6.2f}% ({NEED_X})':>22}{f'{p2:6.2f}% ({NEED_X2})':>22}\n"
        "\n"
        "Most common failing hands (going first, turn 1):\n"
        f"  {fail:6.2f}%  5 other\n")


def test_odds_json_has_exact_fractions(x_deck: str) -> None:
    res = run("odds", x_deck, "--need", "Card X", "--json", "--turns", "2", "--first")
    data = json.loads(res.output)
    assert data["engine"] == "exact" and data["seed"] is None
    (first,) = data["results"]
    rates = first["goals"][0]["by_turn"]
    assert [r["fraction"] for r in rates] == [str(NEED_X), str(NEED_X2)]
    assert rates[0]["percent"] == round(float(NEED_X) * 100, 4)
    assert {d["card"] for d in data["sensitivity"]} == {"Card X", *(c.name for c in FILL)}
    x = next(d for d in data["sensitivity"] if d["card"] == "Card X")
    assert x["plus_one"] is None
    assert x["minus_one"] == pytest.approx(1 - comb(37, 5) / comb(39, 5))  # 2 X in 39


def test_odds_monte_carlo_chart_and_profile_next_to_deck(tmp_path: Path) -> None:
    deck = ydk(tmp_path / "d.ydk", [X.passcode] * 3 + [POT.passcode] * 2
               + [c.passcode for c in FILL[:35]])
    (tmp_path / "d.profile.toml").write_text(
        'success = "Card X"\n[cards.Pot]\ndraw = 2\n')
    chart = tmp_path / "c.png"
    res = run("odds", deck, "--hands", "20000", "--seed", "3", "--turns", "2",
              "--chart", str(chart), "--no-sensitivity")
    assert res.exit_code == 0, res.output
    assert f"Profile: {tmp_path / 'd.profile.toml'}" in res.output
    assert "Engine: Monte Carlo (20,000 hands, seed 3, ± is the 95% Wilson interval)" in \
        res.output
    assert "draw cards: while the hand does not yet succeed" in res.output
    assert "Success by turn:" in res.output
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert res.output.endswith(f"Chart written to {chart.resolve()}\n")


def test_odds_compare_decks(x_deck: str, tmp_path: Path) -> None:
    other = ydk(tmp_path / "y.ydk", [X.passcode] * 1 + [c.passcode for c in FILL] + [
        POT.passcode] * 2)
    res = run("odds", x_deck, "--need", "Card X", "--compare", other, "--no-sensitivity",
              "--json")
    data = json.loads(res.output)
    rows = data["compare"]["rows"]
    assert [r["going"] for r in rows] == ["first", "second"]
    assert rows[0]["a"] == pytest.approx(float(NEED_X))
    assert rows[0]["b"] == pytest.approx(1 - comb(39, 5) / comb(40, 5))
    text = run("odds", x_deck, "--need", "Card X", "--compare", other, "--no-sensitivity")
    assert f"A/B: A = {x_deck}, B = {other} (Monte Carlo rows: the same hands" in text.output
    assert rows[0]["low"] == rows[0]["high"] == rows[0]["difference"]


@pytest.mark.parametrize("args, message", [
    ([], "deckcheck: No profile for "),
    (["--need", "Card X", "--exact", "--hands", "10"], "--exact and --hands exclude"),
    (["--need", "Card Z"], "'Card Z' is neither a role nor a known card"),
    (["--profile", "nope.toml"], "No profile file nope.toml"),
])
def test_odds_errors_are_one_line(x_deck: str, args: list[str], message: str) -> None:
    res = run("odds", x_deck, *args)
    assert res.exit_code == 2
    assert message in res.output and res.output.count("\n") == 1


def test_odds_exact_refuses_draw_cards(tmp_path: Path) -> None:
    deck = ydk(tmp_path / "d.ydk", [X.passcode] * 3 + [POT.passcode] * 2
               + [c.passcode for c in FILL[:35]])
    prof = tmp_path / "p.toml"
    prof.write_text('success = "Card X"\n[cards.Pot]\nexcavate = 3\n'
                    '[cards."Filler 0"]\ndraw = 1\n')
    res = run("odds", deck, "--profile", str(prof), "--exact")
    assert res.exit_code == 2 and "needs the Monte Carlo engine" in res.output


def test_odds_compare_profile_and_role_options(x_deck: str, tmp_path: Path) -> None:
    a = tmp_path / "a.toml"
    a.write_text('[roles]\nx = ["Card X"]\n[conditions]\n"an x" = "x >= 1"\n')
    b = tmp_path / "b.toml"
    b.write_text('[conditions]\n"two x" = "Card X >= 2"\n')
    res = run("odds", x_deck, "--profile", str(a), "--compare-profile", str(b), "--json",
              "--no-sensitivity", "--first")
    data = json.loads(res.output)
    (row,) = data["compare"]["rows"]
    assert (data["compare"]["label_a"], data["compare"]["label_b"]) == (str(a), str(b))
    assert row["a"] == pytest.approx(float(NEED_X))
    two = (3 * comb(37, 3) + comb(37, 2)) / comb(40, 5)
    assert row["b"] == pytest.approx(two)
    assert row["difference"] == pytest.approx(two - float(NEED_X))
    # --role and --need add to a profile file
    res = run("odds", x_deck, "--profile", str(a), "--role", 'f="Filler 0,Filler 1"',
              "--need", "f>=1", "--json", "--no-sensitivity", "--first")
    data = json.loads(res.output)
    names = [g["name"] for g in data["results"][0]["goals"]]
    assert names == ["success", "an x", "f>=1"]
    both = data["results"][0]["goals"][0]["by_turn"][0]["probability"]
    none_f = comb(38, 5) / comb(40, 5)
    none_x = comb(37, 5) / comb(40, 5)
    neither = comb(35, 5) / comb(40, 5)
    assert both == pytest.approx(1 - none_f - none_x + neither)


def test_speed_duel_decks_goldfish_with_four_cards(tmp_path: Path) -> None:
    deck = ydk(tmp_path / "speed.ydk", [SKILL.passcode, X.passcode, X.passcode, X.passcode]
               + [c.passcode for c in FILL[:17]])
    res = run("draw", deck, "-f", "speed", "--seed", "1", "--json")
    assert res.exit_code == 0, res.output
    (hand,) = json.loads(res.output)["hands"]
    assert len(hand["opening"]) == 4 and "Skill Card" not in hand["opening"]
    res = run("odds", deck, "-f", "speed", "--need", "Card X", "--no-sensitivity", "--json")
    assert res.exit_code == 0, res.output
    first, second = json.loads(res.output)["results"]
    assert first["goals"][0]["by_turn"][0]["fraction"] == str(
        1 - Fraction(comb(17, 4), comb(20, 4)))
    assert second["goals"][0]["by_turn"][0]["fraction"] == str(
        1 - Fraction(comb(17, 5), comb(20, 5)))
