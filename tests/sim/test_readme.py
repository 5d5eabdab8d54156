"""The README's goldfishing-profile section: every TOML example in it parses, compiles against
a deck holding its cards and runs; the example profile points at a section that exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from simkit import expand, extra_monster, fillers, make_pool, monster, spell, trap

from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.profile import parse_profile
from deckcheck.sim.goldfish.report import odds

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = "Goldfishing profiles"


def _section() -> str:
    start = README.index(f"### {SECTION}\n")
    end = README.index("\n## ", start)
    return README[start:end]


EXAMPLES = re.findall(r"```toml\n(.*?)```", _section(), re.S)

CARDS = [
    monster(1, "Snake-Eye Ash", 1, attribute="FIRE", archetypes=("Snake-Eye",), race="Pyro"),
    monster(2, "Snake-Eye Oak", 1, attribute="FIRE", archetypes=("Snake-Eye",), race="Pyro"),
    spell(3, "Bonfire"),
    monster(4, "Ash Blossom & Joyous Spring", 3, attribute="FIRE", race="Zombie"),
    monster(5, "Effect Veiler", 1, attribute="LIGHT", race="Spellcaster"),
    spell(6, "WANTED: Seeker of Sinful Spoils"),
    monster(7, "Diabellstar the Black Witch", 6, attribute="DARK", race="Spellcaster"),
    spell(8, "Called by the Grave", "Quick-Play"),
    spell(9, "Pot of Prosperity"),
    spell(10, "Allure of Darkness"),
    spell(11, "Trade-In"),
    spell(12, "Upstart Goblin"),
    spell(13, "Pot of Desires"),
    monster(14, "Big Dark Eight", 8, attribute="DARK", race="Dragon"),
    trap(15, "Some Trap"),
    monster(16, "Droll & Lock Bird", 1, attribute="WIND", race="Winged Beast"),
    spell(17, "Harpie's Feather Duster"),
]
EXTRA = [extra_monster(100 + i, f"Fusion {i}") for i in range(15)]
POOL = make_pool(CARDS, EXTRA, fillers(40))


def test_the_section_exists_and_has_examples() -> None:
    assert len(EXAMPLES) >= 4


def test_the_example_profile_points_at_the_section() -> None:
    text = (ROOT / "examples" / "tcg-legal.profile.toml").read_text(encoding="utf-8")
    m = re.search(r'README, section "([^"]+)"', text)
    assert m is not None and m.group(1) == SECTION


@pytest.mark.parametrize("i", range(len(EXAMPLES)))
def test_each_readme_example_runs(i: int) -> None:
    pf = parse_profile(tomllib.loads(EXAMPLES[i]), f"README example {i + 1}")
    deck = expand([(c, 2) for c in CARDS]) + fillers(10)
    cp = compile_profile(pf, deck, POOL, f"README example {i + 1}", extra=len(EXTRA))
    assert cp.notes == []
    rep = odds(cp, hands=3000, seed=1, turns=2, with_sensitivity=False)
    for res in rep.results:
        rates = [r.probability for r in res.goal().by_turn]
        assert 0 <= rates[0] <= 1 and len(rates) == 2
    if pf.side:  # a side plan: games 2 and 3 from a deck file with a Side Deck
        from simkit import make_deck

        from deckcheck.decks.model import Deck
        from deckcheck.sim.goldfish.side import sided_odds

        main = make_deck([(c, 2) for c in CARDS] + [(f, 1) for f in fillers(10)])
        side = make_deck([(c, 3) for c in CARDS])
        sided = sided_odds(pf, Deck(name="r", source="r.ydk", main=main.main, extra=[],
                                    side=side.main), POOL, "README", hands=3000, seed=1)
        assert [r.going for r in sided] == ["first", "second"]


def _worked(conditions: dict, overlap: bool = False) -> dict[str, str]:  # type: ignore[type-arg]
    from deckcheck.sim.goldfish.exact import exact_odds

    ash = CARDS[3]
    data = {"options": {"overlap": overlap},
            "roles": {"a": [ash.name], "b": [ash.name]}, "conditions": conditions}
    cp = compile_profile(parse_profile(data), expand([(ash, 3)]) + fillers(37), POOL, "t")
    return {n: f"{float(p) * 100:.2f}%" for n, p in exact_odds(cp, 5).probabilities.items()}


def test_the_worked_examples_of_overlap_not_and_not_equal_are_right() -> None:
    both = {"both": {"all": ["a >= 1", "b >= 1"]}, "not both": {"not": "both"},
            "ne": {"all": ["a >= 1", "b != 0"]}}
    plain, lap = _worked(both), _worked(both, overlap=True)
    text = " ".join(_section().split())
    assert plain["both"] == "3.64%" and lap["both"] == "33.76%"
    assert plain["not both"] == "96.36%" and lap["not both"] == "66.24%"
    assert plain["ne"] == "33.76%"
    for claim in ("needs two Ash without overlap (3.64%) and one Ash with `overlap = true` "
                  "(33.76%)", "is 96.36% without overlap (zero or one Ash: 100% − 3.64%), "
                  "66.24% with it", '`{ all = ["a >= 1", "b != 0"] }` is 33.76% without '
                  'overlap'):
        assert claim in text
