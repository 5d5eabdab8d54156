"""An event's inputs: the files to read for registrations, and every other file looked at.

- A folder is searched recursively for deck files (`DECK_SUFFIXES`, the one table of deck
  file kinds); hidden files and folders and spreadsheet lock files (`~$…`) are skipped;
  files are taken in sorted path order. A file named on the command line is always tried.
- An earlier event report written into the folder (`is_report`) is not read as decks.

Nothing is passed over in silence: `expand_items` gives every input, a `Path` to read or a
`Skipped` with the reason in one sentence. Reading the registrations in the files is
`deckcheck.event.registrations`.
"""

from __future__ import annotations

import os
import re
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import overload

from deckcheck.decks.files import DECK_SUFFIXES, EXTENSIONS, stem_suffix
from deckcheck.errors import DeckReadError

#: File suffixes looked at inside folders (single files named on the command line are
#: always tried, whatever their suffix).
WORKBOOK_SUFFIXES = frozenset(s for s, kind in EXTENSIONS.items() if kind == "xlsx")
CSV_SUFFIXES = frozenset(s for s, kind in EXTENSIONS.items() if kind == "csv")
#: Suffixes of the reports deckcheck writes (`is_report` looks inside only these).
_REPORT_SUFFIXES = frozenset({".csv", *WORKBOOK_SUFFIXES})

#: (stage, done, total): `discover` reports ("read", files done, files); the event check
#: reports ("check", registrations done, registrations expected).
Progress = Callable[[str, int, int], None]

@dataclass(frozen=True)
class Skipped:
    """An input that was looked at and is not a registration, with the reason in one sentence:
    a file that is no deck file (a README next to the decks), an earlier report, a hidden
    file, an empty sheet, a registration table without rows. Never silence."""

    source: str
    reason: str


#: At most this many skipped files of one folder are listed one by one.
MAX_SKIPPED_LISTED = 200


def _walk_keyed(folder: Path, keyed: bool = True) -> list[tuple[str, str | Skipped]]:
    """Everything under `folder`, sorted by its path inside it (the deck files to read, and
    every other file and hidden folder as Skipped with the reason), each with the key that
    tells two spellings of one file apart (`_same_file_key`), worked out once per folder
    rather than once per file ("" for every file when not `keyed`: one folder holds no file
    twice); a file to read is given as its path's text (as `str(Path(dirpath, name))`),
    made into a `Path` only when read."""
    found: list[tuple[str, str, str | Skipped]] = []
    normcase, join = (os.path.normcase, os.path.join) if keyed else (str, _no_key)
    for dirpath, dirnames, filenames in os.walk(folder):
        rel = os.path.relpath(dirpath, folder)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        here = os.path.abspath(dirpath)
        for d in dirnames:
            if d.startswith((".", "~$")):
                where = str(Path(dirpath, d))
                found.append((prefix + d, normcase(join(here, d)),
                              Skipped(where, f"{where} is a hidden folder; it was not "
                                             "searched.")))
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "~$"))]
        base = str(Path(dirpath))
        base = "" if base == "." else base if base.endswith(os.sep) else base + os.sep
        for name in filenames:
            path = base + name
            why = _why_not_read(path, name)
            found.append((prefix + name, normcase(join(here, name)),
                          path if why is None else Skipped(path, why)))
    found.sort(key=lambda item: item[0])
    return _count_many_skipped(folder, [(key, p) for _, key, p in found])


def _why_not_read(path: str, name: str) -> str | None:
    """Why a file found in a folder is not read as a registration (None: it is read)."""
    if name.startswith("~$"):
        return f"{path} is a spreadsheet's lock file, not a deck."
    if name.startswith("."):
        return f"{path} is a hidden file; it was not read."
    suffix = stem_suffix(name)[1]
    if suffix not in DECK_SUFFIXES:
        return f"{path} is not a deck file (deck files end in {_SUFFIXES_TEXT})."
    if suffix in _REPORT_SUFFIXES and is_report(Path(path)):
        # an earlier `event check -o` report written into the folder
        return f"{path} is an event report deckcheck wrote, not a registration."
    return None


#: The deck file endings, as the sentences about files that are not read name them.
_SUFFIXES_TEXT = ", ".join(sorted(DECK_SUFFIXES))


def _count_many_skipped(folder: Path, found: list[tuple[str, str | Skipped]]
                        ) -> list[tuple[str, str | Skipped]]:
    """`found`, with the skipped files past `MAX_SKIPPED_LISTED` counted in one item."""
    skipped = [p for _, p in found if isinstance(p, Skipped)]
    if len(skipped) <= MAX_SKIPPED_LISTED:
        return found
    # a folder of thousands of other files: say how many
    extra = {id(p) for p in skipped[MAX_SKIPPED_LISTED:]}
    out = [(k, p) for k, p in found if id(p) not in extra]
    out.append((_same_file_key(str(folder)), Skipped(
        str(folder), f"{len(extra):,} more files under {folder} are not deck files (or "
                     "hidden); they were not read.")))
    return out


def _no_key(*_: str) -> str:
    return ""


def _same_file_key(path: str | Path) -> str:
    return os.path.normcase(os.path.abspath(path))


#: The sheets of the event report workbook (`deckcheck.event.report_xlsx`), in order.
REPORT_SHEETS = ["Players", "Problems", "Event"]
#: A report's xl/workbook.xml is under 2 KB; a larger one is read no further (a 2 MB zip entry
#: once inflated to 4.1 GB here).
MAX_WORKBOOK_XML = 64 * 1024
#: The name of a <sheet> element; bounded so that no input makes the search quadratic.
_SHEET_NAME = re.compile(r'<sheet [^<>]{0,500}?name="([^"<>]{0,100})"')


def is_report(path: Path) -> bool:
    """True for an event report deckcheck wrote (CSV players or problems table, or the
    workbook), so that a report saved into the registrations folder is not read as decks."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return is_report_csv(path)
    if suffix in WORKBOOK_SUFFIXES:
        import zipfile

        try:
            with zipfile.ZipFile(path) as zf:
                info = zf.getinfo("xl/workbook.xml")
                if info.file_size > MAX_WORKBOOK_XML:
                    return False  # no report of ours: those are a few KB
                with zf.open(info) as f:
                    xml = f.read(MAX_WORKBOOK_XML + 1).decode("utf-8", "replace")
        except (OSError, KeyError, EOFError, ValueError, RuntimeError, NotImplementedError,
                zipfile.BadZipFile, zipfile.LargeZipFile):
            return False
        return _SHEET_NAME.findall(xml[:MAX_WORKBOOK_XML]) == REPORT_SHEETS
    return False


def is_report_csv(path: Path) -> bool:
    """True for a CSV table deckcheck wrote as an event report (players or problems)."""
    from deckcheck.event.columns import PLAYER_COLUMNS, PROBLEM_COLUMNS

    try:
        with path.open("rb") as f:
            head = f.read(1024).decode("utf-8-sig", "replace")
    except OSError:
        return False
    first = head.splitlines()[0] if head else ""
    return first in (",".join(h for _, h in PLAYER_COLUMNS),
                     ",".join(h for _, h in PROBLEM_COLUMNS))


def expand(sources: Iterable[str | Path]) -> list[Path]:
    """The files to read, in order: each source as given, folders expanded (sorted, recursive)."""
    return [Path(p) for p in expand_items(sources).paths()]


def expand_items(sources: Iterable[str | Path]) -> Entries:
    """`expand`, with every file of the folders that is not read given as Skipped (in its
    place in the sorted order)."""
    sources = list(sources)
    if len(sources) == 1 and Path(sources[0]).is_dir():  # nothing to tell apart
        return Entries((p for _, p in _walk_keyed(Path(sources[0]), keyed=False)), sources)
    out: list[str | Path | Skipped] = []
    seen: set[str] = set()
    for src in sources:
        path = Path(src)
        found: list[tuple[str, str | Path | Skipped]] = (
            list(_walk_keyed(path)) if path.is_dir() else [(_same_file_key(path), path)])
        for key, p in found:
            if key not in seen:
                seen.add(key)
                out.append(p)
    return Entries(out, sources)


class Entries(Sequence["Path | Skipped"]):
    """The inputs of an event in order, compact: the paths of the files to read as one text
    (each made into a `Path` when asked for), the skipped inputs apart. An event of 100,000
    files held them as 100,000 `Path` objects (~400 bytes each), copied page by page into
    every forked worker as it touched them (issue 24: memory must not grow with the event)."""

    def __init__(self, items: Iterable[str | Path | Skipped],
                 sources: Sequence[str | Path] = ()) -> None:
        """`sources`: what was expanded into `items` (folders and files as given), for the
        sentences about them."""
        self.sources = list(sources)
        texts: list[str] = []
        self._skipped: dict[int, Skipped] = {}
        for i, item in enumerate(items):
            if isinstance(item, Skipped):
                self._skipped[i] = item
                texts.append("")
            else:
                texts.append(os.fspath(item))
        self._ends = array("q", accumulate(len(t) for t in texts))
        self._text = "".join(texts)
        #: How many of the inputs are files to read.
        self.files = len(texts) - len(self._skipped)

    def __len__(self) -> int:
        return len(self._ends)

    def paths(self) -> Iterator[str]:
        """The files to read, in order, as text (no `Path` made)."""
        text, skipped, begin = self._text, self._skipped, 0
        for i, end in enumerate(self._ends):
            if i not in skipped:
                yield text[begin:end]
            begin = end

    def files_between(self, start: int, stop: int) -> int:
        """How many of the inputs `start` to `stop` are files to read (no `Path` made)."""
        start, stop, _ = slice(start, stop).indices(len(self))
        return max(0, stop - start) - sum(start <= i < stop for i in self._skipped)

    @overload
    def __getitem__(self, i: int) -> Path | Skipped: ...

    @overload
    def __getitem__(self, i: slice) -> list[Path | Skipped]: ...

    def __getitem__(self, i: int | slice) -> Path | Skipped | list[Path | Skipped]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        skipped = self._skipped.get(i)
        if skipped is not None:
            return skipped
        return Path(self._text[self._ends[i - 1] if i else 0:self._ends[i]])


def expand_some(sources: Iterable[str | Path]) -> list[Path]:
    """`expand`, refusing sources that hold no deck file at all (an empty or wrong folder)."""
    sources = list(sources)
    files = expand(sources)
    if not files:
        raise no_deck_files(sources)
    return files


def no_deck_files(sources: Sequence[str | Path]) -> DeckReadError:
    """The error for sources that hold no deck file at all (an empty or wrong folder)."""
    names = ", ".join(str(s) for s in sources) or "The sources"
    return DeckReadError(f"{names}: no deck file found (looked for {_SUFFIXES_TEXT}); check the "
                         "folder.")
