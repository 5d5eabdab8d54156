"""`deckcheck banlist update`: import current and historical lists into the user's directory.

Offline (`import_lists(path)`): a folder is searched for EDOPro `.lflist.conf` files (with
EDOPro's `_index.json`, list name -> commit date, when present), Konami-id lists
(`<folder>/<date>.vector.json`, `.name.json`, Genesys `.raw.json`; the folder names the
list, e.g. `konami-id/tcg`) and deckcheck's own `.toml` lists. A single file may also be a
YGOPRODeck `cardinfo` answer (JSON or zip), dated by the caller. Online (`fetch()`): the
URLs below are downloaded through the shared HTTP helper, then imported the same way.

Every list is written as `<dest>/<format>/<YYYY-MM-DD>.toml` (dest: the user's directory,
or the shipped `banlists/` when regenerating it). Where two sources give a list for the same
format and day, the later one in this order wins: EDOPro lists by commit date, then Konami's
official lists, then deckcheck lists, then YGOPRODeck's. Konami's win over EDOPro's because
EDOPro's history (one file per format, its `!name` header renamed after its content changed)
sometimes gives a list the content of the next one: "2021.03 TCG" holds the list of
2021-07-01. For the same reason an EDOPro list named only by month ("2021.04 TCG") is left
out when Konami's lists of that format are present and none is of that month, and a format
whose `[imports]` say `edopro = false` (Master Duel: Konami's dated lists are complete) takes
none of EDOPro's. Every card on which the losing list disagreed with the winner is written
to `CONFLICTS.md` beside the lists, with EDOPro lists whose content is another official
list's than their name says.

EDOPro card databases (`.cdb`) among the sources give pre-errata and other EDOPro-only ids
(`504700178` "Sangan (GOAT)") the official passcode they stand for (`datas.alias`): lists
name the official card; without a database among the sources, the ids map as the shipped
lists' did (`edopro_ids`: `banlists/EDOPRO-IDS.toml`, written when regenerating). A list's
`format` must be a format id (a folder name: lowercase letters, digits, dashes; anything
else refuses the whole import), and lists of a format without a format file are skipped,
saying so. A list that would make the list in force on its day worse is kept out, saying
why (`keep`; `force` takes it). Nothing is written unless every file was read.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck import clock
from deckcheck.atomic import replacing
from deckcheck.errors import FailedDownload, FormatError, UnknownFormat
from deckcheck.formats import (
    conflicts,
    days,
    edopro_ids,
    keep,
    konami,
    lflist,
    native,
    ygoprodeck_banlist,
)
from deckcheck.formats.listnames import classify
from deckcheck.formats.loader import all_formats, clear_cache, user_dir
from deckcheck.formats.model import Banlist, Format

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool

EDOPRO_RAW = "https://raw.githubusercontent.com/ProjectIgnis/LFLists/master/"
#: What `deckcheck banlist update` downloads: EDOPro's LFLists repository (file name -> URL).
#: GOAT and Edison are frozen (their shipped lists are complete, with pre-errata ids mapped
#: to official passcodes, which a bare download cannot do); Master Duel takes Konami's only;
#: Rush Duel's Legend groups need Rush cards in the card pool (use --url for its list).
URLS: dict[str, str] = {name: EDOPRO_RAW + name for name in (
    "0TCG.lflist.conf", "OCG.lflist.conf", "Traditional.lflist.conf", "World.lflist.conf",
    "Speed.lflist.conf", "Genesys.lflist.conf")}
KONAMI_RAW = "https://raw.githubusercontent.com/DawnbrandBots/yaml-yugi-limit-regulation/HEAD/data/"
#: Konami's lists by Konami id as YAML Yugi publishes them, each with its official date: the
#: list in force and the next one announced (mapped to passcodes through the card database).
KONAMI_URLS: dict[str, str] = {
    f"konami-id/{folder}/{which}.vector.json": f"{KONAMI_RAW}{folder}/{which}.vector.json"
    for folder in ("tcg", "ocg", "master-duel") for which in ("current", "upcoming")}
#: YGOPRODeck's current lists (dated the day they are fetched), for `fetch(ygoprodeck=True)`.
YGOPRODECK_URLS: dict[str, str] = {
    f"ygoprodeck-{k}.cardinfo.json": f"https://db.ygoprodeck.com/api/v7/cardinfo.php?banlist={k}"
    for k in ("tcg", "ocg", "goat")}

_DATE_STEM = re.compile(r"^(\d{4}-\d{2}-\d{2})\.(vector|name|raw)\.json$")
#: A list keyed by card name is still imported when this many names (misspelt at the
#: source) match no card; they are named in the list's `source` line.
_NAME_TYPOS = 3
#: A format id: the name of its folder under banlists/.
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def check_format_id(fid: str, where: str) -> None:
    """FormatError unless `fid` can be a format id (a folder name inside banlists/)."""
    if not _SLUG.match(fid) or len(fid) > 64:
        raise FormatError(f"{where}: format {fid!r} is not a format id (lowercase letters, "
                          "digits and dashes, like \"tcg\"); fix the list's `format` line. "
                          "Nothing was changed.")


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


@dataclass
class _Found:
    lists: list[tuple[tuple[int, str], Banlist]] = field(default_factory=list)
    skipped: dict[str, list[str]] = field(default_factory=dict)
    #: EDOPro-only id -> the official passcode it stands for (from .cdb `datas.alias`)
    aliases: dict[int, int] = field(default_factory=dict)
    #: the aliases some list used: id -> (official passcode, the name the list gave it)
    used: dict[int, tuple[int, str | None]] = field(default_factory=dict)
    #: Konami lists given another day than Konami's (`days`), for CONFLICTS.md
    moved: list[conflicts.Moved] = field(default_factory=list)

    def add(self, rank: tuple[int, str], bl: Banlist) -> None:
        self.lists.append((rank, bl))

    def skip(self, group: str, why: str) -> None:
        reasons = self.skipped.setdefault(group, [])
        if why not in reasons:  # a file read for two formats is reported once
            reasons.append(why)


def _read_index(paths: Iterable[Path]) -> dict[str, str]:
    index: dict[str, str] = {}
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise FormatError(f"{path}: not valid JSON; fix or remove it.") from None
        for name, info in (data.items() if isinstance(data, dict) else ()):
            if isinstance(info, dict) and isinstance(info.get("date"), str):
                try:
                    when = dt.datetime.fromisoformat(info["date"])
                except ValueError:
                    continue  # an entry without a usable date is as good as none
                # ISO dates with offsets compare correctly once made UTC
                index[name] = when.astimezone(dt.UTC).isoformat()
    return index


def _official_dates(files: Iterable[Path]) -> dict[str, list[dt.date]]:
    out: dict[str, list[dt.date]] = {}
    for path in files:
        m = _DATE_STEM.match(path.name)
        if m:
            out.setdefault(path.parent.name, []).append(dt.date.fromisoformat(m[1]))
    return out


def _known_dates(official: dict[str, list[dt.date]], formats: tuple[Format, ...]) -> None:
    """Where the sources hold no Konami-id lists of a folder, the official days deckcheck
    already has (its shipped lists, dated by Konami's) date the "YYYY.MM" names."""
    from deckcheck.formats.loader import load_format

    for f in formats:
        folder = f.imports.konami
        if folder and folder not in official and f.list_mode != "whitelist":
            try:
                days = load_format(f.id).list_dates()
            except FormatError:
                continue
            if days:
                official[folder] = days


def _konami_list(path: Path, folder: str, fmt: Format | None, name: str, day: dt.date,
                 pool: CardPool, note: str | None = None) -> Banlist | None:
    """One Konami-id file as a list of `fmt` (None: a folder no format claims); None when
    it holds no cards. `note` ends its `source` line (where its day comes from, `days`)."""
    fid = fmt.id if fmt else folder
    source = f"Konami-id list {folder}/{path.name}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        raise FormatError(f"{path}: not valid JSON; fix or remove it.") from None
    if path.name.endswith(".vector.json"):
        _, reg = konami.parse_vector(data, str(path))
        points = fmt.list_mode == "points" if fmt else any(v > 3 for v in reg.values())
        bl = konami.from_vector(reg, pool, name=name, format=fid, effective=day,
                                points=points, source=source)
    else:
        if not isinstance(data, dict) or not data or "Result" in data:
            return None
        points = path.name.endswith(".raw.json") or (fmt is not None and
                                                     fmt.list_mode == "points")
        bl = konami.from_names(data, pool, name=name, format=fid, effective=day,
                               points=points, source=source, tolerate=_NAME_TYPOS)
    if fmt is not None and fmt.forbidden_as_limited and fmt.imports.konami != folder:
        # a list derived from another format's (Traditional from TCG): Forbidden -> Limited
        bl = Banlist(name=bl.name, format=bl.format, effective=bl.effective,
                     source=f"{source}, Forbidden counted as Limited",
                     entries=[e.model_copy(update={"limit": 1}) if e.limit == 0 else e
                              for e in bl.entries])
    if note is not None and bl.source is not None:
        bl = bl.model_copy(update={"source": bl.source + note})
    return bl


def _fixed_days(folder: str, paths: Mapping[dt.date, Path], pool: CardPool | None,
                formats: tuple[Format, ...], hist: days.History | None,
                found: _Found) -> days.Fixed:
    """The days the lists of `folder` are in force from where they are not Konami's
    (`days.from_history`), or without YGOJSON among the sources, as the shipped lists say
    (`days.from_shipped`)."""
    from deckcheck.formats.loader import shipped_dir

    own = next((f for f in formats if f.imports.konami == folder), None)
    files = {day: path.name for day, path in paths.items()}
    if hist is None or pool is None:
        shipped = shipped_dir()
        heads = [native.read_header(p) for p in sorted((shipped / own.id).glob("*.toml"))
                 if p.name != "format.toml"] if shipped is not None and own else []
        return days.from_shipped(folder, files, heads)
    lists: list[Banlist] = []
    for day, path in sorted(paths.items()):
        try:
            bl = _konami_list(path, folder, own, "", day, pool)
        except konami.UnmappedCards:
            continue
        if bl is not None:
            lists.append(bl)

    def main(pc: int) -> int:
        card = pool.get(pc)
        return card.passcode if card is not None else pc

    fixed = days.from_history(folder, files, lists, hist, main)
    found.moved += fixed.moved
    for why in fixed.skipped:
        found.skip(f"konami-id/{folder}", why)
    return fixed


def _konami_lists(files: list[Path], pool: CardPool | None, formats: tuple[Format, ...],
                  found: _Found, hist: days.History | None = None
                  ) -> dict[str, dict[dt.date, dt.date | None]]:
    """Konami's lists (by Konami id or name) as lists of the formats that take them; returns
    the days moved per folder (`_fixed_days`)."""
    by_folder: dict[str, dict[dt.date, Path]] = {}
    for path in sorted(files):
        m = _DATE_STEM.match(path.name)
        if m is None:
            continue  # current.*.json repeats the newest dated list
        day = dt.date.fromisoformat(m[1])
        slot = by_folder.setdefault(path.parent.name, {})
        # a .vector.json (by Konami id) is preferred to a .name.json of the same day
        if day not in slot or m[2] == "vector":
            slot[day] = path
    moved: dict[str, dict[dt.date, dt.date | None]] = {}
    for folder, paths in sorted(by_folder.items()):
        got = _fixed_days(folder, paths, pool, formats, hist, found)
        fixed, notes = got.days, got.notes
        moved[folder] = fixed
        if pool is None:  # (the days still date EDOPro's month names)
            found.skip(f"konami-id/{folder}", f"{len(paths)} list(s): no card pool to map "
                                              "Konami ids and names to passcodes")
            continue
        used = sorted(d for d in (fixed.get(k, k) for k in paths) if d is not None)
        targets: list[Format | None] = [f for f in formats if folder in (
            f.imports.konami, f.imports.derived_from)] or [None]
        for fmt in targets:
            label = fmt.imports.names[0] if fmt and fmt.imports.names else folder.upper()
            for konami_day, path in sorted(paths.items()):
                moved_to = fixed.get(konami_day, konami_day)
                if moved_to is None:
                    continue
                day = moved_to
                # "2026.05 TCG" as EDOPro names it; "2024.12.09 TCG" when a month has two
                twins = sum(1 for d in used if (d.year, d.month) == (day.year, day.month))
                name = f"{day:%Y.%m.%d} {label}" if twins > 1 else f"{day:%Y.%m} {label}"
                try:
                    bl = _konami_list(path, folder, fmt, name, day, pool,
                                      notes.get(konami_day))
                except konami.UnmappedCards as exc:
                    found.skip(f"konami-id/{folder}", f"{path.name}: {len(exc.missing)} "
                               f"card(s) not in the card pool ({exc.missing[0]}…)")
                    continue
                if bl is None:
                    found.skip(f"konami-id/{folder}", f"{path.name}: holds no cards")
                    continue
                found.add((1, day.isoformat()), bl)
    return moved


def _lflist_lists(files: list[Path], index: Mapping[str, str],
                  official: Mapping[str, list[dt.date]], pool: CardPool | None,
                  formats: tuple[Format, ...], found: _Found) -> None:
    groups = {f.id: dict(f.imports.lflist_groups) for f in formats}
    kind_groups = {f.id: dict(f.imports.lflist_kind_groups) for f in formats}
    for path in sorted(files):
        with path.open(encoding="utf-8-sig") as lines:  # streamed: a huge file stops early
            raws = lflist.parse(lines, str(path))
        for raw in raws:
            ln = classify(raw.name, formats, official)
            day = ln.effective
            fmt = next((f for f in formats if f.id == ln.format), None)
            if fmt is not None and not fmt.imports.edopro:
                found.skip(path.name, f"{raw.name!r}: {fmt.name}'s lists come from Konami's "
                                      "dated lists only (its format file says edopro = false)")
                continue
            folders = fmt.imports.dates_from if fmt is not None else []
            newest = max((d for folder in folders for d in official.get(folder, ())),
                         default=None)
            if ln.approximate and newest is not None and day is not None and \
                    (day.year, day.month) <= (newest.year, newest.month):
                # within the official history a month without an official list is a
                # mislabelled one; after it, the 1st of the month is the best day known
                found.skip(path.name, f"{raw.name!r}: no official list that month "
                                      f"({', '.join(folders)}), so the name is "
                                      "not a date to trust")
                continue
            committed = index.get(raw.name)
            if day is None and committed:
                day = dt.date.fromisoformat(committed[:10])
            if day is None:
                found.skip(path.name, f"{raw.name!r}: no date in its name or in _index.json")
                continue
            _apply_aliases(raw, found.aliases, found.used)
            bl = lflist.to_banlist(raw, format=ln.format, effective=day,
                                   source=f"EDOPro LFLists, {path.name}", pool=pool,
                                   group_headers=groups.get(ln.format),
                                   kind_headers=kind_groups.get(ln.format))
            # lists not in _index.json are the current files: newest
            found.add((0, committed or "9999"), bl)


def _apply_aliases(raw: lflist.RawList, aliases: Mapping[int, int],
                   used: dict[int, tuple[int, str | None]]) -> None:
    """EDOPro-only ids of a parsed list -> the official passcodes they stand for (in place;
    each id mapped is recorded in `used`)."""
    if not aliases:
        return
    out: dict[int, lflist.RawEntry] = {}
    for code, e in raw.entries.items():
        official = aliases.get(code)
        if official is None:
            out.setdefault(code, e)
            continue
        used.setdefault(code, (official, e.name))
        mapped = lflist.RawEntry(official, e.count, e.name, e.section)
        old = out.get(official)
        # the strictest of the official card's lines wins (a limit; points: the highest)
        if old is None or (mapped.count > old.count if raw.genesys else mapped.count < old.count):
            out[official] = mapped
    raw.entries = out


def _read_aliases(files: Iterable[Path], found: _Found) -> None:
    from deckcheck.sources import edopro_cdb

    for path in files:
        if not edopro_cdb.is_cdb(path):
            raise FormatError(f"{path}: not a readable EDOPro card database (.cdb); give the "
                              "file as EDOPro publishes it, or remove it.")
        for rec in edopro_cdb.parse(path):
            alias = rec.get("alias")
            if isinstance(alias, int) and 0 < alias <= keep.OFFICIAL_MAX < rec["passcode"]:
                found.aliases[rec["passcode"]] = alias


def _cardinfo(path: Path) -> Any:
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            name = next((n for n in z.namelist() if n.endswith(".json")
                         and not n.startswith("__MACOSX")), None)
            if name is None:
                raise FormatError(f"{path}: the zip holds no JSON file.")
            return json.loads(z.read(name))
    return json.loads(path.read_text(encoding="utf-8"))


def _ygoprodeck_lists(path: Path, day: dt.date, formats: tuple[Format, ...],
                      found: _Found) -> None:
    keys = {f.imports.ygoprodeck: f.id for f in formats if f.imports.ygoprodeck}
    for key, fid in ygoprodeck_banlist.KEYS.items():
        keys.setdefault(key, fid)
    # "ygoprodeck-tcg.cardinfo.json" answered `?banlist=tcg`: only its ban_tcg is complete
    only = re.match(r"^ygoprodeck-(\w+)\.cardinfo\.json$", path.name)
    if only:
        keys = {k: v for k, v in keys.items() if k == f"ban_{only[1]}"}
    try:
        data = _cardinfo(path)
    except ValueError:
        raise FormatError(f"{path}: not valid JSON; give a YGOPRODeck cardinfo answer.") \
            from None
    for bl in ygoprodeck_banlist.banlists(data, effective=day, keys=keys,
                                  source=f"YGOPRODeck cardinfo, {path.name}"):
        found.add((3, path.name), bl)


Sources = str | Path | Iterable[str | Path]


def _paths(src: Sources) -> list[Path]:
    return [Path(src)] if isinstance(src, (str, Path)) else [Path(p) for p in src]


def collect(src: Sources, *, pool: CardPool | None = None, date: dt.date | None = None,
            formats: tuple[Format, ...] | None = None
            ) -> tuple[list[Banlist], dict[str, list[str]]]:
    """Every list under `src` (folders or files, one or several), in precedence order (later
    wins), and what was skipped (by source folder or file) with the reason."""
    lists, skipped, _ = _collect(_paths(src), pool=pool, date=date, formats=formats)
    return lists, skipped


def _collect(srcs: list[Path], *, pool: CardPool | None, date: dt.date | None,
             formats: tuple[Format, ...] | None
             ) -> tuple[list[Banlist], dict[str, list[str]], _Found]:
    formats = formats if formats is not None else all_formats()
    found = _Found()
    files: list[Path] = []
    for one in srcs:
        if not one.exists():
            raise FormatError(f"{one}: no such file or folder; give a folder of lists or a "
                              "list file.")
        files += [one] if one.is_file() else sorted(p for p in one.rglob("*") if p.is_file())
    single = srcs[0] if len(srcs) == 1 and srcs[0].is_file() else None
    lfl = [p for p in files if p.name.endswith(".lflist.conf")]
    kon = [p for p in files if _DATE_STEM.match(p.name)]
    toml = [p for p in files if p.suffix == ".toml" and p.name != "format.toml"]
    cdbs = [p for p in files if p.suffix == ".cdb"]
    index = _read_index(p for p in files if p.name == "_index.json")
    official = _official_dates(kon)
    _known_dates(official, formats)
    if single is not None and not (lfl or toml or cdbs or _DATE_STEM.match(single.name)):
        text_head = single.read_bytes()[:4096]
        if days.is_ygojson(single):
            pass  # list days only: nothing to import by itself
        elif single.suffix in (".json", ".zip") and (b'"data"' in text_head or
                                                     zipfile.is_zipfile(single)):
            _ygoprodeck_lists(single, date or clock.today(), formats, found)
        elif lflist.looks_like_lflist(text_head.decode("utf-8", "replace")):
            lfl = [single]
        elif native.looks_native(text_head.decode("utf-8", "replace")):
            toml = [single]
        else:
            raise FormatError(f"{single}: not a list file deckcheck can import (.lflist.conf, "
                              ".toml, Konami-id .json or YGOPRODeck cardinfo).")
    if single is None:
        for p in files:
            if p.name.endswith(".cardinfo.json"):
                _ygoprodeck_lists(p, date or clock.today(), formats, found)
    if not cdbs:  # no card database given: EDOPro's ids map as the shipped lists' did
        from deckcheck.formats.loader import shipped_dir

        found.aliases.update(edopro_ids.read(shipped_dir()))
    _read_aliases(cdbs, found)
    ygo = [p for p in files if days.is_ygojson(p)]
    hist = days.read(ygo[0]) if ygo else None
    for folder, fixed in _konami_lists(kon, pool, formats, found, hist).items():
        if folder in official and fixed:  # EDOPro's month names: the days the lists took
            official[folder] = sorted(d for d in (fixed.get(k, k) for k in official[folder])
                                      if d is not None)
    _lflist_lists(lfl, index, official, pool, formats, found)
    for p in toml:
        bl = native.parse_list(p.read_text(encoding="utf-8"), p)
        check_format_id(bl.format, str(p))
        found.add((2, str(p)), bl)
    ordered = [bl for _, bl in sorted(found.lists, key=lambda t: t[0])]
    return ordered, found.skipped, found


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path, suffix=".part") as tmp:
        tmp.write_text(text, encoding="utf-8")


def import_lists(src: Sources, *, pool: CardPool | None = None, dest: str | Path | None = None,
                 date: dt.date | None = None, clean: bool = False,
                 force: bool = False, allow_smaller: bool = False) -> ImportReport:
    """Import every list under `src` (one or several folders or files) into `dest` (default:
    the user's banlist directory). `clean`: list files of the imported formats that this
    import did not write are removed (regenerating the shipped `banlists/`). A list much
    smaller than the one in force it would follow is refused as `fetch` refuses a download
    (`check_whole`), unless `allow_smaller`. A list that would make the list in force on its
    day worse is not written (`keep.worse`; the report's `kept` says why) unless `force`."""
    target = Path(dest) if dest is not None else user_dir()
    srcs = _paths(src)
    lists, skipped, found = _collect(srcs, pool=pool, date=date, formats=None)
    for path in _list_files(srcs):  # a file cut off mid-line, as `fetch` refuses a download
        last = _cut_line(path)
        if last is not None:
            raise FormatError(f"{path}: its last line ({last}) is not a list line (the file "
                              "looks cut off); no list was changed.")

    def whole(chosen: Iterable[Banlist]) -> None:
        """A list newer than every list of its format (the one that would come into force)
        is held to `fetch`'s check against the newest; older lists and another source's copy
        of a list deckcheck has are imported as they are (precedence picks between those)."""
        for bl in chosen:
            now = _current(bl.format, dt.date.max)
            if now is not None and bl.effective > now.effective:
                check_whole([bl], bl.source or ", ".join(map(str, srcs)),
                            allow_smaller or force,
                            "the file")

    if not lists and not skipped:
        shown = ", ".join(str(p) for p in srcs)
        raise FormatError(f"{shown} holds no list deckcheck can import (.lflist.conf, .toml, "
                          "Konami-id .json or YGOPRODeck cardinfo); nothing was changed.")
    return _store(lists, skipped, target, clean=clean, force=force,
                  allow_smaller=allow_smaller, sources=[str(p) for p in srcs],
                  used=found.used, moved=found.moved, verify=None if clean else whole)


def _list_files(srcs: Iterable[Path]) -> Iterator[Path]:
    """The EDOPro lists (.lflist.conf) named or in the folders named."""
    for src in srcs:
        if src.is_file() and src.name.endswith(".conf"):
            yield src
        elif src.is_dir():
            yield from sorted(p for p in src.rglob("*.lflist.conf") if p.is_file())


def _cut_line(path: Path) -> int | None:
    """The number of an EDOPro list's last line when it is no list line (the file was cut
    off there; published lists have odd lines inside, never at the end), else None."""
    text = path.read_bytes().decode("utf-8-sig", "replace")
    if not lflist.looks_like_lflist(text):
        return None
    lines = text.rstrip().splitlines()
    bad = lflist.unreadable_lines(text)
    return len(lines) if bad and bad[-1] == len(lines) else None


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


def _below_shipped_official(chosen: dict[tuple[str, dt.date], Banlist],
                            skipped: dict[str, list[str]]
                            ) -> dict[tuple[str, dt.date], Banlist]:
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


def _keep_in_force(chosen: dict[tuple[str, dt.date], Banlist], target: Path, *,
                   allow_smaller: bool = False
                   ) -> tuple[dict[tuple[str, dt.date], Banlist], list[str]]:
    """The imported lists that make no list in force worse, and a sentence for each one
    left out (the list in force on its day is kept)."""
    from deckcheck.formats.loader import load_format

    out: dict[tuple[str, dt.date], Banlist] = {}
    kept: list[str] = []
    for key, bl in chosen.items():
        try:
            old = load_format(bl.format).banlist_at(bl.effective)
        except (UnknownFormat, FormatError):
            old = None
        why = keep.worse(bl, old, None if allow_smaller else shrinks) if old is not None \
            else None
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


def _store(lists: list[Banlist], skipped: Mapping[str, list[str]], target: Path, *,
           clean: bool = False, force: bool = False, allow_smaller: bool = False,
           sources: list[str] | None = None,
           used: Mapping[int, tuple[int, str | None]] | None = None,
           moved: Iterable[conflicts.Moved] = (),
           verify: Callable[[Iterable[Banlist]], None] | None = None) -> ImportReport:
    """Write the lists that win (one per format and day); `verify` may refuse them first."""
    report = ImportReport(dest=target)
    skips = {k: list(v) for k, v in skipped.items()}
    lists = _known(lists, skips, all_formats())
    chosen: dict[tuple[str, dt.date], Banlist] = {}
    groups: dict[tuple[str, dt.date], list[Banlist]] = {}
    for bl in lists:
        if (bl.format, bl.effective) in chosen:
            report.replaced += 1
        chosen[(bl.format, bl.effective)] = bl
        groups.setdefault((bl.format, bl.effective), []).append(bl)
    if not clean:  # regenerating a whole banlists/ folder compares nothing with the old one
        chosen = _below_shipped_official(chosen, skips)
        if not force:
            chosen, report.kept = _keep_in_force(chosen, target, allow_smaller=allow_smaller)
    if verify is not None:
        verify(chosen.values())
    paths = {key: _inside(target, *key) for key in chosen}
    try:
        for key, bl in sorted(chosen.items()):
            _write(paths[key], native.dump_list(bl))
            report.written[key[0]] = report.written.get(key[0], 0) + 1
        if clean:
            keep = set(paths.values())
            for fid in report.written:
                for old in (target / fid).glob("*.toml"):
                    if old.name != "format.toml" and old not in keep:
                        old.unlink()
        found = conflicts.find(groups.values(), lists)
        report.conflicts = len(found.cards)
        _write(target / conflicts.FILE, conflicts.render(found, sources or [], moved))
        if clean and used:  # regenerating banlists/: the EDOPro ids mapped, for imports
            _write(target / edopro_ids.FILE, edopro_ids.render(used))
    except OSError as exc:
        raise FormatError(f"{target}: the lists cannot be written there ({exc.strerror}); "
                          "set DECKCHECK_BANLISTS to a folder you may write.") from None
    for group, reasons in sorted(skips.items()):
        if len(reasons) > 3:
            report.skipped.append(f"{group}: {len(reasons)} lists skipped ({reasons[0]}; …)")
        else:
            report.skipped += [f"{group}: {r}" for r in reasons]
    clear_cache()
    return report


# -- downloads ------------------------------------------------------------------------------

#: A section holding at least this many cards may not shrink below half in one download.
_SHRINK_FLOOR = 10


def reachable(urls: Iterable[str], timeout: float = 3.0) -> list[str]:
    """The hosts ("host:port") of `urls` that answer a TCP connection within `timeout`
    seconds (through the proxy the environment names, when there is one). Offline, every
    host fails at once or at the timeout, never after minutes of retries."""
    import socket
    import threading
    import urllib.request
    from urllib.parse import urlsplit

    proxies = urllib.request.getproxies()
    targets: dict[str, tuple[str, int]] = {}
    for url in urls:
        parts = urlsplit(url)
        via = proxies.get(parts.scheme)
        where = urlsplit(via) if via and not urllib.request.proxy_bypass(parts.hostname or "") \
            else parts
        port = where.port or (443 if where.scheme == "https" else 80)
        if where.hostname:
            targets[f"{where.hostname}:{port}"] = (where.hostname, port)
    ok: list[str] = []

    def probe(key: str, host: str, port: int) -> None:
        try:
            with socket.create_connection((host, port), timeout=timeout):
                ok.append(key)
        except OSError:
            pass

    threads = [threading.Thread(target=probe, args=(k, *hp), daemon=True)
               for k, hp in targets.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout + 1.0)  # a name lookup that hangs is given up on, not waited for
    return sorted(ok)


def _what_it_is(body: bytes, name: str) -> str | None:
    """Why a downloaded body is not a list (None when it may be one)."""
    text = body.decode("utf-8-sig", "replace")
    if not text.strip():
        return "the body is empty"
    head = text.lstrip()[:512].casefold()
    if head.startswith(("<!doctype", "<html", "<?xml", "<")):
        return "it is an HTML page, not a list (an error page?)"
    if name.endswith(".json"):
        try:
            json.loads(text)
        except ValueError:
            return "it is not valid JSON (cut off?)"
        return None
    if name.endswith(".lflist.conf") or lflist.looks_like_lflist(text):
        if not lflist.looks_like_lflist(text):
            return "it holds no list (no `!name` line)"
        bad = lflist.unreadable_lines(text)
        if bad:
            return f"line {bad[0]} is not a list line (the download looks cut off)"
    return None


def _section_counts(bl: Banlist) -> dict[str, int]:
    counts = {label: sum(1 for e in bl.entries if e.limit == limit and e.points is None)
              for limit, label in ((0, "Forbidden"), (1, "Limited"), (2, "Semi-Limited"))}
    counts["pointed"] = sum(1 for e in bl.entries if e.points)
    counts["grouped"] = sum(len(g.passcodes) for g in bl.groups)
    counts["cards"] = len(bl.entries)
    return counts


def shrinks(new: Banlist, old: Banlist) -> str | None:
    """How `new` is much smaller than `old` (a section of 10+ cards down to less than half),
    or None."""
    before, after = _section_counts(old), _section_counts(new)
    for label, n in before.items():
        if n >= _SHRINK_FLOOR and after[label] * 2 < n:
            what = {"cards": "entries", "pointed": "pointed cards",
                    "grouped": "cards in limit groups"}.get(label, f"{label} cards")
            return (f"{new.name} has {after[label]} {what} where {old.name} "
                    f"({old.effective.isoformat()}) has {n}")
    return None


def check_whole(lists: Iterable[Banlist], where: str, allow_smaller: bool,
                what: str) -> None:
    """Refuse lists much smaller than the list in force they would follow (`shrinks`), as a
    cut-off download or file (`what`), unless `allow_smaller`: one check for `--url` and
    `--from` alike."""
    for bl in lists:
        check_format_id(bl.format, where)
        old = None if allow_smaller else _current(bl.format, bl.effective)
        if old is not None and not bl.groups and old.groups:
            old = old.model_copy(update={"groups": []})  # a kind of list that has none
        small = shrinks(bl, old) if old is not None else None
        if small:
            raise FormatError(f"{where}: {small}, so {what} looks cut off; no list was changed "
                              "(pass --allow-smaller if the list really shrank).")


def _current(fid: str, day: dt.date) -> Banlist | None:
    from deckcheck.formats.loader import load_format

    try:
        fmt = load_format(fid)
    except UnknownFormat:
        return None  # a new format: nothing to compare with
    return fmt.banlist_at(day) or fmt.newest_list()


def fetch(urls: Mapping[str, str] | None = None, *, pool: CardPool | None = None,
          dest: str | Path | None = None, http: Any = None,
          date: dt.date | None = None, allow_smaller: bool = False,
          probe: bool = True, force: bool = False) -> ImportReport:
    """Download lists (file name -> URL, default `URLS`), verify them, and import them.

    Offline (no host answers within seconds) `FailedDownload` says so at once. A URL that
    fails is reported as skipped; when every one fails, `FailedDownload`. A download that is
    not a whole list (empty, an HTML page, bad JSON, a line cut off) or is much smaller than
    the list in force it would follow (`shrinks`; `allow_smaller` accepts it) refuses the
    whole update: nothing is changed. A list that would make the list in force worse is
    kept out as by `import_lists` unless `force` (which also allows a smaller list)."""
    from deckcheck.sources.http import Http

    urls = dict(urls or URLS)
    failed: list[str] = []
    if probe and any(_probed(u) for u in urls.values()):
        up = set(reachable(u for u in urls.values() if _probed(u)))
        if not up and all(_probed(u) for u in urls.values()):
            hosts = sorted({_host(u) for u in urls.values()})
            raise FailedDownload(f"Cannot reach {', '.join(hosts)} (no network?); no list "
                                 "was changed — import from a folder with `deckcheck banlist "
                                 "update --from DIR` when offline.")
        for fname, url in list(urls.items()):
            if _probed(url) and _host(url, proxied=True) not in up:
                failed.append(f"{fname}: {_host(url)} did not answer")
                del urls[fname]
    client = http or Http()
    first: str | None = None
    with tempfile.TemporaryDirectory(prefix="deckcheck-banlists-") as tmp:
        got: list[tuple[str, Path]] = []
        for fname, url in urls.items():
            path = _download_path(Path(tmp), fname)
            try:
                client.download(url, path)
            except FailedDownload as exc:
                failed.append(f"{fname}: {exc.message}")
                first = first or exc.message
                continue
            got.append((url, _dated(path)))
        if not got:
            # the download error already says what failed and that nothing was changed
            raise FailedDownload(f"No list could be downloaded: {first}") if first \
                else FailedDownload(f"No list could be downloaded: {'; '.join(failed)}")
        lists: list[Banlist] = []
        skipped: dict[str, list[str]] = {}
        for url, path in got:
            why = _what_it_is(path.read_bytes(), path.name)
            if why is None:
                try:
                    mine, skips, _ = _collect([path], pool=pool, date=date, formats=None)
                except FormatError as exc:
                    why = str(exc).removeprefix(f"{path}: ").removesuffix(
                        " Nothing was changed.").rstrip(".")
                else:
                    if not mine and not skips:
                        why = "it holds no list"
            if why is not None:
                raise FormatError(f"{url}: {why}; no list was changed.")
            check_whole(mine, url, allow_smaller or force, "the download")
            lists += mine
            for k, v in skips.items():
                skipped.setdefault(k, []).extend(v)
        target = Path(dest) if dest is not None else user_dir()
        report = _store(lists, skipped, target, force=force, allow_smaller=allow_smaller,
                        sources=list(urls.values()))
    report.skipped += failed
    return report


def _download_path(tmp: Path, fname: str) -> Path:
    """Where a download named `fname` goes: its folders kept (a Konami-id list's folder names
    its format), never outside `tmp`."""
    parts = [p for p in Path(fname).parts if p not in ("", ".", "..", "/") and ":" not in p
             and "\\" not in p]
    path = tmp.joinpath(*parts) if parts else tmp / "download"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _dated(path: Path) -> Path:
    """A Konami-id list downloaded as `current.vector.json` renamed after the date it holds
    (`2026-05-18.vector.json`), as the importer finds them; anything else as it is."""
    if not path.name.endswith(".vector.json") or _DATE_STEM.match(path.name):
        return path
    try:
        day = json.loads(path.read_text(encoding="utf-8")).get("date")
        named = path.with_name(f"{dt.date.fromisoformat(str(day)[:10])}.vector.json")
    except (ValueError, AttributeError, TypeError, UnicodeDecodeError):
        return path  # verification names what is wrong with it
    path.replace(named)
    return named


def _probed(url: str) -> bool:
    """Only http(s) hosts are probed; any other URL is left to the downloader to refuse."""
    return url.startswith(("http://", "https://"))


def _host(url: str, proxied: bool = False) -> str:
    import urllib.request
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if proxied:
        via = urllib.request.getproxies().get(parts.scheme)
        if via and not urllib.request.proxy_bypass(parts.hostname or ""):
            parts = urlsplit(via)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.hostname}:{port}" if proxied else str(parts.hostname)
