"""`deckcheck cards …`: import, update and inspect the card database."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from deckcheck.cli.common import Ctx, ProgressBar, UserError, echo_json, handle_errors

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool

JSON_HELP = "Print JSON instead of text."
ALLOW_SMALLER = click.option(
    "--allow-smaller", is_flag=True,
    help="Import even when the data would drop more than 5% (and more than 10) of the cards "
         "the source or the card pool held before (refused by default: a cut-off or wrong "
         "file).")


@click.group()
def cards() -> None:
    """Import, update and look up the card database (the card pool)."""


class _Progress(ProgressBar):
    """Draws a progress bar (on stderr) from the HTTP helper's progress callback; when the
    server sends no length, reports the size at the end instead."""

    def __call__(self, done: int, total: int | None) -> None:
        self.update(done, total)

    def finish(self) -> None:
        if self.bar is None and self.done:
            click.echo(f"{self.label}: {self.done / 1e6:.1f} MB", err=True)
        self.close()


def on_terminal() -> bool:
    """Whether stderr is a terminal (progress is shown only there)."""
    import sys

    return sys.stderr.isatty()


class _Stages:
    """Each stage of an import on stderr, with its time, when stderr is a terminal: "Reading
    cards.json… done (1.4 s: yaml-yugi, 14,218 records)"."""

    def __init__(self, quiet: bool = False) -> None:
        self.show = not quiet and on_terminal()
        self.detail = ""

    @contextlib.contextmanager
    def __call__(self, what: str) -> Iterator[None]:
        started = time.monotonic()
        self.detail = ""
        if self.show:
            click.echo(f"{what}…", err=True, nl=False)
        try:
            yield
        except BaseException:
            if self.show:
                click.echo(" failed", err=True)  # the error's sentence on a line of its own
            raise
        if self.show:
            took = time.monotonic() - started
            click.echo(f" done ({took:.1f} s" + (f": {self.detail})" if self.detail else ")"),
                       err=True)


def _summary(result: dict[str, Any]) -> str:
    return (f"{result['cards']} cards (+{result['ids'] - result['cards']} alternate-artwork or "
            f"prerelease ids) in "
            f"{result['path']}; sources: {', '.join(sorted(result['sources']))}.")


@cards.command()
@click.option("--from", "from_file", type=click.Path(exists=True, dir_okay=False),
              help="Import a downloaded cardinfo.php answer (JSON or .zip) instead of going "
                   "online.")
@click.option("--force", is_flag=True, help="Download even when the database version is unchanged.")
@ALLOW_SMALLER
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
@handle_errors
def update(obj: Ctx, from_file: str | None, force: bool, allow_smaller: bool,
           as_json: bool) -> None:
    """Download the full YGOPRODeck card database and merge it into the card pool.

    Skips the download when YGOPRODeck's database version has not changed (and the card
    pool still holds what that version gave). On any failure the previous card pool stays as
    it was. Network bounds: 5 s to connect, 5 s without data, at least 8 KB/s over any 5 s (a
    download that broke off is tried once more), 15 minutes for the whole command.
    """
    from deckcheck.imports.update import update_ygoprodeck

    progress = None if as_json else _Progress("Downloading cards")
    try:
        result = update_ygoprodeck(obj.db, from_file=from_file, force=force, progress=progress,
                                   allow_smaller=allow_smaller)
    finally:
        if progress is not None:
            progress.finish()
    if as_json:
        echo_json(result)
    elif result.get("unchanged"):
        click.echo(f"Card database already up to date (YGOPRODeck {result.get('version')}).")
    else:
        click.echo(f"Imported YGOPRODeck: {_summary(result)}")


@cards.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@ALLOW_SMALLER
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
@handle_errors
def import_(obj: Ctx, file: str, allow_smaller: bool, as_json: bool) -> None:
    """Import a card data FILE as its source publishes it, and merge it into the pool.

    FILE is a YGOPRODeck cardinfo.php answer, a YAML Yugi cards.json, a ygocdb cards.json,
    an EDOPro cards.cdb or mappings.json, a .zip holding one of them, or a YGOJSON v1
    "individual" .zip (release dates per region, Master Duel); the source is recognised
    from the content.
    """
    from deckcheck.imports.run import import_sources
    from deckcheck.sources import read_source

    stage = _Stages(as_json)
    with stage(f"Reading {file}"):
        data = read_source(file)
        stage.detail = f"{data.name}, {len(data.records)} records"
    with stage("Merging every source and writing the card database"):
        result = import_sources(obj.db, [data], allow_smaller=allow_smaller)
        stage.detail = f"{result['cards']} cards"
    if as_json:
        echo_json({**result, "source": data.name})
    else:
        click.echo(f"Imported {data.name} ({len(data.records)} records): {_summary(result)}")


def _lookup(pool: CardPool, query: str) -> list[Any]:
    from deckcheck.errors import MAX_NAME, UnknownCard

    q = query.strip()
    if len(q) > MAX_NAME:  # no card is named that; the store's LIKE would call it "damaged"
        raise UnknownCard.for_name(q, [])
    found: list[Any] = []
    if q.isdigit():
        card = pool.get(int(q))
        if card is not None:
            found = [card]
    if not found:
        found = pool.find_name(q)
    if not found:
        suggestions = pool.suggest(q) if q else []
        if not suggestions and q:  # a part of the name ("Ash Blossom"): names containing it
            from deckcheck.cards.pool import search_pool

            suggestions = [c.name for c in search_pool(pool, q, 3)]
        raise UnknownCard.for_name(q, suggestions)
    return found


def _describe(card: Any) -> list[str]:
    lines = [f"{card.name} [{card.passcode}]"]
    if card.alt_passcodes:
        lines.append(f"  alternate artworks: {', '.join(map(str, card.alt_passcodes))}")
    if card.konami_id is not None:
        lines.append(f"  Konami id: {card.konami_id}")
    lines.append(f"  {_kind(card)}" + (f", {card.deck} deck" if card.deck else ""))
    stats = _stats(card)
    if stats:
        lines.append("  " + ", ".join(stats))
    if card.link_arrows:
        lines.append(f"  Link Arrows: {', '.join(card.link_arrows)}")
    if card.archetypes:
        lines.append(f"  archetypes: {', '.join(card.archetypes)}")
    for lang in ("ja", "zh-CN", "zh-TW"):
        if card.names.get(lang):
            lines.append(f"  name ({lang}): {card.names[lang]}")
    if card.released:
        dates = sorted(card.released.items(), key=lambda kv: _REGION_ORDER.get(kv[0], 9))
        lines.append("  first released: " + ", ".join(
            f"{_REGION_LABEL.get(k, k.upper())} {v}" for k, v in dates))
    if card.master_duel is not None:
        lines.append(f"  Master Duel: {'yes' if card.master_duel else 'no'}")
    if card.scopes:
        lines.append(f"  scopes: {', '.join(sorted(card.scopes))}")
    return lines + _rule_name_lines(card)


def _kind(card: Any) -> str:
    """"Quick-Play Spell", "fusion monster", "token"…"""
    if card.kind.value in ("spell", "trap"):
        return f"{card.race or 'Normal'} {card.kind.value.capitalize()}"
    if card.kind.value == "monster":
        return f"{card.frame.value.replace('_', ' ')} monster"
    return str(card.kind.value)


def _stats(card: Any) -> list[str]:
    """Level/Rank/Link/Scale, attribute, type, monster types, ATK / DEF."""
    stats = []
    for label, value in (("Level", card.level), ("Rank", card.rank), ("Link", card.link_rating),
                         ("Scale", card.scale)):
        if value is not None:
            stats.append(f"{label} {value}")
    if card.attribute:
        stats.append(card.attribute)
    if card.race and card.kind.value not in ("spell", "trap"):
        stats.append(card.race)
    if card.monster_types:
        stats.append("/".join(card.monster_types))
    if card.atk is not None or card.defense is not None:
        atk = f"ATK {_stat(card.atk)}"
        stats.append(atk if card.link_rating is not None else f"{atk} / DEF {_stat(card.defense)}")
    return stats


def _rule_name_lines(card: Any) -> list[str]:
    """The name the card counts as, and the sources when they disagree on it."""
    lines = []
    if card.rule_name != card.name:
        lines.append(f"  counts as: {card.rule_name}")
    evidence = card.rule_name_evidence
    # A Japanese/Chinese name that matches no card is unmatched evidence, not a disagreement:
    # it stays in --json (rule_name_evidence) and out of what players read.
    opinions = {name for name in evidence.values() if not name.endswith("(unknown card)")}
    if len(opinions) > 1:
        lines.append("  sources disagree on the name it counts as:")
        for src, name in sorted(evidence.items()):
            if not name.endswith("(unknown card)"):
                lines.append(f"    {src}: {name}")
    return lines


_REGION_ORDER = {"tcg": 0, "ocg": 1, "kr": 2, "sc": 3, "tc": 4, "ae": 5, "md": 6}
_REGION_LABEL = {"tcg": "TCG", "ocg": "OCG (Japan)", "kr": "Korea", "sc": "Simplified Chinese",
                 "tc": "Traditional Chinese", "ae": "Asian-English",
                 "md": "Master Duel (not before)"}


def _stat(v: int | None) -> str:
    return "?" if v is None else str(v)


@cards.command()
@click.argument("query", metavar="NAME-OR-PASSCODE")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
@handle_errors
def show(obj: Ctx, query: str, as_json: bool) -> None:
    """Show a card by passcode (alternate artworks too) or by name in any language."""
    found = _lookup(obj.pool(quiet=as_json), query)
    if as_json:
        echo_json([c.model_dump(mode="json") | {"deck": c.deck} for c in found])
        return
    for i, card in enumerate(found):
        if i:
            click.echo("")
        for line in _describe(card):
            click.echo(line)


@cards.command()
@click.argument("query")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 1000),
              help="Show at most this many cards.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
@handle_errors
def search(obj: Ctx, query: str, limit: int, as_json: bool) -> None:
    """List cards whose name (in any language) contains QUERY."""
    from deckcheck.cards.pool import search_pool
    from deckcheck.errors import shown

    if not query.strip():
        raise UserError("The search is empty; give a part of a card name, e.g. `deckcheck "
                        "cards search \"Blue-Eyes\"`.")
    found = search_pool(obj.pool(quiet=as_json), query, limit)
    if as_json:
        echo_json([{"passcode": c.passcode, "name": c.name, "kind": c.kind.value,
                    "frame": c.frame.value} for c in found])
        return
    if not found:
        click.echo(f"No card name contains {shown(query)}.")
    for c in found:
        click.echo(f"{c.passcode:>9}  {c.name}")


@cards.command()
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
@handle_errors
def info(obj: Ctx, as_json: bool) -> None:
    """Show where the card database is, its sources, versions, card counts and age."""
    from deckcheck.cards.coverage import WHAT
    from deckcheck.cards.store import store_info

    data = store_info(obj.db)
    if as_json:
        echo_json(data)
        return
    if not data["exists"]:
        click.echo(f"No card database at {data['path']}: deckcheck uses its built-in card "
                   "pool. Run `deckcheck cards update` or `deckcheck cards import FILE` for "
                   "newer cards.")
        return
    age = data["age_days"]
    click.echo(f"Card database: {data['path']}")
    click.echo(f"Cards: {data['cards']} (+{data['alt_ids']} alternate-artwork ids, "
               f"+{data['prerelease_ids']} prerelease ids)")
    click.echo(f"Built: {data['built_at']}" + (f" ({age} days ago)" if age is not None else ""))
    dated = data.get("dated") or {}
    if dated:
        click.echo(f"Release dates: TCG {dated.get('tcg', 0)}, OCG {dated.get('ocg', 0)}, "
                   f"Master Duel {dated.get('md', 0)} cards; Master Duel data for "
                   f"{dated.get('master_duel', 0)} cards")
    else:
        click.echo("Release dates: not recorded (written by an older deckcheck; import again)")
    ends = data.get("data_ends") or {}
    if ends:
        click.echo("Data ends: " + ", ".join(f"{WHAT[k]} {v}" for k, v in ends.items()))
    click.echo("Sources:")
    for s in data["sources"]:
        click.echo(f"  {s['name']}: {s['records']} records, version {s['version'] or '?'}, "
                   f"imported {s['imported_at']}")
