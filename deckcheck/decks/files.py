"""Reading and writing decks in any format: `read_decks`, `read_deck`, `write_deck`,
`dump_deck`, `detect_format`.

Formats: "ydk", "ydke", "omega", "text", "csv", "xlsx". A source is a file path, "-" for
standard input, or a `ydke://` URL / Omega deck code given directly as the string. The format
is picked from the content first (a zip archive is xlsx, `ydke://` is a URL, `#main`/`!side`
lines are ydk), then from the extension, then from softer hints (lines of digits are ydk, a
table with a header row is CSV, a lone base64 word is an Omega code), else plain text.

    >>> deck = read_deck("ydke://1xqfAQ==!!!", None)
    >>> dump_deck(deck, "ydk", None)
    b'#created by deckcheck\\n#main\\n27204311\\n#extra\\n!side\\n'
"""

from __future__ import annotations

import os
import re
from typing import IO, TYPE_CHECKING, Any

from deckcheck.atomic import replacing
from deckcheck.decks.model import Deck
from deckcheck.decks.source import MAX_BYTES, STDIN, read_bytes, source_label
from deckcheck.errors import DeckReadError, DeckWriteError

if TYPE_CHECKING:
    from pathlib import Path  # imported where a path is built: not by every check

    from deckcheck.cards.pool import CardPool

FORMATS = ("ydk", "ydke", "omega", "text", "csv", "xlsx")
EXTENSIONS = {".ydk": "ydk", ".ydke": "ydke", ".omega": "omega", ".txt": "text",
              ".text": "text", ".md": "text", ".csv": "csv", ".tsv": "csv", ".xlsx": "xlsx",
              ".xlsm": "xlsx"}
#: Formats deckcheck writes but does not read: a PDF decklist (`decks/pdf.py`).
WRITE_ONLY = ("pdf",)
OUTPUT_FORMATS = FORMATS + WRITE_ONLY
OUTPUT_EXTENSIONS = {**EXTENSIONS, ".pdf": "pdf"}
#: The one table of deck file kinds every front end reads among many inputs (`check` over
#: several files, `event check` in folders, the desk's uploads): every ending above but
#: `.md`, which among decks is their README (a Markdown file named alone is still read).
DECK_SUFFIXES = tuple(suffix for suffix in EXTENSIONS if suffix != ".md")
#: Formats whose reader needs the card pool (names, or the Main/Extra split of Omega codes).
NEEDS_POOL_TO_READ = frozenset({"text", "csv", "xlsx", "omega"})
#: Formats whose writer uses the card pool (names, card kinds).
USES_POOL_TO_WRITE = frozenset({"text", "csv", "xlsx", "pdf"})

_YDK_HEADERS = frozenset({b"#main", b"#extra", b"!side"})
#: (Patterns here are compiled on first use, by `re`'s cache: not at every start-up.)
_HEADER_HINT = (r"(?i)(qty|quantity|count|copies|name|card|passcode|code|id|section|"
                r"数量|枚数|卡名|カード名)")


def _is_file(s: str) -> bool:
    return s != STDIN and len(s) < 4096 and os.path.isfile(s)


#: The start of an OLE2 compound file: .xls (Excel 97-2003), .doc and the like.
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

#: A long word of base64 characters with no file extension: meant as a deck code.
_CODE_LIKE = r"[A-Za-z0-9+/=_-]{24,}"


def _exists(s: str) -> bool:
    from pathlib import Path

    try:
        return len(s) < 4096 and Path(s).exists()
    except (OSError, ValueError):
        return False


def stem_suffix(s: str) -> tuple[str, str]:
    """A file name's stem and its suffix in lower case: `(Path(s).stem, Path(s).suffix.lower())`
    ("deck.YDK.txt" -> ("deck.YDK", ".txt"); no suffix, a trailing dot or a leading one as in
    ".hidden" -> ""). The one place the suffix of a deck file is worked out (the readers pick a
    format by it; `check` and `event check` skip files among many inputs by it). Plain string
    work for a name on a system whose separator is "/", so a check imports no pathlib."""
    name = s.rpartition("/")[2] if os.sep == "/" else ""
    if name not in ("", ".", ".."):
        dot = name.rfind(".")
        if 0 < dot < len(name) - 1:
            return name[:dot], name[dot:].lower()
        return name, ""
    from pathlib import Path  # a path ending in "/", "." or "..", or another separator

    path = Path(s)
    return path.stem, path.suffix.lower()


def _short(s: str) -> str:
    return s if len(s) <= 40 else s[:37] + "..."


def _direct_format(s: str, is_file: bool | None = None) -> str | None:
    """"ydke" or "omega" when the source string is itself a deck, else None. `is_file`:
    whether `s` names a file, when the caller knows."""
    from deckcheck.decks.ydke import is_ydke

    if is_ydke(s):
        return "ydke"
    if is_file is None:
        is_file = s != STDIN and "\n" not in s and _is_file(s)
    if s != STDIN and "\n" not in s and not is_file:
        from deckcheck.decks.omega import looks_like_omega  # not needed for a file name

        if looks_like_omega(s):
            return "omega"
    return None


def sniff(data: bytes, ext: str = "") -> str:
    """The format of a file's content, using the extension where the content is not telling."""
    if data.startswith(b"PK\x03\x04"):
        return "xlsx"
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:7].lower() == b"ydke://":
        return "ydke"
    # line by line, not a multi-line regular expression: `^\s*#main` with re.M took
    # quadratic time on a file of newlines (178 s for 200,000 of them)
    by_ext = EXTENSIONS.get(ext)
    if by_ext == "ydk":  # the header lines below could only say "ydk" too
        return by_ext
    if any(ln.strip().lower() in _YDK_HEADERS for ln in data[:200_000].splitlines()):
        return "ydk"
    if by_ext is not None:
        return by_ext
    lines = [s for ln in data[:20_000].splitlines() if (s := ln.strip())]
    if lines and all(ln.isdigit() and 3 <= len(ln) <= 10 for ln in lines):
        return "ydk"
    if len(lines) == 1:
        from deckcheck.decks.omega import looks_like_omega

        try:
            if looks_like_omega(lines[0].decode("ascii").strip()):
                return "omega"
        except UnicodeDecodeError:
            pass
    if len(lines) >= 2:
        first = lines[0].decode("utf-8", "replace")
        for d in (",", ";", "\t"):
            if first.count(d) >= 1 and re.search(_HEADER_HINT, first) and \
                    all(ln.count(d.encode()) >= 1 for ln in lines[1:6]):
                return "csv"
    return "text"


def detect_format(path_or_text: str | Path, data: bytes | None = None) -> str:
    """The format of a source: a ydke:// URL or Omega code string, or a file (by content and
    extension). Raises DeckReadError for a string that is neither a file nor a deck code."""
    s = str(path_or_text)
    direct = _direct_format(s) if isinstance(path_or_text, str) else None
    if direct is not None:
        return direct
    ext = stem_suffix(s)[1] if s != STDIN else ""
    if data is None:
        data = read_bytes(path_or_text)
    return sniff(data, ext)


def read_decks(source: str | Path, pool: CardPool | None, *, fmt: str | None = None,
               name: str | None = None, data: bytes | None = None) -> list[Deck]:
    """Every deck in a source (a workbook gives one per sheet; anything else one).

    Per-entry problems go into `deck.problems`; DeckReadError only when nothing can be read.
    `pool` may be None for ydk and ydke sources (the readers that need no card names).
    `data`, when given, is the content (an upload), and `source` only its name."""
    if fmt is not None and fmt not in FORMATS:
        raise DeckReadError(f"Unknown deck format {fmt!r}; use one of {', '.join(FORMATS)}.")
    s = str(source)
    if isinstance(source, str) and data is None:
        data, decks = _open_string(s, fmt, pool, name)
        if decks is not None:
            return decks
    data = _checked_bytes(source, data)
    stem, ext = stem_suffix(s) if s != STDIN else (None, "")
    fmt = fmt or sniff(data, ext)
    label = source_label(source)
    if fmt in NEEDS_POOL_TO_READ and pool is None:
        raise DeckReadError(f"Reading {label} as {fmt} needs the card database; run "
                            "`deckcheck cards update`.")
    return _read_as(fmt, data, pool, label, name if name is not None else stem, name)


def _open_string(s: str, fmt: str | None, pool: CardPool | None, name: str | None
                 ) -> tuple[bytes | None, list[Deck] | None]:
    """A source given as a string: the bytes of the deck file it names (most sources), or
    the deck of the ydke:// URL or Omega code it is; (None, None) when it is neither (the
    caller's read says why)."""
    if s != STDIN and "\n" not in s and len(s) < 4096 and \
            s.lstrip()[:7].lower() != "ydke://":  # `ydke.is_ydke`
        # most sources are deck files: read at once (one open instead of a stat, then an
        # open); a source that is no readable regular file takes the way below, which says
        # what it is
        try:
            return read_bytes(s), None
        except DeckReadError:
            pass
    is_file = s != STDIN and "\n" not in s and _is_file(s)  # one stat for both checks
    direct = _direct_format(s, is_file) if fmt in (None, "ydke", "omega") else None
    if direct is not None:
        return None, [_read_string(s, fmt or direct, pool, name)]
    if s != STDIN and "\n" not in s and not is_file and not _exists(s):
        if fmt in ("ydke", "omega"):  # named as a code: say why it does not decode
            return None, [_read_string(s, fmt, pool, name)]
        if fmt is None and re.fullmatch(_CODE_LIKE, s):
            raise DeckReadError(f"{_short(s)}: no such file, and not a ydke:// URL or Omega "
                                "deck code that decodes; check the path, or copy the whole "
                                "code again.")
    return None, None


def _checked_bytes(source: str | Path, data: bytes | None) -> bytes:
    """The source's bytes (read now unless given), refused when too large or an old Office
    file."""
    if data is None:
        data = read_bytes(source)
    elif len(data) > MAX_BYTES:
        raise DeckReadError(f"{source_label(source)} is larger than {MAX_BYTES // 2**20} MB, "
                            "which is no deck; give a deck file.")
    if data.startswith(_OLE_MAGIC):
        raise DeckReadError(f"{source_label(source)} is an old Excel (.xls) or other Office "
                            "file; save it as an Excel Workbook (.xlsx) and try again.")
    return data


def _read_as(fmt: str, data: bytes, pool: CardPool | None, label: str,
             deck_name: str | None, name: str | None) -> list[Deck]:
    """The decks of a source's bytes in format `fmt` (a workbook's single deck takes `name`
    when one is given)."""
    if fmt == "ydk":
        from deckcheck.decks.ydk import read_ydk

        return [read_ydk(data, label, name=deck_name)]
    if fmt == "xlsx":
        from deckcheck.decks.xlsx import read_xlsx

        decks = read_xlsx(data, pool, label)
        if name is not None and len(decks) == 1:
            decks[0].name = name
        return decks
    if fmt == "csv":
        from deckcheck.decks.csvfile import read_csv

        return [read_csv(data, pool, label, name=deck_name)]
    if fmt == "text":
        from deckcheck.decks.text import read_text

        return [read_text(data, pool, label, name=deck_name)]
    from deckcheck.decks.source import decode_text

    text = decode_text(data, label).strip().lstrip("\ufeff")
    return [_read_string(text, fmt, pool, deck_name, label)]


def _read_string(s: str, fmt: str, pool: CardPool | None, name: str | None,
                 label: str | None = None) -> Deck:
    if fmt == "ydke":
        from deckcheck.decks.ydke import read_ydke

        return read_ydke(s, label or "<url>", name=name)
    if fmt == "omega":
        from deckcheck.decks.omega import read_omega

        if pool is None:
            raise DeckReadError("Reading an Omega deck code needs the card database (to tell "
                                "Main from Extra Deck cards); run `deckcheck cards update`.")
        return read_omega(s, pool, label or "<omega code>", name=name)
    raise DeckReadError(f"A {fmt} deck cannot be given as a string; save it to a file.")


def read_deck(source: str | Path, pool: CardPool | None, *, fmt: str | None = None,
              name: str | None = None) -> Deck:
    """Exactly one deck from a source (DeckReadError if a workbook holds several)."""
    decks = read_decks(source, pool, fmt=fmt, name=name)
    if len(decks) != 1:
        names = ", ".join(d.name or "?" for d in decks)
        raise DeckReadError(f"{source_label(source)} holds {len(decks)} decks (sheets {names}); "
                            "pick one sheet.")
    return decks[0]


def format_for(dest: str | Path, fmt: str | None = None) -> str:
    """The output format: `fmt`, else from the destination's extension."""
    from pathlib import Path

    if fmt is not None:
        if fmt not in OUTPUT_FORMATS:
            raise DeckWriteError(f"Unknown deck format {fmt!r}; use one of "
                                 f"{', '.join(OUTPUT_FORMATS)}.")
        return fmt
    if not str(dest):
        raise DeckWriteError("No output file was named (the path is empty); give a file name "
                             "such as deck.ydk.")
    if Path(str(dest)).is_dir():
        raise DeckWriteError(f"{dest} is a folder; give a file name inside it, such as "
                             f"{Path(str(dest)) / 'deck.ydk'}.")
    ext = Path(str(dest)).suffix.lower()
    if ext in OUTPUT_EXTENSIONS:
        return OUTPUT_EXTENSIONS[ext]
    raise DeckWriteError(f"Cannot tell the deck format from {str(dest)!r}; give the file an "
                         f"extension (.ydk, .ydke, .omega, .txt, .csv, .xlsx, .pdf) or name the "
                         "format.")


def dump_deck(deck: Deck, fmt: str, pool: CardPool | None, **opts: Any) -> bytes:
    """The deck written in `fmt`, as bytes. `opts` are the registration-sheet fields (xlsx,
    pdf)."""
    if fmt == "ydk":
        from deckcheck.decks.ydk import write_ydk

        return write_ydk(deck).encode("utf-8")
    if fmt == "ydke":
        from deckcheck.decks.ydke import to_ydke

        return (to_ydke(deck) + "\n").encode("ascii")
    if fmt == "omega":
        from deckcheck.decks.omega import to_omega

        return (to_omega(deck) + "\n").encode("ascii")
    if fmt == "text":
        from deckcheck.decks.text import write_text

        return write_text(deck, pool).encode("utf-8")
    if fmt == "csv":
        from deckcheck.decks.csvfile import write_csv

        return write_csv(deck, pool).encode("utf-8")
    if fmt == "xlsx":
        from deckcheck.decks.xlsx import write_xlsx

        return write_xlsx(deck, pool, **{k: v for k, v in opts.items() if v is not None})
    if fmt == "pdf":
        from deckcheck.decks.pdf import write_pdf

        return write_pdf(deck, pool, **{k: v for k, v in opts.items() if v is not None})
    raise DeckWriteError(f"Unknown deck format {fmt!r}; use one of {', '.join(OUTPUT_FORMATS)}.")


def write_deck(deck: Deck, dest: str | Path | IO[bytes], pool: CardPool | None, *,
               fmt: str | None = None, **opts: Any) -> None:
    """Write the deck to a file (atomically) or a binary stream. The format comes from `fmt`
    or the file's extension."""
    if not isinstance(dest, (str, os.PathLike)):
        dest.write(dump_deck(deck, fmt or "ydk", pool, **opts))
        return
    save_bytes(dest, dump_deck(deck, format_for(dest, fmt), pool, **opts))


def save_bytes(dest: str | Path, data: bytes) -> None:
    """Write a file atomically (a temporary file in the same folder, then renamed); the file
    keeps the permissions of the one it replaces, else gets the usual ones (umask)."""
    from pathlib import Path

    if not str(dest):
        raise DeckWriteError("No output file was named (the path is empty); give a file name "
                             "such as deck.ydk.")
    path = Path(dest)
    if path.is_dir():
        raise DeckWriteError(f"{path} is a folder; give a file name inside it, such as "
                             f"{path / 'deck.ydk'}.")
    try:
        with replacing(path) as tmp:
            tmp.write_bytes(data)
    except OSError as exc:
        raise DeckWriteError(f"{path}: cannot be written ({exc.strerror}); check the folder "
                             "and permissions.") from None




#: Longest file name `file_name_for` makes, in UTF-8 bytes (file systems allow 255; leave room
#: for a "_2" and the extension).
MAX_NAME_BYTES = 120
_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                       *(f"lpt{i}" for i in range(10))})


def file_name_for(text: str, suffix: str, used: set[str] | None = None,
                  fallback: str = "player") -> str:
    """A file name made from input (a player's name): letters, digits, space, `-`, `_` and
    `.` kept, anything else (path separators, `..`, controls) turned into `_`, at most
    `MAX_NAME_BYTES` bytes, never a reserved Windows name, and, when `used` is given (lower-case
    names already taken), made unique with `_2`, `_3`… and added to it.

        >>> file_name_for("../../Jane Doe", ".xlsx")
        'Jane_Doe.xlsx'
    """
    keep = "".join(c if c.isalnum() or c in " -_." else "_" for c in text)
    base = "_".join(keep.split()).strip("._") or fallback
    while len(base.encode("utf-8")) > MAX_NAME_BYTES:
        base = base[:-1]
    base = base.rstrip("._") or fallback
    if base.split(".")[0].casefold() in _RESERVED:
        base = "_" + base
    name, n = base, 1
    while used is not None and (name + suffix).casefold() in used:
        n += 1
        name = f"{base}_{n}"
    if used is not None:
        used.add((name + suffix).casefold())
    return name + suffix


def path_inside(folder: str | Path, name: str) -> Path:
    """`folder / name`, refusing (DeckWriteError) a name that would leave the folder."""
    from pathlib import Path

    base = Path(folder)
    path = base / name
    if Path(name).name != name or name in ("", ".", "..") or \
            os.path.abspath(path.parent) != os.path.abspath(base):
        raise DeckWriteError(f"{name!r} is not a plain file name; a file made from input must "
                             f"stay inside {base}.")
    return path
