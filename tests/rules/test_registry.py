"""Every registered rule is documented and uniquely coded; selection by code, prefix, name."""

from __future__ import annotations

import re

import pytest

from deckcheck.errors import UnknownRule
from deckcheck.rules import registry
from deckcheck.rules.registry import RULES, selected


@pytest.mark.parametrize("code", list(RULES))
def test_rule_is_complete(code: str) -> None:
    mod = RULES[code]
    assert mod.CODE == code
    assert re.fullmatch(r"DC\d{3}", mod.CODE)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", mod.NAME), mod.NAME
    assert mod.SEVERITY in ("error", "warning", "info")
    assert callable(mod.check)
    doc = mod.__doc__ or ""
    assert doc.startswith(f"{mod.NAME}:"), "the docstring starts with the rule's name"
    assert "Passing" in doc and "Failing" in doc, "the docstring has both examples"
    assert f"-> {code}" in doc, "the failing example shows the violation it produces"


def test_codes_and_names_are_unique() -> None:
    names = [m.NAME for m in RULES.values()]
    assert len(set(names)) == len(names)
    assert len({m.CODE for m in RULES.values()}) == len(RULES)
    assert list(RULES) == sorted(RULES), "registry order is code order"


def test_every_rule_module_is_registered() -> None:
    import pkgutil

    import deckcheck.rules as pkg

    modules = {m.name for m in pkgutil.iter_modules(pkg.__path__)
               if not m.name.startswith("_")} - {"registry", "context", "violation"}
    assert modules == {m.__name__.rsplit(".", 1)[1] for m in RULES.values()}


def _codes(codes: list[str]) -> list[str]:
    assert all(isinstance(c, str) for c in codes)
    return codes


def test_select_by_prefix_code_and_name() -> None:
    assert _codes(selected(["DC2"])) == [c for c in RULES if c.startswith("DC2")]
    assert _codes(selected(["DC101", "unknown-card"])) == ["DC101", "DC401"]
    assert _codes(selected(None)) == list(RULES)


def test_ignore_and_the_more_specific_pattern_wins() -> None:
    assert "DC201" not in _codes(selected(None, ["DC201"]))
    assert _codes(selected(["DC2"], ["DC201"])) == [c for c in RULES
                                                  if c.startswith("DC2") and c != "DC201"]
    assert _codes(selected(["DC201"], ["DC2"])) == ["DC201"]
    assert _codes(selected(None, ["DC"])) == []
    assert _codes(selected(["DC201", "DC202"], ["DC201"])) == ["DC202"]  # a tie: ignored


def test_unknown_pattern_is_one_sentence_error() -> None:
    with pytest.raises(UnknownRule, match="XX9"):
        selected(["XX9"])
    with pytest.raises(UnknownRule):
        registry.selected(None, ["no-such-rule"])


#: The rules each shipped format leaves out (`APPLIES`), with its list in force in November
#: 2026. Only Speed Duel uses Skill Cards (DC122 requires one; DC121 forbids them elsewhere);
#: Edison, GOAT, Rush and Speed lists are whitelists (DC205); Genesys, Rush and Speed lists
#: have limit groups (DC206); only Genesys has a points cap and banned frames (DC301, DC302).
LEFT_OUT = {
    "edison": ["DC122", "DC206", "DC301", "DC302"],
    "genesys": ["DC122", "DC205", "DC206"],
    "goat": ["DC122", "DC206", "DC301", "DC302"],
    "master-duel": ["DC122", "DC205", "DC206", "DC301", "DC302"],
    "ocg": ["DC122", "DC205", "DC206", "DC301", "DC302"],
    "rush": ["DC122", "DC301", "DC302"],
    "speed": ["DC121", "DC301", "DC302"],
    "tcg": ["DC122", "DC205", "DC206", "DC301", "DC302"],
    "traditional": ["DC122", "DC205", "DC206", "DC301", "DC302"],
    "worlds": ["DC122", "DC205", "DC206", "DC301", "DC302"],
}


@pytest.mark.parametrize("fid", sorted(LEFT_OUT))
def test_the_rules_a_checker_runs_under_each_shipped_format(fid: str) -> None:
    """`registry.Active` (what a `Checker` runs) keeps every selected rule but those that
    `APPLIES` says cannot find anything under the format, its list and points cap, in
    registry order; `--select`/`--ignore` choose among those."""
    import datetime as dt

    from deckcheck.checker import Checker

    checker = Checker(fid, dt.date(2026, 11, 1))
    assert [code for code, _ in checker._active.rules] == [
        code for code in registry.MODULES if code not in LEFT_OUT[fid]]
    chosen = Checker(fid, dt.date(2026, 11, 1), select=["DC2"], ignore=["DC201"])
    assert [code for code, _ in chosen._active.rules] == [
        code for code in registry.MODULES
        if code.startswith("DC2") and code != "DC201" and code not in LEFT_OUT[fid]]
