"""The one registry of deck rules: code -> rule module, in the order they run and report.

Every rule module has `CODE` (stable, never reused), `NAME` (kebab-case), `SEVERITY`, a
docstring with a passing and a failing example (its documentation), and
`check(deck, ctx) -> Iterator[Found]`: what it found. `run` stamps each finding with the
module's code, name and severity, so a rule never writes its own identity. Adding a rule =
one module + one line here (and a `GATES` or `APPLIES` line when it can only find something
in some decks or formats: the engine then does not import it for the others).

Codes: DC1xx deck structure, DC2xx copies and list limits, DC3xx points formats (Genesys),
DC4xx card existence.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING

from deckcheck.errors import UnknownRule
from deckcheck.rules.violation import Violation, stamp

if TYPE_CHECKING:
    from deckcheck.decks.model import Deck, Section
    from deckcheck.formats.model import Banlist, Format
    from deckcheck.rules.context import CheckContext

#: code -> the rule's module under `deckcheck.rules`, in the order they run and report. A
#: module is imported when first needed (`load`): a plain check of a clean deck imports
#: only the rules its deck gives something to look at (see `GATES`). `RULES` maps each
#: code to its module (importing them all).
MODULES: dict[str, str] = {
    "DC101": "main_deck_size",
    "DC102": "extra_deck_size",
    "DC103": "side_deck_size",
    "DC110": "extra_monster_in_main",
    "DC111": "main_card_in_extra",
    "DC120": "token_in_deck",
    "DC121": "skill_card",
    "DC122": "skill_required",
    "DC201": "too_many_copies",
    "DC202": "forbidden",
    "DC203": "limited",
    "DC204": "semi_limited",
    "DC205": "not_in_card_pool",
    "DC206": "limit_group",
    "DC301": "points_over_cap",
    "DC302": "banned_card_type",
    "DC401": "unknown_card",
    "DC402": "not_yet_released",
    "DC403": "wrong_region",
    "DC404": "prerelease_id",
    "DC405": "unreadable_entry",
    "DC407": "written_totals",
}

Gate = Callable[["Deck", "CheckContext"], bool]


def _unusual(deck: Deck, ctx: CheckContext) -> bool:
    return ctx.odd > 0  # Tokens, Skills, scoped or undated cards, ids not the card's own


def _candidates(deck: Deck, ctx: CheckContext) -> bool:
    return bool(ctx.candidates)  # a name over the copy limit, listed, or another's name


def _problems(deck: Deck, ctx: CheckContext) -> bool:
    return bool(deck.problems)  # entries the reader could not read


def _main_misplaced(deck: Deck, ctx: CheckContext) -> bool:
    return "main" in ctx.misplaced


def _extra_misplaced(deck: Deck, ctx: CheckContext) -> bool:
    return "extra" in ctx.misplaced


def _unknown(deck: Deck, ctx: CheckContext) -> bool:
    return bool(ctx.unknown or deck.problems)  # an unknown card or an unresolved name


def _region(deck: Deck, ctx: CheckContext) -> bool:
    return ctx.odd > 0 or ctx.format.region == "md"  # scoped cards; Master Duel: every card


def _size(section: Section) -> Gate:
    def off(deck: Deck, ctx: CheckContext) -> bool:
        # unread entries may belong to the section: only `rules._sizes` can weigh them
        rng = getattr(ctx.format, section)
        return bool(deck.problems) or not rng.min <= ctx.size(section) <= rng.max
    return off


def _released(deck: Deck, ctx: CheckContext) -> bool:
    # a known card not `unusual` and not `dated` has no release dates at all (a notice)
    return ctx.odd > 0 or ctx.known != ctx.dated or ctx.format.region == "md"


#: What a deck must hold for a rule to find anything, from the summary the engine makes in
#: its one pass (`CheckContext`): a rule whose gate is closed is neither imported nor called.
#: Each rule's own `check` returns at once in the same case (a test holds the two equal);
#: rules without a gate always run.
GATES: dict[str, Gate] = {
    "DC101": _size("main"),
    "DC102": _size("extra"),
    "DC103": _size("side"),
    "DC110": _main_misplaced,
    "DC111": _extra_misplaced,
    "DC120": _unusual,
    "DC121": _unusual,
    "DC201": _candidates,
    "DC202": _candidates,
    "DC203": _candidates,
    "DC204": _candidates,
    "DC401": _unknown,
    "DC402": _released,
    "DC403": _region,
    "DC404": _unusual,
    "DC405": _problems,
    "DC407": _problems,
}


Applies = Callable[["Format", "Banlist | None", "int | None"], bool]


def _skills_forbidden(fmt: Format, banlist: Banlist | None, cap: int | None) -> bool:
    return fmt.skills == "forbidden"


def _skills_used(fmt: Format, banlist: Banlist | None, cap: int | None) -> bool:
    return fmt.skills != "forbidden"


def _whitelist(fmt: Format, banlist: Banlist | None, cap: int | None) -> bool:
    return banlist is not None and banlist.whitelist


def _groups(fmt: Format, banlist: Banlist | None, cap: int | None) -> bool:
    return banlist is not None and bool(banlist.groups)


def _capped(fmt: Format, banlist: Banlist | None, cap: int | None) -> bool:
    return cap is not None


def _frames_banned(fmt: Format, banlist: Banlist | None, cap: int | None) -> bool:
    return bool(fmt.banned_frames)


def _scoped(fmt: Format, banlist: Banlist | None, cap: int | None) -> bool:
    return bool(fmt.excluded_scopes) or fmt.region == "md"


#: When a rule can find anything at all under a format, list and points cap (a Skill Card
#: rule in a format without them): a `Checker` leaves the others out, unimported. Each rule's
#: own `check` returns at once in the other case (a test holds the two equal); rules not here
#: apply everywhere.
APPLIES: dict[str, Applies] = {
    "DC121": _skills_forbidden,
    "DC122": _skills_used,
    "DC205": _whitelist,
    "DC206": _groups,
    "DC301": _capped,
    "DC302": _frames_banned,
    "DC403": _scoped,
}

def load(code: str) -> ModuleType:
    """The module of rule `code` (imported on first use)."""
    return importlib.import_module(f"deckcheck.rules.{MODULES[code]}")


def __getattr__(name: str) -> dict[str, ModuleType]:
    if name == "RULES":  # every rule's module, by code: for listing and documentation
        return {code: load(code) for code in MODULES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        if not any(_matches(p, code, load(code).NAME) for code in MODULES):
            raise UnknownRule(f"{option} names no rule: \"{p}\" is neither a rule code, a code "
                              f"prefix such as DC2, nor a rule name; see `deckcheck check "
                              f"--list-rules`.")
    return out


def selected(select: Iterable[str] | None = None,
             ignore: Iterable[str] | None = None) -> list[str]:
    """The codes of the rules to run: those `select`ed (all when None) minus those `ignore`d,
    by code, code prefix ("DC2") or name; the more specific pattern wins, a tie goes to
    ignore. (Rule modules are imported only to match names.)"""
    sel = _validate(select, "--select") if select is not None else None
    ign = _validate(ignore or (), "--ignore")
    if sel is None and not ign:
        return list(MODULES)
    out = []
    for code in MODULES:
        name = load(code).NAME
        s = max((_matches(p, code, name) for p in sel), default=0) if sel is not None else 1
        i = max((_matches(p, code, name) for p in ign), default=0)
        if s and s > i:
            out.append(code)
    return out


class Active:
    """The selected rules that can find something under one format, list and points cap
    (`APPLIES`), so a `Checker` does not consider the others for any deck. A rule module is
    imported when the rule first runs: for a gated rule (`GATES`), when its gate first opens."""

    def __init__(self, codes: Iterable[str], fmt: Format, banlist: Banlist | None,
                 points_cap: int | None) -> None:
        self._modules: dict[str, ModuleType] = {}
        #: the codes to consider, in order, each with its gate (None: always run)
        self.rules: list[tuple[str, Gate | None]] = [
            (code, GATES.get(code)) for code in codes
            if code not in APPLIES or APPLIES[code](fmt, banlist, points_cap)]

    def module(self, code: str) -> ModuleType:
        """Rule `code`'s module (imported on first use)."""
        try:
            return self._modules[code]
        except KeyError:
            mod = self._modules[code] = load(code)
            return mod


def run(rules: Active, deck: Deck, ctx: CheckContext) -> Iterator[Violation]:
    """Every rule's findings as `Violation`s carrying the rule's code, name and severity;
    a rule whose gate is closed for this deck is skipped (it would find nothing)."""
    for code, gate in rules.rules:
        if gate is not None and not gate(deck, ctx):
            continue
        mod = rules.module(code)
        name, severity = mod.NAME, mod.SEVERITY
        for f in mod.check(deck, ctx):
            yield stamp(f, code, name, severity)
