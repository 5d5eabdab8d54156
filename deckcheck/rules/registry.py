"""The one registry of deck rules: code -> rule module, in the order they run and report.

Every rule module has `CODE` (stable, never reused), `NAME` (kebab-case), `SEVERITY`, a
docstring with a passing and a failing example (its documentation), and
`check(deck, ctx) -> Iterator[Found]`: what it found. `run` stamps each finding with the
module's code, name and severity, so a rule never writes its own identity. Adding a rule =
one module + one line here.

Codes: DC1xx deck structure, DC2xx copies and list limits, DC3xx points formats (Genesys),
DC4xx card existence.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING

from deckcheck.decks.model import Deck
from deckcheck.errors import UnknownRule
from deckcheck.rules import (
    banned_card_type,
    extra_deck_size,
    extra_monster_in_main,
    forbidden,
    limit_group,
    limited,
    main_card_in_extra,
    main_deck_size,
    not_in_card_pool,
    not_yet_released,
    points_over_cap,
    prerelease_id,
    semi_limited,
    side_deck_size,
    skill_card,
    skill_required,
    token_in_deck,
    too_many_copies,
    unknown_card,
    unreadable_entry,
    written_totals,
    wrong_region,
)
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Violation, stamp

if TYPE_CHECKING:
    from deckcheck.formats.model import Banlist, Format

RULES: dict[str, ModuleType] = {
    "DC101": main_deck_size,
    "DC102": extra_deck_size,
    "DC103": side_deck_size,
    "DC110": extra_monster_in_main,
    "DC111": main_card_in_extra,
    "DC120": token_in_deck,
    "DC121": skill_card,
    "DC122": skill_required,
    "DC201": too_many_copies,
    "DC202": forbidden,
    "DC203": limited,
    "DC204": semi_limited,
    "DC205": not_in_card_pool,
    "DC206": limit_group,
    "DC301": points_over_cap,
    "DC302": banned_card_type,
    "DC401": unknown_card,
    "DC402": not_yet_released,
    "DC403": wrong_region,
    "DC404": prerelease_id,
    "DC405": unreadable_entry,
    "DC407": written_totals,
}


def _matches(pattern: str, code: str, name: str) -> int:
    """How specifically `pattern` (a code, a code prefix, or a rule name) selects this rule:
    the matched length, 0 when it does not match."""
    p = pattern.strip()
    if p.upper() == code[: len(p)] and p:
        return len(p)
    if p.lower() == name:
        return len(code)
    return 0


def _validate(patterns: Iterable[str], option: str) -> list[str]:
    out = [p.strip() for p in patterns if p and p.strip()]
    for p in out:
        if not any(_matches(p, code, mod.NAME) for code, mod in RULES.items()):
            raise UnknownRule(f"{option} names no rule: \"{p}\" is neither a rule code, a code "
                              f"prefix such as DC2, nor a rule name; see `deckcheck check "
                              f"--list-rules`.")
    return out


def selected(select: Iterable[str] | None = None,
             ignore: Iterable[str] | None = None) -> list[ModuleType]:
    """The rules to run: those `select`ed (all when None) minus those `ignore`d, by code,
    code prefix ("DC2") or name; the more specific pattern wins, a tie goes to ignore."""
    sel = _validate(select, "--select") if select is not None else None
    ign = _validate(ignore or (), "--ignore")
    out = []
    for code, mod in RULES.items():
        s = max((_matches(p, code, mod.NAME) for p in sel), default=0) if sel is not None else 1
        i = max((_matches(p, code, mod.NAME) for p in ign), default=0)
        if s and s > i:
            out.append(mod)
    return out


def applicable(rules: Iterable[ModuleType], fmt: Format, banlist: Banlist | None,
               points_cap: int | None) -> list[ModuleType]:
    """The rules that can find something under this format, list and points cap: a rule
    module's optional `applies(fmt, banlist, points_cap)` says when it cannot (a Skill Card
    rule in a format without them), so a `Checker` does not call it for every deck."""
    return [mod for mod in rules
            if getattr(mod, "applies", None) is None or mod.applies(fmt, banlist, points_cap)]


def run(rules: Iterable[ModuleType], deck: Deck, ctx: CheckContext) -> Iterator[Violation]:
    """Every rule's findings as `Violation`s carrying the rule's code, name and severity."""
    for mod in rules:
        code, name, severity = mod.CODE, mod.NAME, mod.SEVERITY
        for f in mod.check(deck, ctx):
            yield stamp(f, code, name, severity)
