"""Finding and loading format and list files: the shipped ones and the user's imported ones.

Shipped files live in the package (`deckcheck/_banlists`, in a wheel) or at the top of the
repository (`banlists/`, in a checkout). Lists imported with `deckcheck banlist update` live
in the user's data directory: `$DECKCHECK_BANLISTS`, else `$XDG_DATA_HOME/deckcheck/banlists`,
else `~/.local/share/deckcheck/banlists`. Both have the same layout,
`<format-id>/format.toml` and `<format-id>/<YYYY-MM-DD>.toml`; a user file replaces a
shipped one of the same format and date. Only the requested format's `format.toml` is parsed,
and of its lists only the one a check asks for (chosen by the date in its file name), once.

A check finds its files by plain `os` calls on path strings (`_dirs`): pathlib's import
(with urllib.parse and ipaddress) was ~4% of a cold `deckcheck check`. The public functions
still give `Path`s.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
from typing import TYPE_CHECKING

import deckcheck
from deckcheck import clock
from deckcheck.errors import FormatError, UnknownBanlist, UnknownFormat
from deckcheck.formats import native
from deckcheck.formats.model import Banlist, Format
from deckcheck.plain import Value

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from deckcheck.cards.pool import CardPool

FORMAT_FILE = "format.toml"


def files(package: str) -> str:
    """The folder of the installed package (what `importlib.resources.files` gives for a
    package on disk, without importing importlib.resources: ~10 ms of start-up)."""
    assert package == "deckcheck"
    return os.path.dirname(deckcheck.__file__)


def _shipped() -> str | None:
    pkg = files("deckcheck")
    for candidate in (os.path.join(pkg, "_banlists"),
                      os.path.join(os.path.dirname(pkg), "banlists")):
        if os.path.isdir(candidate):
            return candidate
    return None


def _user() -> str:
    env = os.environ.get("DECKCHECK_BANLISTS")
    if env:
        return os.path.expanduser(env)
    from deckcheck.paths import data_folder

    return os.path.join(data_folder(), "banlists")


def _dirs() -> tuple[str, ...]:
    return tuple(d for d in (_shipped(), _user()) if d is not None and os.path.isdir(d))


def shipped_dir() -> Path | None:
    """The format files shipped with deckcheck (package copy first, then the checkout's)."""
    from pathlib import Path

    folder = _shipped()
    return Path(folder) if folder is not None else None


def user_dir() -> Path:
    """Where `deckcheck banlist update` writes the lists it imports."""
    from pathlib import Path

    return Path(_user())


def search_dirs() -> tuple[Path, ...]:
    """Shipped directory, then the user's (later ones win)."""
    from pathlib import Path

    return tuple(Path(d) for d in _dirs())


#: What `clear_cache` also calls: caches built from parsed files elsewhere (the checker's
#: prepared checkers register theirs when they make one), so this module imports none of them.
_ON_CLEAR: list[Callable[[], None]] = []


def on_clear(forget: Callable[[], None]) -> None:
    """Have `clear_cache` call `forget` too (once, however often it is registered)."""
    if forget not in _ON_CLEAR:
        _ON_CLEAR.append(forget)


def clear_cache() -> None:
    """Forget parsed files (after an import wrote new ones), and what was built from them."""
    _load_format.cache_clear()
    _parse_list.cache_clear()
    _all_formats.cache_clear()
    _headers.cache_clear()
    for forget in _ON_CLEAR:
        forget()


def _text(path: str | Path) -> str:
    """A format or list file's text; FormatError (naming the file) when it is not UTF-8."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except UnicodeDecodeError:
        raise FormatError(f"{path}: not a UTF-8 text file; save it as UTF-8, or remove it."
                          ) from None


# -- formats -----------------------------------------------------------------------------

def _entries(folder: str) -> list[os.DirEntry[str]]:
    """What a folder holds (nothing when it cannot be read, as `Path.glob` has it)."""
    try:
        with os.scandir(folder) as found:
            return list(found)
    except OSError:
        return []


def _format_ids(dirs: tuple[str, ...]) -> list[str]:
    """The folders holding a format file (`*/format.toml`)."""
    ids = {e.name for d in dirs for e in _entries(d)
           if e.is_dir() and os.path.exists(os.path.join(e.path, FORMAT_FILE))}
    return sorted(ids)


def _list_files(folder: str) -> list[str]:
    """The list files of a format's folder (`*.toml` but the format file), by name."""
    return sorted(e.path for e in _entries(folder)
                  if e.name.endswith(".toml") and e.name != FORMAT_FILE)


def list_formats() -> list[str]:
    """Ids of every format with a format file (shipped or the user's)."""
    return _format_ids(_dirs())


def _list_day(path: str) -> dt.date:
    """A list file's effective day, from its name (`2026-05-18.toml`); a file named otherwise
    (written by hand) has its header read."""
    try:
        return dt.date.fromisoformat(os.path.basename(path).removesuffix(".toml"))
    except ValueError:
        pass
    day = native.read_header(path).get("effective")
    if not isinstance(day, dt.date):
        raise FormatError(f"{path}: `effective` is missing or not a date like 2026-05-18; "
                          "fix the line, or name the file after the day (2026-05-18.toml).")
    return day


@functools.lru_cache(maxsize=256)
def _parse_list(path: str, fid: str, day: dt.date) -> Banlist:
    bl = native.parse_list(_text(path), path)
    if bl.format != fid:
        raise FormatError(f"{path}: it says format = {bl.format!r} but lies in the "
                          f"{fid!r} folder; move it or fix the line.")
    if bl.effective != day:
        raise FormatError(f"{path}: it says effective = {bl.effective.isoformat()} but its "
                          f"name says {day.isoformat()}; rename the file or fix the line.")
    return bl


@functools.lru_cache(maxsize=64)
def _load_format(fid: str, dirs: tuple[str, ...]) -> Format:
    fmt: Format | None = None
    shipped = _shipped()
    for d in dirs:
        path = os.path.join(d, fid, FORMAT_FILE)
        if os.path.isfile(path):
            fmt = native.parse_format(_text(path), path, trusted=d == shipped)
            if fmt.id != fid:
                raise FormatError(f"{path}: its id is {fmt.id!r} but its folder is {fid!r}; "
                                  "make them the same.")
    if fmt is None:
        raise UnknownFormat(f"No format {fid!r}; known formats: "
                            f"{', '.join(_format_ids(dirs)) or 'none'}.")
    # Lists are found by their file names and parsed only when a check asks for one: a
    # format's whole history is hundreds of files. A later directory's list replaces an
    # earlier one of the same day.
    chosen: dict[dt.date, str] = {}
    for d in dirs:
        for path in _list_files(os.path.join(d, fid)):
            chosen[_list_day(path)] = path
    fmt = fmt.model_copy()
    fmt.set_catalog((day, functools.partial(_parse_list, path, fid, day))
                    for day, path in chosen.items())
    return fmt


def load_format(name: str) -> Format:
    """The format `name` ("tcg", "Master Duel", …) with its whole list history. A common
    short name, the initials of one format's name ("md": Master Duel, "sd": Speed Duel), is
    taken too when it names only that format."""
    dirs = _dirs()
    ids = _format_ids(dirs)
    if name in ids:  # the usual case: no name matching (listnames) needed
        return _load_format(name, dirs)
    from deckcheck.formats.listnames import label_key

    fid = next((i for i in ids if label_key(i) == label_key(name)), None)
    if fid is None:
        fid = next((f.id for f in _all_formats(dirs) if label_key(f.name) == label_key(name)),
                   None)
    if fid is None and name.isalpha() and len(name) <= 4:
        short = [f.id for f in _all_formats(dirs) if len(f.name.split()) > 1
                 and "".join(w[0] for w in f.name.lower().split()) == name.lower()]
        fid = short[0] if len(short) == 1 else None
    if fid is None:
        raise UnknownFormat(f"No format {name!r}; known formats: {', '.join(ids) or 'none'}.")
    return _load_format(fid, dirs)


@functools.lru_cache(maxsize=4)
def _all_formats(dirs: tuple[str, ...]) -> tuple[Format, ...]:
    out = []
    shipped = _shipped()
    for fid in _format_ids(dirs):
        d = next(d for d in reversed(dirs) if os.path.isfile(os.path.join(d, fid, FORMAT_FILE)))
        path = os.path.join(d, fid, FORMAT_FILE)
        out.append(native.parse_format(_text(path), path, trusted=d == shipped))
    return tuple(out)


def all_formats() -> tuple[Format, ...]:
    """Every format file (without history): for importers and `banlist list`."""
    return _all_formats(_dirs())


# -- lists -------------------------------------------------------------------------------

class ListInfo(Value, kw_only=False):
    """A list file's header: enough to list and find lists without parsing their entries."""

    name: str
    format: str
    effective: dt.date
    path: Path
    origin: str  # "shipped" or "imported"


@functools.lru_cache(maxsize=4)
def _headers(dirs: tuple[str, ...], user: str) -> tuple[ListInfo, ...]:
    """The list files of every format (the folders `_format_ids` finds, as `load_format`
    reads them); a later directory's list hides an earlier one of the same format and day."""
    from pathlib import Path

    found: dict[tuple[str, dt.date], ListInfo] = {}
    ids = _format_ids(dirs)
    for d in dirs:
        origin = "imported" if d == user else "shipped"
        for path in (p for fid in ids for p in _list_files(os.path.join(d, fid))):
            head = native.read_header(path)
            try:
                info = ListInfo(str(head["name"]), str(head["format"]), head["effective"],
                                Path(path), origin)
            except KeyError as exc:
                raise FormatError(f"{path}: `{exc.args[0]}` is missing; add it at the top of "
                                  "the file.") from None
            found[(info.format, info.effective)] = info
    return tuple(sorted(found.values(), key=lambda i: (i.format, i.effective)))


def list_infos() -> tuple[ListInfo, ...]:
    """Every list file of a format, shipped and imported (an imported one hides a shipped one
    of the same format and date), by format and date."""
    return _headers(_dirs(), _user())


def load_banlist_file(path: str | Path, pool: CardPool | None = None) -> list[Banlist]:
    """Every list in a file: deckcheck's own TOML or an EDOPro `.lflist.conf` (told apart by
    content). A `.lflist.conf` list whose name carries no date is dated by the file's
    modification day."""
    from pathlib import Path

    from deckcheck.formats import lflist

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise FormatError(f"{path}: not a text file; give a .toml or .lflist.conf list.") \
            from None
    if lflist.looks_like_ydk(text):
        raise FormatError(f"{path} is a deck (.ydk), not a Forbidden & Limited List; give a list "
                          "file, a list name or a format id as the list.")
    if lflist.looks_like_lflist(text):
        from deckcheck.formats.listnames import classify

        formats = all_formats()
        fallback = dt.date.fromtimestamp(path.stat().st_mtime)

        def judge(name: str) -> tuple[str, dt.date | None, dict[str, int]]:
            ln = classify(name, formats)
            fmt = next((f for f in formats if f.id == ln.format), None)
            return ln.format, ln.effective or fallback, dict(
                fmt.imports.lflist_groups if fmt else {})

        lists = lflist.read(text, source=str(path), pool=pool, classify=judge)
        if not lists:
            raise FormatError(f"{path}: holds no list (no `!name` line).")
        return lists
    if native.looks_native(text):
        return [native.parse_list(text, path)]
    raise FormatError(f"{path}: not a list file deckcheck knows; give deckcheck's .toml list "
                      "or an EDOPro .lflist.conf.")


def find_banlist(name: str, date: dt.date | None = None, pool: CardPool | None = None) -> Banlist:
    """A list by format id (the one in force on `date`, today when None), list name, or file."""
    from pathlib import Path

    from deckcheck.formats.listnames import label_key

    path = Path(name)
    if path.is_file():
        lists = load_banlist_file(path, pool)
        day = date or clock.today()
        current = [b for b in lists if b.effective <= day]
        return max(current or lists, key=lambda b: b.effective)
    if name in list_formats() or any(label_key(f.name) == label_key(name) or
                                     label_key(f.id) == label_key(name)
                                     for f in all_formats()):
        fmt = load_format(name)
        bl = fmt.banlist_at(date)
        if bl is None:
            when = (date or clock.today()).isoformat()
            raise UnknownBanlist(f"Format {fmt.id!r} has no list in force on {when}; import "
                                 "its history with `deckcheck banlist update`.")
        return bl
    key = name.strip().casefold()
    for info in list_infos():
        if info.name.casefold() == key:
            return native.parse_list(_text(info.path), info.path)
    for info in list_infos():
        if label_key(info.name) == label_key(name):
            return native.parse_list(_text(info.path), info.path)
    if path.is_dir():
        raise UnknownBanlist(f"{name} is a folder, not a list file; give a .toml or "
                             ".lflist.conf file, a list name or a format id.")
    if path.suffix.lower() in (".toml", ".conf") or "/" in name or "\\" in name:
        raise UnknownBanlist(f"{name}: no such list file; check the path, or give a list name "
                             "(`deckcheck banlist list`) or a format id.")
    raise UnknownBanlist(f"No list or format called {name!r}; see `deckcheck banlist list` "
                         "for the known ones, or give a file.")
