"""`deckcheck banlist update`: import current and historical lists into the user's directory.

Offline (`import_lists(path)`): the lists under one or several folders or files, gathered
per list source (`gather`: EDOPro `.lflist.conf` files, Konami-id lists, deckcheck's own
`.toml` lists, a YGOPRODeck `cardinfo` answer dated by the caller). Online:
`download.fetch` downloads lists, then stores them here (`store`).

Every list is written as `<dest>/<format>/<YYYY-MM-DD>.toml` (dest: the user's directory,
or the shipped `banlists/` when regenerating it). Where two sources give a list for the same
format and day, the later one in `gather`'s precedence wins, also against the shipped lists
(an EDOPro list never hides Konami's own shipped list of its day). Every card on which the
losing list disagreed with the winner is written to `CONFLICTS.md` beside the lists
(`conflicts`). When regenerating `banlists/`, the EDOPro ids mapped are written to
`EDOPRO-IDS.toml` (`edopro_ids`) for later imports without a card database.

A list's `format` must be a format id (anything else refuses the whole import), and lists
of a format without a format file are skipped, saying so. A list that would make the list
in force on its day worse is kept out, saying why (`keep`; `force` takes it). A list much
smaller than the list it replaces refuses the whole import, as a cut-off file
(`verify.check_whole`; `allow_smaller` takes it). Nothing is written unless every file was
read.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.atomic import replacing
from deckcheck.errors import FormatError, UnknownFormat
from deckcheck.formats import conflicts, edopro_ids, gather, keep, native
from deckcheck.formats.loader import all_formats, clear_cache, user_dir
from deckcheck.formats.model import Banlist, Format
from deckcheck.formats.verify import check_format_id, check_whole, refuse_cut_files

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool

_Key = tuple[str, dt.date]


@dataclass
class ImportReport:
    """What an import did: lists written per format, and what was left out and why."""

    dest: Path
    written: dict[str, int] = field(default_factory=dict)
    #: lists read but replaced by another for the same format and day
    replaced: int = 0
    #: cards on which a replaced list disagreed with the one that won (see CONFLICTS.md)
    conflicts: int = 0
    skipped: list[str] = field(default_factory=list)
    #: lists in force kept instead of a worse import, one sentence each (`keep`)
    kept: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.written.values())


def import_lists(src: gather.Sources, *, pool: CardPool | None = None,
                 dest: str | Path | None = None, date: dt.date | None = None,
                 clean: bool = False, force: bool = False,
                 allow_smaller: bool = False) -> ImportReport:
    """Import every list under `src` (one or several folders or files) into `dest` (default:
    the user's banlist directory). `clean`: list files of the imported formats that this
    import did not write are removed (regenerating the shipped `banlists/`). A list much
    smaller than the list it replaces is refused as `fetch` refuses a download
    (`verify.check_whole`), unless `allow_smaller`. A list that would make the list in force
    on its day worse is not written (`keep.worse`; the report's `kept` says why) unless
    `force` (which also allows a smaller list)."""
    target = Path(dest) if dest is not None else user_dir()
    srcs = gather.paths(src)
    found = gather.gather(srcs, pool=pool, date=date, formats=None)
    refuse_cut_files(srcs)  # a file cut off mid-line, as `fetch` refuses a download

    def file_of(bl: Banlist) -> str | None:
        path = found.file_of(bl)
        return str(path) if path else None

    # the lists to be written, each held to `fetch`'s check, naming the file it came from
    whole = partial(check_whole, where_of=file_of, allow_smaller=allow_smaller or force,
                    what="the file")

    lists = found.ordered()
    if not lists and not found.skipped:
        shown = ", ".join(str(p) for p in srcs)
        raise FormatError(f"{shown} holds no list deckcheck can import (.lflist.conf, .toml, "
                          "Konami-id .json or YGOPRODeck cardinfo); nothing was changed.")
    return store(lists, found.skipped, target, clean=clean, force=force,
                 sources=[str(p) for p in srcs], used=found.used, moved=found.moved,
                 verify=None if clean else whole)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path, suffix=".part") as tmp:
        tmp.write_text(text, encoding="utf-8")


def _known(lists: Iterable[Banlist], skipped: dict[str, list[str]],
           formats: tuple[Format, ...]) -> list[Banlist]:
    """The lists of known formats; a `format` that is no format id at all refuses the import."""
    known = {f.id for f in formats}
    out: list[Banlist] = []
    unknown: dict[str, int] = {}
    for bl in lists:
        check_format_id(bl.format, bl.source or bl.name)
        if bl.format in known:
            out.append(bl)
        else:
            unknown[bl.format] = unknown.get(bl.format, 0) + 1
    for fid, n in sorted(unknown.items()):
        skipped.setdefault(f"format {fid}", []).append(
            f"{n} list(s): no format file for {fid!r} (add {fid}/format.toml to import them)")
    return out


def _below_shipped_official(chosen: dict[_Key, Banlist], skipped: dict[str, list[str]]
                            ) -> dict[_Key, Banlist]:
    """The precedence holds against the shipped lists too: an EDOPro list imported into the
    user's directory does not hide Konami's own list of the same format and day."""
    from deckcheck.formats.loader import shipped_dir

    shipped = shipped_dir()
    if shipped is None:
        return chosen
    out = {}
    for key, bl in chosen.items():
        path = shipped / bl.format / f"{bl.effective.isoformat()}.toml"
        if (bl.source or "").startswith("EDOPro") and path.is_file() and str(
                native.read_header(path).get("source", "")).startswith("Konami-id"):
            skipped.setdefault(bl.source or bl.name, []).append(
                f"{bl.name!r}: Konami's own list of {bl.effective.isoformat()} (shipped) wins")
            continue
        out[key] = bl
    return out


def _keep_in_force(chosen: dict[_Key, Banlist], target: Path
                   ) -> tuple[dict[_Key, Banlist], list[str]]:
    """The imported lists that make no list in force worse, and a sentence for each one
    left out (the list in force on its day is kept)."""
    from deckcheck.formats.loader import load_format

    out: dict[_Key, Banlist] = {}
    kept: list[str] = []
    for key, bl in chosen.items():
        try:
            old = load_format(bl.format).banlist_at(bl.effective)
        except (UnknownFormat, FormatError):
            old = None
        why = keep.worse(bl, old) if old is not None else None
        if old is None or why is None:
            out[key] = bl
            continue
        shipped = not (target / old.format / f"{old.effective.isoformat()}.toml").is_file()
        kept.append(keep.Kept(bl.format, bl.effective, old, bl, why, shipped).sentence())
    return out, kept


def _inside(target: Path, fid: str, day: dt.date) -> Path:
    path = target / fid / f"{day.isoformat()}.toml"
    root = target.resolve()
    if not path.resolve().is_relative_to(root):  # a slug cannot leave; a symlink could
        raise FormatError(f"{path}: outside {target}; nothing was changed.")
    return path


def _by_day(lists: list[Banlist]) -> tuple[dict[_Key, Banlist], dict[_Key, list[Banlist]], int]:
    """The list that wins each format and day (the last), every list read per format and
    day, and how many were replaced."""
    chosen: dict[_Key, Banlist] = {}
    groups: dict[_Key, list[Banlist]] = {}
    replaced = 0
    for bl in lists:
        key = (bl.format, bl.effective)
        replaced += key in chosen
        chosen[key] = bl
        groups.setdefault(key, []).append(bl)
    return chosen, groups, replaced


def _remove_others(target: Path, fids: Iterable[str], keep_paths: set[Path]) -> None:
    """Regenerating: the list files of the formats written that this import did not write."""
    for fid in fids:
        for old in (target / fid).glob("*.toml"):
            if old.name != "format.toml" and old not in keep_paths:
                old.unlink()


def _skip_lines(skips: Mapping[str, list[str]]) -> list[str]:
    out: list[str] = []
    for group, reasons in sorted(skips.items()):
        if len(reasons) > 3:
            out.append(f"{group}: {len(reasons)} lists skipped ({reasons[0]}; …)")
        else:
            out += [f"{group}: {r}" for r in reasons]
    return out


def store(lists: list[Banlist], skipped: Mapping[str, list[str]], target: Path, *,
          clean: bool = False, force: bool = False, sources: list[str] | None = None,
          used: Mapping[int, tuple[int, str | None]] | None = None,
          moved: Iterable[conflicts.Moved] = (),
          verify: Callable[[Iterable[Banlist]], None] | None = None) -> ImportReport:
    """Write the lists that win (one per format and day), with CONFLICTS.md; `verify` may
    refuse the lists to be written first (nothing is written then)."""
    report = ImportReport(dest=target)
    skips = {k: list(v) for k, v in skipped.items()}
    lists = _known(lists, skips, all_formats())
    chosen, groups, report.replaced = _by_day(lists)
    if not clean:  # regenerating a whole banlists/ folder compares nothing with the old one
        chosen = _below_shipped_official(chosen, skips)
        if not force:
            chosen, report.kept = _keep_in_force(chosen, target)
    if verify is not None:
        verify(chosen.values())
    paths = {key: _inside(target, *key) for key in chosen}
    try:
        for key, bl in sorted(chosen.items()):
            _write(paths[key], native.dump_list(bl))
            report.written[key[0]] = report.written.get(key[0], 0) + 1
        if clean:
            _remove_others(target, report.written, set(paths.values()))
        found = conflicts.find(groups.values(), lists)
        report.conflicts = len(found.cards)
        _write(target / conflicts.FILE, conflicts.render(found, sources or [], moved))
        if clean and used:  # regenerating banlists/: the EDOPro ids mapped, for imports
            _write(target / edopro_ids.FILE, edopro_ids.render(used))
    except OSError as exc:
        raise FormatError(f"{target}: the lists cannot be written there ({exc.strerror}); "
                          "set DECKCHECK_BANLISTS to a folder you may write.") from None
    report.skipped = _skip_lines(skips)
    clear_cache()
    return report
