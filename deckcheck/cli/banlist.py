"""`deckcheck banlist …`: list, show, compare, import and export formats' lists."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from deckcheck import clock
from deckcheck.cli.common import Ctx, echo_json, handle_errors
from deckcheck.cli.params import DATE

if TYPE_CHECKING:
    from deckcheck.formats.loader import ListInfo

JSON_HELP = "Print JSON instead of text."

_F = TypeVar("_F", bound=Callable[..., Any])


def _date_option(help_text: str) -> Callable[[_F], _F]:
    return click.option("--date", "date", type=DATE, default=None, help=help_text)


@click.group()
def banlist() -> None:
    """List, show, compare, import and export formats' Forbidden & Limited Lists."""


@banlist.command("list")
@click.option("--format", "format_id", default=None, metavar="ID",
              help="Show every list of this format, oldest first.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@handle_errors
def list_(format_id: str | None, as_json: bool) -> None:
    """List the formats and the list each has in force today (or every list of one format).

    Lists come with deckcheck (shipped) or from `deckcheck banlist update` (imported).
    """
    from deckcheck.formats.loader import list_infos, load_format

    infos = list_infos()
    if format_id is None:
        _list_formats(infos, as_json)
        return
    fid = load_format(format_id).id
    chosen = [i for i in infos if i.format == fid]
    if as_json:
        echo_json([{"name": i.name, "format": i.format, "effective": i.effective.isoformat(),
                    "origin": i.origin} for i in chosen])
        return
    for i in chosen:
        click.echo(f"{i.effective.isoformat()}  {i.name}  ({i.origin})")


def _format_rows(infos: Sequence[ListInfo]) -> list[dict[str, Any]]:
    """Each format (with a format file or lists) with its list count and list in force."""
    from deckcheck.formats.loader import all_formats

    today = clock.today()
    rows: list[dict[str, Any]] = []
    formats = {f.id: f for f in all_formats()}
    for fid in sorted(set(formats) | {i.format for i in infos}):
        mine = [i for i in infos if i.format == fid]
        current = max((i for i in mine if i.effective <= today), key=lambda i: i.effective,
                      default=None)
        fmt = formats.get(fid)
        rows.append({"id": fid, "name": fmt.name if fmt else None, "lists": len(mine),
                     "current": current.name if current else None,
                     "effective": current.effective.isoformat() if current else None})
    return rows


def _list_formats(infos: Sequence[ListInfo], as_json: bool) -> None:
    rows = _format_rows(infos)
    if as_json:
        echo_json(rows)
        return
    width = max((len(r["id"]) for r in rows), default=2)
    for r in rows:
        what = r["name"] or "(no format file)"
        now = f"{r['current']} ({r['effective']})" if r["current"] else "none in force"
        click.echo(f"{r['id']:<{width}}  {what}: {r['lists']} list{'s' if r['lists'] != 1 else ''}"
                   f", current {now}")


def _show_text(bl: Any) -> str:
    from deckcheck.formats.diff import STATUS_NAMES, status

    lines = [f"{bl.name} — format {bl.format}, in force from {bl.effective.isoformat()}"]
    if bl.source:
        lines.append(f"source: {bl.source}")
    if bl.whitelist:
        lines.append("whitelist: cards not listed are not legal")
    order = [*STATUS_NAMES.values()]
    sections: dict[str, list[Any]] = {}
    for e in sorted(bl.entries, key=lambda e: ((e.name or "").casefold(), e.passcode)):
        sections.setdefault(status(e, bl), []).append(e)

    def rank(s: str) -> tuple[int, int, str]:
        if s in order:
            return (0, order.index(s), s)
        head = s.split()[0]
        return (1, int(head), s) if head.isdigit() else (2, 0, s)

    for head in sorted(sections, key=rank):
        if bl.whitelist and head == "Unlimited":
            lines.append(f"Unlimited: {len(sections[head])} cards (not shown; --json lists them)")
            continue
        group = next((g for g in bl.groups if g.name == head), None)
        cap = f", at most {group.max} in total" if group else ""
        lines.append(f"{head} ({len(sections[head])}{cap}):")
        lines += [f"  {e.name or '?'} ({e.passcode})" for e in sections[head]]
    return "\n".join(lines)


@banlist.command()
@click.argument("name")
@_date_option("With a format id: the list in force that day (default today).")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
@handle_errors
def show(obj: Ctx, name: str, date: dt.date | None, as_json: bool) -> None:
    """Show one list: its cards by status. NAME is a format id ("tcg": its list in force on
    --date, default today), a list name ("2026.05 TCG") or a file (deckcheck .toml or EDOPro
    .lflist.conf)."""
    from deckcheck.formats.loader import find_banlist

    bl = find_banlist(name, date)
    if as_json:
        echo_json(bl)
    else:
        click.echo(_show_text(bl))


@banlist.command()
@click.argument("old")
@click.argument("new")
@_date_option("With a format id for OLD: its list in force that day.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@handle_errors
def diff(old: str, new: str, date: dt.date | None, as_json: bool) -> None:
    """What moved between two lists: "Forbidden → Limited", new and removed entries.

    OLD and NEW are each a format id (its list in force today; --date picks OLD's day), a
    list name ("2026.02 TCG") or a file.
    """
    from deckcheck.formats import diff as diffs
    from deckcheck.formats.loader import find_banlist

    result = diffs.diff(find_banlist(old, date), find_banlist(new))
    if as_json:
        echo_json(result)
    else:
        click.echo(diffs.render(result), nl=False)


@banlist.command()
@click.option("--from", "sources", type=click.Path(exists=True), multiple=True,
              metavar="DIR_OR_FILE",
              help="Import from a folder (EDOPro .lflist.conf files with _index.json, "
                   "Konami-id lists, deckcheck .toml lists, EDOPro .cdb card databases for "
                   "pre-errata ids, YGOJSON's ygojson-v1.zip for the days of Konami's lists) "
                   "or a file instead of going online (repeatable).")
@click.option("--url", "urls", multiple=True, metavar="URL",
              help="Download this .lflist.conf or .toml list instead of EDOPro's (repeatable).")
@click.option("--ygoprodeck", is_flag=True,
              help="Also download YGOPRODeck's current TCG, OCG and GOAT lists (dated --date).")
@click.option("--into", "into", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Write the lists into DIR instead of your data directory, replacing the "
                   "lists of every format imported (regenerates the shipped banlists/).")
@click.option("--allow-smaller", is_flag=True,
              help="Accept a list (downloaded or --from) much smaller than the list it "
                   "replaces: its day's or its name's, or the newest for a newer list "
                   "(refused otherwise, as a cut-off download or file).")
@click.option("--force", is_flag=True,
              help="Take every imported list, even one that would make the list in force "
                   "worse (fewer official passcodes, lost groups or whitelist entries; kept "
                   "otherwise, saying why). Implies --allow-smaller.")
@_date_option("The day YGOPRODeck's lists take effect (default today).")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
@handle_errors
def update(obj: Ctx, sources: tuple[str, ...], urls: tuple[str, ...], ygoprodeck: bool,
           into: str | None, allow_smaller: bool, force: bool, date: dt.date | None,
           as_json: bool) -> None:
    """Import current and historical lists into your data directory, so that
    `--date` finds the list in force on any day.

    Without --from, downloads EDOPro's current lists (ProjectIgnis/LFLists) and, with a card
    database, Konami's current and upcoming lists with their official dates (YAML Yugi),
    checks each is a whole list, and changes nothing unless all are. Lists keyed by Konami
    id or by card name need the card database (`deckcheck cards update`). The directory is
    $DECKCHECK_BANLISTS, else $XDG_DATA_HOME/deckcheck/banlists. Conflicts between sources
    are written to CONFLICTS.md there. Network bounds per download: 5 s to connect, 5 s
    without data, at least 8 KB/s over any 5 s (a download that broke off is tried once
    more), 15 minutes in all.
    """
    from deckcheck.formats import download
    from deckcheck.formats.update import import_lists

    pool = obj.pool(quiet=True)
    if sources:
        report = import_lists(list(sources), pool=pool, date=date, dest=into,
                                  allow_smaller=allow_smaller, force=force,
                                  clean=into is not None)
    else:
        # a download's file name: the URL's last part, as `Path(url).name` has it
        chosen = {f"{i}-{os.path.basename(u.split('?')[0].rstrip('/'))}": u
                  for i, u in enumerate(urls)}
        if not chosen:
            full = not pool.info.builtin  # Konami ids need the full pool
            chosen = dict(download.URLS) | (download.KONAMI_URLS if full else {})
        if ygoprodeck:
            chosen |= download.YGOPRODECK_URLS
        report = download.fetch(chosen, pool=pool, date=date, dest=into,
                           allow_smaller=allow_smaller, force=force)
    if as_json:
        echo_json({"dest": str(report.dest), "written": report.written, "total": report.total,
                   "replaced": report.replaced, "conflicts": report.conflicts,
                   "skipped": report.skipped, "kept": report.kept})
        return
    for fid, n in sorted(report.written.items()):
        click.echo(f"{fid}: {n} list{'s' if n != 1 else ''}")
    click.echo(f"Imported {report.total} lists into {report.dest}"
               + (f" ({report.replaced} duplicates of a format and day replaced)."
                  if report.replaced else "."))
    for line in report.kept:
        click.echo(f"kept: {line}")
    for line in report.skipped:
        click.echo(f"skipped: {line}", err=True)


@banlist.command()
@click.argument("name")
@click.option("--to", "to", type=click.Choice(["lflist", "toml"]), default="lflist",
              show_default=True, help="File format to write.")
@_date_option("With a format id: the list in force that day (default today).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to this file instead of standard output.")
@handle_errors
def export(name: str, to: str, date: dt.date | None, output: str | None) -> None:
    """Write a list as an EDOPro .lflist.conf or as deckcheck's .toml. NAME is a format id,
    a list name or a file."""
    from deckcheck.formats import lflist, native
    from deckcheck.formats.loader import find_banlist

    bl = find_banlist(name, date)
    text = lflist.dump([bl]) if to == "lflist" else native.dump_list(bl)
    if output is None:
        click.echo(text, nl=False)
    else:
        from deckcheck.decks.files import save_bytes

        save_bytes(output, text.encode("utf-8"))
