"""`deckcheck draw` (test hands) and `deckcheck odds` (how often the deck opens well).

Each command only parses its flags into an options object; `execute_*` does the work with
the library (`deckcheck.sim`) and returns the exit code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from deckcheck.cli.common import (
    EXIT_OK,
    Ctx,
    check_output_folder,
    echo_json,
    echo_read_problems,
    handle_errors,
)
from deckcheck.errors import ProfileError

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool
    from deckcheck.sim.goldfish.report import Mode


# -- draw ----------------------------------------------------------------------------------
class DrawOptions:
    __slots__ = ("deck", "second", "hands", "seed", "turns", "as_json", "format")

    def __init__(self, deck: str, second: bool = False, hands: int = 1,
                 seed: int | None = None, turns: int = 1, as_json: bool = False,
                 format: str = "tcg") -> None:  # noqa: A002
        self.deck = deck
        self.second = second
        self.hands = hands
        self.seed = seed
        self.turns = turns
        self.as_json = as_json
        self.format = format


def _names(cards: list[Any]) -> list[str]:
    return [c.name for c in cards]


def execute_draw(ctx: Ctx, opts: DrawOptions) -> int:
    from deckcheck.decks.files import read_deck
    from deckcheck.sim.draws import group_cards, test_draws
    from deckcheck.sim.seeds import new_seed

    pool = ctx.pool()
    deck = read_deck(opts.deck, pool)
    if deck.problems:  # (the notes' printing loads the reporters)
        echo_read_problems(deck, "left out of the hands")
    seed = opts.seed if opts.seed is not None else new_seed()
    draws = test_draws(deck, pool, opts.hands, seed=seed, going_second=opts.second,
                       turns=opts.turns, rules=_rules(opts.format))
    going = "second" if opts.second else "first"
    if opts.as_json:
        echo_json({
            "deck": opts.deck, "seed": seed, "going": going, "turns": opts.turns,
            "hands": [{
                "opening": _names(d.opening),
                "groups": {g: [{"name": n, "count": c} for n, c in items]
                           for g, items in group_cards(d.opening).items()},
                "draws": {str(t): _names(cards) for t, cards in sorted(d.draws.items())},
                "hand": _names(d.hand),
                "discarded": {str(t): _names(cards) for t, cards in sorted(d.discarded.items())},
                "deck_out_turn": d.deck_out_turn,
            } for d in draws]})
        return EXIT_OK
    click.echo(f"Deck: {opts.deck}, going {going}, seed {seed}")
    for i, d in enumerate(draws, 1):
        click.echo(f"Hand {i}:")
        for group, items in group_cards(d.opening).items():
            listed = ", ".join(n if c == 1 else f"{n} x{c}" for n, c in items)
            click.echo(f"  {group} ({sum(c for _, c in items)}): {listed}")
        for t in sorted({*d.draws, *d.discarded}):
            if t in d.draws:
                click.echo(f"  Turn {t} draw: {', '.join(_names(d.draws[t]))}")
            if t in d.discarded:
                click.echo(f"  Turn {t} End Phase discard: {', '.join(_names(d.discarded[t]))}")
        if d.deck_out_turn is not None:
            click.echo(f"  Turn {d.deck_out_turn}: the Deck is empty; the duel is lost.")
    return EXIT_OK


@click.command("draw")
@click.argument("deck")
@click.option("--second", is_flag=True, help="Go second: the first turn draws a 6th card.")
@click.option("-n", "--hands", type=click.IntRange(1, 10_000), default=1, show_default=True,
              help="How many hands to deal.")
@click.option("--seed", type=int, default=None,
              help="Shuffle seed (default: a random one, printed so it can be repeated).")
@click.option("--turns", type=click.IntRange(1, 30), default=1, show_default=True,
              help="Also show the cards drawn up to this turn.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("-f", "--format", "format_", default="tcg", show_default=True,
              help="Format whose turn is played (Speed Duel: 4 cards dealt; Rush Duel: 4, "
                   "drawing to 5 every turn).")
@click.pass_obj
@handle_errors
def draw(obj: Ctx, deck: str, second: bool, hands: int, seed: int | None, turns: int,
         as_json: bool, format_: str) -> None:
    """Deal test hands from DECK: the opening hand grouped by Monster/Spell/Trap, and the
    cards drawn by turn T."""
    code = execute_draw(obj, DrawOptions(deck, second, hands, seed, turns, as_json, format_))
    if code:
        raise SystemExit(code)


# -- odds ----------------------------------------------------------------------------------
class OddsOptions:
    """The `odds` command's flags (plain: no class built by `dataclasses` on start-up)."""

    __slots__ = ("deck", "profile", "roles", "needs", "exact", "hands", "first", "second",
                 "turns", "seed", "as_json", "chart", "compare", "compare_profile",
                 "sensitivity", "format", "each_row_alone", "copies", "target", "swap")

    def __init__(self, deck: str, profile: str | None = None, roles: list[str] | None = None,
                 needs: list[str] | None = None, exact: bool = False,
                 hands: int | None = None, first: bool = False, second: bool = False,
                 turns: int = 1, seed: int | None = None, as_json: bool = False,
                 chart: str | None = None, compare: str | None = None,
                 compare_profile: str | None = None, sensitivity: bool = True,
                 format: str = "tcg", each_row_alone: bool = False,  # noqa: A002
                 copies: str | None = None, target: str = "90%",
                 swap: str | None = None) -> None:
        self.deck = deck
        self.profile = profile
        self.roles = [] if roles is None else roles
        self.needs = [] if needs is None else needs
        self.exact = exact
        self.hands = hands
        self.first = first
        self.second = second
        self.turns = turns
        self.seed = seed
        self.as_json = as_json
        self.chart = chart
        self.compare = compare
        self.compare_profile = compare_profile
        self.sensitivity = sensitivity
        self.format = format
        self.each_row_alone = each_row_alone
        self.copies = copies
        self.target = target
        self.swap = swap


def _profile_file(opts: OddsOptions, path: str | None, deck_path: str) -> tuple[Any, str]:
    from deckcheck.sim.goldfish.profile import (
        inline_profile,
        inline_roles,
        load_profile_file,
        profile_next_to,
    )

    if path is None and not opts.needs:
        path = profile_next_to(deck_path)
        if path is None:
            raise ProfileError(f"No profile for {deck_path}: write a .profile.toml next to it, "
                               f"or give --profile FILE or --need \"ROLE>=1\".")
    if path is None:
        return inline_profile(opts.roles, opts.needs), "command line"
    pf = load_profile_file(path)
    if opts.roles or opts.needs:
        pf.roles.update(inline_roles(opts.roles))
        if opts.needs:
            pf.conditions.update({n: n for n in opts.needs})
            if pf.success is not None:
                pf.success = {"all": [pf.success, *opts.needs]}
    return pf, path


def _rules(format_id: str) -> Any:
    from deckcheck.formats import load_format  # (not the checker: only the hand size)
    from deckcheck.sim.turnrules import rules_for

    fmt = load_format(format_id)
    return rules_for(fmt.id, fmt.hand_size)


def _compile(pf: Any, source: str, deck_path: str, pool: CardPool, rules: Any,
             strict: bool = True, refine: dict[str, int] | None = None) -> Any:
    from deckcheck.decks.files import read_deck
    from deckcheck.sim.goldfish.compiled import compile_profile
    from deckcheck.sim.state import deal_cards

    deck = read_deck(deck_path, pool)
    if deck.problems:  # (the notes' printing loads the reporters)
        echo_read_problems(deck, "left out of the odds")
    main, extra = deal_cards(deck, pool)
    return compile_profile(pf, main, pool, source, extra=len(extra), rules=rules,
                           strict=strict, refine=refine)


def _one_blas_thread() -> None:
    """NumPy's bundled BLAS starts a thread per core when NumPy is imported (tens of
    milliseconds of CPU, more wall time on a busy machine) though the odds engines use no
    BLAS: one thread, unless the user set it or NumPy is already loaded."""
    import os
    import sys

    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def execute_odds(ctx: Ctx, opts: OddsOptions) -> int:
    from deckcheck.gc_pause import gc_paused

    # the odds build few objects and no cycles: nothing to collect, now or at exit
    with gc_paused(until_exit=True):
        return _execute_odds(ctx, opts)


def _execute_odds(ctx: Ctx, opts: OddsOptions) -> int:
    from deckcheck.sim.goldfish.render import render_text
    from deckcheck.sim.goldfish.report import compare, require_deck_size
    from deckcheck.sim.goldfish.report import odds as goldfish_odds
    from deckcheck.sim.goldfish.results import as_json
    from deckcheck.sim.seeds import new_seed

    if opts.exact and opts.hands is not None:
        raise ProfileError("--exact and --hands exclude each other; give one of them.")
    if opts.compare and opts.compare_profile:
        raise ProfileError("--compare and --compare-profile exclude each other; give one.")
    if opts.chart:
        from deckcheck.sim.goldfish.chart import chart_kind

        check_output_folder(opts.chart, "chart")
        chart_kind(opts.chart)
    _one_blas_thread()
    pool = ctx.pool()
    rules = _rules(opts.format)
    pf, source = _profile_file(opts, opts.profile, opts.deck)
    cp = _compile(pf, source, opts.deck, pool, rules)
    seed = opts.seed if opts.seed is not None else new_seed()
    mode: Mode = "exact" if opts.exact else "mc" if opts.hands is not None else "auto"
    seats = (False, True) if opts.first == opts.second else (opts.second,)
    kw: dict[str, Any] = dict(mode=mode, hands=opts.hands, seed=seed, turns=opts.turns,
                              seats=seats)
    report = goldfish_odds(cp, deck=opts.deck, with_sensitivity=opts.sensitivity,
                           one_game=not opts.each_row_alone, **kw)
    if pf.side:
        from deckcheck.decks.files import read_deck
        from deckcheck.sim.goldfish.side import sided_odds

        report.sided = sided_odds(pf, read_deck(opts.deck, pool), pool, source, seats=seats,
                                  mode=mode, hands=opts.hands, seed=seed, rules=rules)
    if opts.copies:
        from deckcheck.sim.goldfish.copies import copies_curve, parse_target

        report.copies = copies_curve(cp, opts.copies, target=parse_target(opts.target),
                                     swap=opts.swap, seats=seats, mode=mode,
                                     hands=opts.hands, seed=seed)
    if opts.compare or opts.compare_profile:
        if opts.compare:
            cp_a = cp
            cp_b = _compile(pf, source, opts.compare, pool, rules, strict=False)
            require_deck_size(cp_b, opts.compare, seats)
            label_a, label_b = opts.deck, opts.compare
        else:
            from deckcheck.sim.goldfish.profile import load_profile_file

            assert opts.compare_profile is not None
            pf_b = load_profile_file(opts.compare_profile)
            cp_b = _compile(pf_b, opts.compare_profile, opts.deck, pool, rules)
            # both profiles on the same classes: the very same Monte Carlo hands
            cp_a = _compile(pf, source, opts.deck, pool, rules,
                            refine=dict(cp_b.class_of_name))
            cp_b = _compile(pf_b, opts.compare_profile, opts.deck, pool, rules,
                            refine=dict(cp.class_of_name))
            label_a, label_b = source, opts.compare_profile
        report.compare = compare(cp_a, cp_b, label_a, label_b, **kw)
    if opts.chart:
        from deckcheck.sim.goldfish.chart import write_chart

        write_chart(opts.chart, report)
    if opts.as_json:
        echo_json(as_json(report))
    else:
        click.echo(render_text(report), nl=False)
    if opts.chart:
        from pathlib import Path

        click.echo(f"Chart written to {Path(opts.chart).resolve()}", err=opts.as_json)
    return EXIT_OK


@click.command("odds")
@click.argument("deck")
@click.option("--profile", "profile", default=None, metavar="FILE",
              help="Profile TOML (default: DECK's .profile.toml or .toml next to it).")
@click.option("--role", "roles", multiple=True, metavar='NAME="CARD,CARD"',
              help="Tag cards with a role (repeatable; adds to the profile). A name with a "
                   "comma: separate the cards with ';' instead.")
@click.option("--need", "needs", multiple=True, metavar='"ROLE>=N"',
              help="A condition every good hand meets (repeatable; adds to the profile).")
@click.option("--exact", is_flag=True, help="Exact maths only (error if it cannot be done).")
@click.option("--hands", type=click.IntRange(1, 100_000_000), default=None, metavar="N",
              help="Monte Carlo with N hands (default: exact where possible).")
@click.option("--first", is_flag=True, help="Only going first (default: first and second).")
@click.option("--second", is_flag=True, help="Only going second (default: first and second).")
@click.option("--turns", type=click.IntRange(1, 10), default=1, show_default=True,
              help="Report success by turn 1..T.")
@click.option("--seed", type=int, default=None,
              help="Monte Carlo seed (default: a random one, printed).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--chart", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write a chart of success by turn, with 95% intervals (.png or .svg; "
                   "needs the chart extra: pip install 'deckcheck[chart]').")
@click.option("--compare", default=None, metavar="DECK2",
              help="A/B: the same profile on another deck (same seed).")
@click.option("--compare-profile", default=None, metavar="P2",
              help="A/B: another profile on the same deck (same seed).")
@click.option("--no-sensitivity", "sensitivity", is_flag=True, flag_value=False, default=True,
              help="Skip the +-1 copy table.")
@click.option("--copies", default=None, metavar="CARD",
              help="Success with 0-3 copies of CARD and the smallest count reaching --target.")
@click.option("--target", default="90%", show_default=True, metavar="PCT",
              help="The success rate --copies looks for.")
@click.option("--swap", default=None, metavar="CARD",
              help="With --copies: the card taken out as copies go in (default: blanks).")
@click.option("--each-row-alone", is_flag=True,
              help="Play the draw cards and searchers for each row on its own (default: one "
                   "game per hand, played for success, every row measured on it).")
@click.option("-f", "--format", "format_", default="tcg", show_default=True,
              help="Format whose turn is played (Speed Duel: 4 cards dealt; Rush Duel: 4, "
                   "drawing to 5 every turn).")
@click.pass_obj
@handle_errors
def odds(obj: Ctx, deck: str, profile: str | None, roles: tuple[str, ...],
         needs: tuple[str, ...], exact: bool, hands: int | None, first: bool, second: bool,
         turns: int, seed: int | None, as_json: bool, chart: str | None, compare: str | None,
         compare_profile: str | None, sensitivity: bool, copies: str | None, target: str,
         swap: str | None, each_row_alone: bool, format_: str) -> None:
    """How often DECK opens with what its profile needs: exact where the maths allows,
    Monte Carlo (with a 95% interval) otherwise; going first and second, by turn, failing
    hands, +-1 copy of each card, and A/B comparisons."""
    code = execute_odds(obj, OddsOptions(
        deck=deck, profile=profile, roles=list(roles), needs=list(needs), exact=exact,
        hands=hands, first=first, second=second, turns=turns, seed=seed, as_json=as_json,
        chart=chart, compare=compare, compare_profile=compare_profile,
        sensitivity=sensitivity, format=format_, each_row_alone=each_row_alone,
        copies=copies, target=target, swap=swap))
    if code:
        raise SystemExit(code)
