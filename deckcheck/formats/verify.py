"""Is an incoming list one to write: a format id, and a whole list, not one cut off?

`deckcheck banlist update` holds every list it would write to the same checks, downloaded
(`--url`, `download.fetch`) or read from a file (`--from`, `update.import_lists`):

- its `format` is a format id (a folder name: lowercase letters, digits, dashes);
- its body is a list (`what_it_is`: not empty, no HTML error page, no JSON cut off, no
  EDOPro line cut in two; `cut_line` for a file);
- it is not much smaller than the list it replaces (`check_whole`): a section of 10+ cards
  down to less than half (`shrinks`) refuses the whole update, naming both counts, unless
  `--allow-smaller`.

The list an incoming one replaces (`replaced`) is the list of its format and day (the file
it overwrites or hides), else the list of its format with its name (the same list dated
otherwise), else, when it is newer than every list of its format, the newest one (the list
in force it would follow). A list of a day inside the history that has no list of its own
replaces none and is not compared: lists do shrink from one to the next, and history
imports bring many such days.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from deckcheck.errors import FormatError, UnknownFormat
from deckcheck.formats import lflist
from deckcheck.formats.model import Banlist

#: A format id: the name of its folder under banlists/.
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: A section holding at least this many cards may not shrink below half in one list.
SHRINK_FLOOR = 10


def check_format_id(fid: str, where: str) -> None:
    """FormatError unless `fid` can be a format id (a folder name inside banlists/)."""
    if not _SLUG.match(fid) or len(fid) > 64:
        raise FormatError(f"{where}: format {fid!r} is not a format id (lowercase letters, "
                          "digits and dashes, like \"tcg\"); fix the list's `format` line. "
                          "Nothing was changed.")


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
        if n >= SHRINK_FLOOR and after[label] * 2 < n:
            what = {"cards": "entries", "pointed": "pointed cards",
                    "grouped": "cards in limit groups"}.get(label, f"{label} cards")
            return (f"{new.name} has {after[label]} {what} where {old.name} "
                    f"({old.effective.isoformat()}) has {n}")
    return None


def replaced(bl: Banlist) -> Banlist | None:
    """The list `bl` would replace (see the module's docstring), or None."""
    from deckcheck.formats.loader import list_infos, load_format

    try:
        fmt = load_format(bl.format)
    except UnknownFormat:
        return None  # a new format: nothing to compare with
    days = fmt.list_dates()
    if not days:
        return None
    same_day = fmt.banlist_at(bl.effective)
    if same_day is not None and same_day.effective == bl.effective:
        return same_day
    named = [i.effective for i in list_infos() if i.format == fmt.id and i.name == bl.name]
    if named:
        return fmt.banlist_at(max(named))
    return fmt.newest_list() if bl.effective > days[-1] else None


def check_whole(lists: Iterable[Banlist], where_of: Callable[[Banlist], str | None],
                allow_smaller: bool, what: str) -> None:
    """Refuse lists much smaller than the list each replaces (`replaced`, `shrinks`), as a
    cut-off download or file (`what`), unless `allow_smaller`: one check for `--url` and
    `--from` alike (`store`'s `verify`, given the lists it will write). `where_of` names the
    input a list came from (None: the list's own `source`)."""
    for bl in lists:
        here = where_of(bl) or bl.source or bl.name
        check_format_id(bl.format, here)
        old = None if allow_smaller else replaced(bl)
        if old is not None and not bl.groups and old.groups:
            old = old.model_copy(update={"groups": []})  # a kind of list that has none
        small = shrinks(bl, old) if old is not None else None
        if small:
            raise FormatError(f"{here}: {small}, so {what} looks cut off; no list was changed "
                              "(pass --allow-smaller if the list really shrank).")


def what_it_is(body: bytes, name: str) -> str | None:
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


def lflist_files(srcs: Iterable[Path]) -> Iterator[Path]:
    """The EDOPro lists (.lflist.conf) named or in the folders named."""
    for src in srcs:
        if src.is_file() and src.name.endswith(".conf"):
            yield src
        elif src.is_dir():
            yield from sorted(p for p in src.rglob("*.lflist.conf") if p.is_file())


def cut_line(path: Path) -> int | None:
    """The number of an EDOPro list's last line when it is no list line (the file was cut
    off there; published lists have odd lines inside, never at the end), else None."""
    text = path.read_bytes().decode("utf-8-sig", "replace")
    if not lflist.looks_like_lflist(text):
        return None
    lines = text.rstrip().splitlines()
    bad = lflist.unreadable_lines(text)
    return len(lines) if bad and bad[-1] == len(lines) else None


def refuse_cut_files(srcs: Iterable[Path]) -> None:
    """FormatError for the first EDOPro list file under `srcs` cut off mid-line, as `fetch`
    refuses a download."""
    for path in lflist_files(srcs):
        last = cut_line(path)
        if last is not None:
            raise FormatError(f"{path}: its last line ({last}) is not a list line (the file "
                              "looks cut off); no list was changed.")
