"""`deckcheck banlist update`: import current and historical lists into the user's directory.

Offline (`import_lists(path)`): a folder is searched for EDOPro `.lflist.conf` files (with
EDOPro's `_index.json`, list name -> commit date, when present), Konami-id lists
(`<folder>/<date>.vector.json`, `.name.json`, Genesys `.raw.json`; the folder names the
list, e.g. `konami-id/tcg`) and deckcheck's own `.toml` lists. A single file may also be a
YGOPRODeck `cardinfo` answer (JSON or zip), dated by the caller. Online (`fetch()`): the
URLs below are downloaded through the shared HTTP helper, then imported the same way.

Every list is written as `<user dir>/<format>/<YYYY-MM-DD>.toml`. Where two sources give a
list for the same format and day, the later one in this order wins: EDOPro lists by commit
date, then Konami's official lists, then deckcheck lists, then YGOPRODeck's. Konami's win
over EDOPro's because EDOPro's history (one file per format, its `!name` header renamed
after its content changed) sometimes gives a list the content of the next one: "2021.03 TCG"
holds the list of 2021-07-01. For the same reason an EDOPro list named only by month
("2021.04 TCG") is left out when Konami's lists of that format are present and none is of
that month. Nothing is written unless every file was read.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckcheck.atomic import replacing
from deckcheck.errors import FailedDownload, FormatError
from deckcheck.formats import konami, lflist, native, ygoprodeck
from deckcheck.formats.listnames import classify
from deckcheck.formats.loader import all_formats, clear_cache, user_dir
from deckcheck.formats.model import Banlist, Format

EDOPRO_RAW = "https://raw.githubusercontent.com/ProjectIgnis/LFLists/master/"
#: What `deckcheck banlist update` downloads: EDOPro's LFLists repository (file name -> URL).
URLS: dict[str, str] = {name: EDOPRO_RAW + name for name in (
    "0TCG.lflist.conf", "OCG.lflist.conf", "Traditional.lflist.conf", "World.lflist.conf",
    "GOAT.lflist.conf", "Speed.lflist.conf", "Genesys.lflist.conf",
    "MasterDuel.lflist.conf", "Edison.lflist.conf")}
#: YGOPRODeck's current lists (dated the day they are fetched), for `fetch(ygoprodeck=True)`.
YGOPRODECK_URLS: dict[str, str] = {
    f"ygoprodeck-{k}.cardinfo.json": f"https://db.ygoprodeck.com/api/v7/cardinfo.php?banlist={k}"
    for k in ("tcg", "ocg", "goat")}

_DATE_STEM = re.compile(r"^(\d{4}-\d{2}-\d{2})\.(vector|name|raw)\.json$")


@dataclass
class ImportReport:
    """What an import did: lists written per format, and what was left out and why."""

    dest: Path
    written: dict[str, int] = field(default_factory=dict)
    #: lists read but replaced by another for the same format and day
    replaced: int = 0
    skipped: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.written.values())


@dataclass
class _Found:
    lists: list[tuple[tuple[int, str], Banlist]] = field(default_factory=list)
    skipped: dict[str, list[str]] = field(default_factory=dict)

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


def _konami_list(path: Path, folder: str, fmt: Format | None, name: str, day: dt.date,
                 pool: Any) -> Banlist | None:
    """One Konami-id file as a list of `fmt` (None: a folder no format claims); None when
    it holds no cards."""
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
                               points=points, source=source)
    if fmt is not None and fmt.forbidden_as_limited and fmt.imports.konami != folder:
        # a list derived from another format's (Traditional from TCG): Forbidden -> Limited
        bl = Banlist(name=bl.name, format=bl.format, effective=bl.effective,
                     source=f"{source}, Forbidden counted as Limited",
                     entries=[e.model_copy(update={"limit": 1}) if e.limit == 0 else e
                              for e in bl.entries])
    return bl


def _konami_lists(files: list[Path], pool: Any, formats: tuple[Format, ...],
                  found: _Found) -> None:
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
    for folder, days in sorted(by_folder.items()):
        if pool is None:
            found.skip(f"konami-id/{folder}", f"{len(days)} list(s): no card pool to map "
                                              "Konami ids and names to passcodes")
            continue
        targets: list[Format | None] = [f for f in formats if folder in (
            f.imports.konami, f.imports.derived_from)] or [None]
        for fmt in targets:
            label = fmt.imports.names[0] if fmt and fmt.imports.names else folder.upper()
            for day, path in sorted(days.items()):
                # "2026.05 TCG" as EDOPro names it; "2024.12.09 TCG" when a month has two
                twins = sum(1 for d in days if (d.year, d.month) == (day.year, day.month))
                name = f"{day:%Y.%m.%d} {label}" if twins > 1 else f"{day:%Y.%m} {label}"
                try:
                    bl = _konami_list(path, folder, fmt, name, day, pool)
                except konami.UnmappedCards as exc:
                    found.skip(f"konami-id/{folder}", f"{path.name}: {len(exc.missing)} "
                               f"card(s) not in the card pool ({exc.missing[0]}…)")
                    continue
                if bl is None:
                    found.skip(f"konami-id/{folder}", f"{path.name}: holds no cards")
                    continue
                found.add((1, day.isoformat()), bl)


def _lflist_lists(files: list[Path], index: Mapping[str, str],
                  official: Mapping[str, list[dt.date]], pool: Any,
                  formats: tuple[Format, ...], found: _Found) -> None:
    groups = {f.id: dict(f.imports.lflist_groups) for f in formats}
    for path in sorted(files):
        text = path.read_text(encoding="utf-8-sig")
        for raw in lflist.parse(text, str(path)):
            ln = classify(raw.name, formats, official)
            day = ln.effective
            fmt = next((f for f in formats if f.id == ln.format), None)
            if ln.approximate and fmt is not None and any(
                    folder in official for folder in fmt.imports.dates_from):
                found.skip(path.name, f"{raw.name!r}: no official list that month "
                                      f"({', '.join(fmt.imports.dates_from)}), so the name is "
                                      "not a date to trust")
                continue
            committed = index.get(raw.name)
            if day is None and committed:
                day = dt.date.fromisoformat(committed[:10])
            if day is None:
                found.skip(path.name, f"{raw.name!r}: no date in its name or in _index.json")
                continue
            bl = lflist.to_banlist(raw, format=ln.format, effective=day,
                                   source=f"EDOPro LFLists, {path.name}", pool=pool,
                                   group_headers=groups.get(ln.format))
            # lists not in _index.json are the current files: newest
            found.add((0, committed or "9999"), bl)


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
    for key, fid in ygoprodeck.KEYS.items():
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
    for bl in ygoprodeck.banlists(data, effective=day, keys=keys,
                                  source=f"YGOPRODeck cardinfo, {path.name}"):
        found.add((3, path.name), bl)


def collect(src: str | Path, *, pool: Any = None, date: dt.date | None = None,
            formats: tuple[Format, ...] | None = None
            ) -> tuple[list[Banlist], dict[str, list[str]]]:
    """Every list under `src` (a folder or one file), in precedence order (later wins),
    and what was skipped (by source folder or file) with the reason."""
    src = Path(src)
    formats = formats if formats is not None else all_formats()
    found = _Found()
    if not src.exists():
        raise FormatError(f"{src}: no such file or folder; give a folder of lists or a list "
                          "file.")
    files = [src] if src.is_file() else sorted(p for p in src.rglob("*") if p.is_file())
    lfl = [p for p in files if p.name.endswith(".lflist.conf")]
    kon = [p for p in files if _DATE_STEM.match(p.name)]
    toml = [p for p in files if p.suffix == ".toml" and p.name != "format.toml"]
    index = _read_index(p for p in files if p.name == "_index.json")
    official = _official_dates(kon)
    if src.is_file() and not (lfl or toml or _DATE_STEM.match(src.name)):
        text_head = src.read_bytes()[:4096]
        if src.suffix in (".json", ".zip") and (b'"data"' in text_head or
                                                zipfile.is_zipfile(src)):
            _ygoprodeck_lists(src, date or dt.date.today(), formats, found)
        elif lflist.looks_like_lflist(text_head.decode("utf-8", "replace")):
            lfl = [src]
        elif native.looks_native(text_head.decode("utf-8", "replace")):
            toml = [src]
        else:
            raise FormatError(f"{src}: not a list file deckcheck can import (.lflist.conf, "
                              ".toml, Konami-id .json or YGOPRODeck cardinfo).")
    if src.is_dir():
        for p in files:
            if p.name.endswith(".cardinfo.json"):
                _ygoprodeck_lists(p, date or dt.date.today(), formats, found)
    _konami_lists(kon, pool, formats, found)
    _lflist_lists(lfl, index, official, pool, formats, found)
    for p in toml:
        found.add((2, str(p)), native.parse_list(p.read_text(encoding="utf-8"), p))
    ordered = [bl for _, bl in sorted(found.lists, key=lambda t: t[0])]
    return ordered, found.skipped


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path, suffix=".part") as tmp:
        tmp.write_text(text, encoding="utf-8")


def import_lists(src: str | Path, *, pool: Any = None, dest: str | Path | None = None,
                 date: dt.date | None = None) -> ImportReport:
    """Import every list under `src` into `dest` (default: the user's banlist directory)."""
    target = Path(dest) if dest is not None else user_dir()
    lists, skipped = collect(src, pool=pool, date=date)
    if not lists and not skipped:
        raise FormatError(f"{src} holds no list deckcheck can import (.lflist.conf, .toml, "
                          "Konami-id .json or YGOPRODeck cardinfo); nothing was changed.")
    return _store(lists, skipped, target)


def _store(lists: list[Banlist], skipped: Mapping[str, list[str]], target: Path) -> ImportReport:
    report = ImportReport(dest=target)
    chosen: dict[tuple[str, dt.date], Banlist] = {}
    for bl in lists:
        if (bl.format, bl.effective) in chosen:
            report.replaced += 1
        chosen[(bl.format, bl.effective)] = bl
    for (fid, day), bl in sorted(chosen.items()):
        try:
            _write(target / fid / f"{day.isoformat()}.toml", native.dump_list(bl))
        except OSError as exc:
            raise FormatError(f"{target}: the lists cannot be written there ({exc.strerror}); "
                              "set DECKCHECK_BANLISTS to a folder you may write.") from None
        report.written[fid] = report.written.get(fid, 0) + 1
    for group, reasons in sorted(skipped.items()):
        if len(reasons) > 3:
            report.skipped.append(f"{group}: {len(reasons)} lists skipped ({reasons[0]}; …)")
        else:
            report.skipped += [f"{group}: {r}" for r in reasons]
    clear_cache()
    return report


def fetch(urls: Mapping[str, str] | None = None, *, pool: Any = None,
          dest: str | Path | None = None, http: Any = None,
          date: dt.date | None = None) -> ImportReport:
    """Download lists (file name -> URL, default `URLS`) and import them. A URL that fails is
    reported as skipped; when every one fails, `FailedDownload`."""
    from deckcheck.sources.http import Http

    client = http or Http()
    urls = dict(urls or URLS)
    failed: list[str] = []
    first: str | None = None
    with tempfile.TemporaryDirectory(prefix="deckcheck-banlists-") as tmp:
        for fname, url in urls.items():
            try:
                client.download(url, Path(tmp) / Path(fname).name)
            except FailedDownload as exc:
                failed.append(f"{fname}: {exc.message}")
                first = first or exc.message
        if len(failed) == len(urls):
            # the download error already says what failed and that nothing was changed
            raise FailedDownload(f"No list could be downloaded: {first}") if first \
                else FailedDownload()
        target = Path(dest) if dest is not None else user_dir()
        lists, skipped = collect(tmp, pool=pool, date=date)
        report = _store(lists, skipped, target)
    report.skipped += failed
    return report
