"""The desk's one door into the deckcheck library.

Every call the desk makes into the library (reading decks, checking them, hashing and
comparing them, building and writing the event report, registration sheets) goes through
this module, so a change of the library's public API is one edit here. Nothing else in
`deckcheck.desk` imports from `deckcheck.decks`, `deckcheck.checker` or `deckcheck.event`.
"""

from __future__ import annotations

import datetime as dt
import tempfile
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from deckcheck.decks.files import DECK_SUFFIXES
from deckcheck.decks.model import SECTIONS
from deckcheck.errors import DeckcheckError

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool as CardPool
    from deckcheck.decks.diff import DeckDiff
    from deckcheck.decks.model import Deck as Deck
    from deckcheck.event.models import EventReport
    from deckcheck.event.run import CachingPool
    from deckcheck.formats.model import Format
    from deckcheck.reports.model import Report

#: The library's error for anything a user can cause: its message is one sentence.
LibraryError = DeckcheckError


def max_upload_bytes() -> int:
    """The deck readers' size limit for one file (the desk refuses larger uploads)."""
    from deckcheck.decks.source import MAX_BYTES

    return MAX_BYTES


#: What one player's deck workbook may inflate to. Konami's form and deck editors' exports
#: are under 1 MB; a 760 KB workbook of 96 MB of sheet XML (issue 20) took 1.3 s of CPU to
#: parse, during which every other player's list waited. Registration workbooks of a whole
#: event (staff imports) keep the readers' own bound.
ONE_DECK_WORKBOOK = 16 * 2**20

#: Extensions of deck files a player may upload, and of registration files staff may import.
DECK_EXTENSIONS = DECK_SUFFIXES


@dataclass(frozen=True)
class LayoutLine:
    """One line of a deck laid out for people: count, name, passcode, where it was written."""

    count: int
    name: str
    passcode: int | None
    location: str
    #: A name no card has (misspelt, or unknown to the card pool): shown as written, marked.
    unknown: bool = False


class Library:
    """The card pool, format, list and date of one event, ready to read and check decks.

    Reading and checking run under one lock: the card store is one SQLite connection, and
    the work is CPU-bound anyway, so one deck at a time loses nothing."""

    def __init__(self, format: str | Format = "tcg", date: dt.date | None = None, *,
                 db: str | None = None, pool: CardPool | None = None) -> None:
        from deckcheck.checker import Checker, resolve_format
        from deckcheck.event.run import CachingPool

        if pool is None:
            from deckcheck.cards.load import open_pool

            pool = open_pool(db)
        self.pool: CachingPool = CachingPool(pool)
        self.format = resolve_format(format)
        self.checker = Checker(self.format, date, pool=self.pool)
        self.date: dt.date = self.checker.date
        self._lock = threading.Lock()

    # --- facts -----------------------------------------------------------------------------

    @property
    def format_id(self) -> str:
        return self.format.id

    @property
    def format_name(self) -> str:
        return self.format.name

    @property
    def banlist_name(self) -> str | None:
        return self.checker.banlist.name if self.checker.banlist is not None else None

    @property
    def notices(self) -> list[str]:
        return list(self.checker.notices)

    # --- reading ---------------------------------------------------------------------------

    def read_upload(self, data: bytes, filename: str) -> Deck:
        """The one deck in an uploaded file's bytes. `filename` is used for its extension
        and as the label in locations only, never as a path. Raises LibraryError."""
        from deckcheck.decks.files import EXTENSIONS, sniff
        from deckcheck.decks.source import decode_text
        from deckcheck.errors import DeckReadError

        if len(data) > max_upload_bytes():
            raise DeckReadError(f"{filename} is too large for a deck file (limit "
                                f"{max_upload_bytes() // 2**20} MB); check that it is the "
                                "right file.")
        if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
            raise DeckReadError(f"{filename} is an old Excel (.xls) or other Office file; save "
                                "it as an Excel Workbook (.xlsx) and try again.")
        ext = PurePath(filename).suffix.lower()
        fmt = sniff(data, ext if ext in EXTENSIONS else "")
        grids = None
        if fmt == "xlsx":
            from deckcheck.decks.xlsx import read_grids

            # unpacking and parsing the workbook needs no card pool: done outside the lock,
            # so a large workbook does not hold up every other player's list
            grids = read_grids(data, filename, max_unzipped=ONE_DECK_WORKBOOK)
        with self._lock:
            if fmt == "ydk":
                from deckcheck.decks.ydk import read_ydk

                return read_ydk(data, filename)
            if grids is not None:
                from deckcheck.decks.xlsx import decks_of

                decks = decks_of(grids, self.pool, filename)
                if len(decks) != 1:
                    names = ", ".join(d.name or "?" for d in decks)
                    raise DeckReadError(f"{filename} holds {len(decks)} decks (sheets {names}); "
                                        "upload a workbook with one deck.")
                return decks[0]
            if fmt == "csv":
                from deckcheck.decks.csvfile import read_csv

                return read_csv(data, self.pool, filename)
            if fmt == "text":
                from deckcheck.decks.text import read_text

                return read_text(data, self.pool, filename)
            text = decode_text(data, filename).strip().lstrip("\ufeff")
            return self._read_code(text, fmt, filename)

    def read_pasted(self, text: str, label: str = "pasted list") -> Deck:
        """The deck in pasted text: a ydke:// URL, an Omega code, a ydk or a text list."""
        from deckcheck.decks.files import sniff

        text = text.strip().lstrip("\ufeff")
        data = text.encode("utf-8", "surrogatepass")
        fmt = sniff(data, "")
        if fmt in ("ydke", "omega"):
            with self._lock:
                return self._read_code(text.split()[0] if fmt == "ydke" else text, fmt, label)
        return self.read_upload(data, label)

    def _read_code(self, text: str, fmt: str, label: str) -> Deck:
        if fmt == "ydke":
            from deckcheck.decks.ydke import read_ydke

            return read_ydke(text, label)
        from deckcheck.decks.omega import read_omega

        return read_omega(text, self.pool, label)

    # --- checking --------------------------------------------------------------------------

    def check(self, deck: Deck) -> Report:
        with self._lock:
            return self.checker.check(deck)

    def deck_hash(self, deck: Deck) -> str:
        from deckcheck.decks.deckhash import deck_hash

        with self._lock:
            return deck_hash(deck, self.pool, self.pool.canonical)

    def layout(self, deck: Deck) -> dict[str, list[LayoutLine]]:
        """Main / Extra / Side as people read them: each entry with its card's name, and each
        name the reader could not match to a card (as written, marked `unknown`), so the
        counts shown add up to what was sent."""
        out: dict[str, list[LayoutLine]] = {}
        with self._lock:
            for section in SECTIONS:
                rows = []
                for e in deck.section(section):
                    card = self.pool.get(e.passcode) if e.passcode is not None else None
                    name = card.name if card is not None else (e.written or f"#{e.passcode}")
                    rows.append(LayoutLine(e.count, name, e.passcode, str(e.location)))
                out[section] = rows
        for p in deck.problems:
            if p.kind in ("unknown-name", "ambiguous-name") and p.written:
                out[p.section or "main"].append(LayoutLine(p.count or 1, p.written, None,
                                                           str(p.location or ""), unknown=True))
        return out

    def diff(self, a: Deck, b: Deck, a_label: str, b_label: str) -> DeckDiff:
        from deckcheck.decks.diff import diff_decks

        with self._lock:
            return diff_decks(a, b, self.pool, a_label=a_label, b_label=b_label)

    # --- the event -------------------------------------------------------------------------

    def event_report(self, registrations: Iterable[tuple[str, str | None, str | None, Deck]],
                     event_name: str | None = None) -> EventReport:
        """The event report (the one `deckcheck event check` writes) for the registrations
        that count: (source, player, player id, deck) each, checked here, in this process
        (no worker processes are started from the server's thread). Its notices are grouped:
        each once, naming the players it concerns unless it concerns every list."""
        from deckcheck.event.models import EventReport, Registration
        from deckcheck.event.run import add_registration, finish

        event = EventReport(format=self.format.id, date=self.date.isoformat(),
                            event=event_name)
        concerns: dict[str, list[str]] = {}
        players = 0
        with self._lock:
            for source, player, player_id, deck in registrations:
                players += 1
                reg = Registration(source=source, player=player, player_id=player_id,
                                   deck=deck)

                def check(d: Deck, who: str = player or source) -> Report:
                    report = self.checker.check(d)
                    for n in report.notices:
                        concerns.setdefault(n, []).append(who)
                    return report

                add_registration(event, reg, check, self.pool, self.checker.notices)
            event = finish(event)
        grouped = [n if len(who) == players and players > 1 else f"{n} ({', '.join(who)})"
                   for n, who in concerns.items()]
        # and what `finish` adds (how many registrations have notes)
        event.notices = [*grouped, *(n for n in event.notices if n not in concerns)]
        return event

    def import_files(self, files: Sequence[tuple[str, bytes]]) -> list[tuple[str, str | None,
                                                                              str | None,
                                                                              Deck | None,
                                                                              str | None]]:
        """Registrations in uploaded files (a folder's deck files, a workbook or CSV of
        registrations): (source, player, player id, deck or None, error or None) each.

        Each file is written under a name the desk makes (`1.ydk`, `2.xlsx`: the extension
        from a fixed list) in a fresh temporary folder, read by the event readers, and the
        player's name taken from the uploaded file's name as `event check` takes it."""
        from deckcheck.event.registrations import player_from_stem, read_registrations

        out: list[tuple[str, str | None, str | None, Deck | None, str | None]] = []
        with tempfile.TemporaryDirectory(prefix="deckcheck-desk-") as tmp, self._lock:
            for k, (name, data) in enumerate(files, 1):
                ext = PurePath(name).suffix.lower()
                if ext not in DECK_EXTENSIONS:
                    out.append((name, None, None, None,
                                f"{name}: not a deck or registration file; use one of "
                                f"{', '.join(DECK_EXTENSIONS)}."))
                    continue
                path = Path(tmp) / f"{k}{ext}"
                path.write_bytes(data)
                # the uploaded name is only parsed (player and id), never opened
                stem_player, stem_id = player_from_stem(Path(name))
                for reg in read_registrations(path, self.pool):
                    source = name + reg.source[len(str(path)):]
                    error = reg.error.replace(str(path), name) if reg.error else None
                    player = reg.player if reg.player != str(k) else stem_player
                    player_id = reg.player_id or (stem_id if player == stem_player else None)
                    deck = reg.deck.model_copy(update={"source": source}) if reg.deck else None
                    out.append((source, player, player_id, deck, error))
        return out


def duplicates(rows: Iterable[tuple[int, str | None, str | None, str | None]]
               ) -> dict[int, str | None]:
    """Why each registration looks like a duplicate, as `event check` says it ("same player
    id as #3 Alice"): rows are (number, player, player id, deck hash)."""
    from deckcheck.event.models import PlayerRow
    from deckcheck.event.run import flag_duplicates

    table = [PlayerRow(number=n, player=player, player_id=player_id, source=str(n),
                       verdict="legal", deck_hash=deck_hash)
             for n, player, player_id, deck_hash in rows]
    flag_duplicates(table)
    return {r.number: r.duplicate for r in table}


def where(violation: Any) -> str:
    """Where a problem was written (`deck.ydk:42`, `Sheet1!B7`), as people read it; "" when
    the problem is about the whole deck."""
    loc = getattr(violation, "location", None)
    return "" if loc is None else str(loc)


def write_event_report(event: EventReport, kind: str) -> tuple[bytes, str, str]:
    """The event report as (bytes, media type, file name): kind "xlsx", "csv" (players),
    "problems.csv" or "json", written by the same writers as `deckcheck event check`."""
    with tempfile.TemporaryDirectory(prefix="deckcheck-desk-") as tmp:
        if kind == "xlsx":
            from deckcheck.event.report_xlsx import write_xlsx

            dest = Path(tmp) / "report.xlsx"
            # in this process: forking helpers from a server thread may deadlock (Python
            # 3.12 warns), and an event's report is small enough not to need them
            write_xlsx(event, dest, jobs=1)
            media = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            return dest.read_bytes(), media, "report.xlsx"
        if kind in ("csv", "problems.csv"):
            from deckcheck.event.report_csv import write_csv

            players, problems = write_csv(event, Path(tmp) / "report.csv")
            path = players if kind == "csv" else problems
            return path.read_bytes(), "text/csv; charset=utf-8", path.name
        if kind == "json":
            from deckcheck.event.report_json import write_json

            (path,) = write_json(event, Path(tmp) / "report.json")
            return path.read_bytes(), "application/json", "report.json"
    raise ValueError(f"unknown report kind {kind!r}")


def registration_sheet(lib: Library, deck: Deck, *, player: str | None,
                       player_id: str | None, event: str, date: str) -> bytes:
    """The printable registration sheet (.xlsx) of `deck`, as `deckcheck event sheet` writes."""
    from deckcheck.decks.files import dump_deck

    return dump_deck(deck, "xlsx", lib.pool, player=player, player_id=player_id, event=event,
                     date=date)


def decklists_pdf(lib: Library, players: list[tuple[Deck, str | None, str | None]], *,
                  event: str | None, date: str) -> bytes:
    """One PDF of decklists (Konami's form), a page per (deck, player, CARD GAME ID) in the
    order given, as `deckcheck event sheet … -o sheets.pdf` writes. LibraryError without
    reportlab."""
    from deckcheck.decks.pdf import write_pdf_pages

    pages = [(deck, {"player": player, "player_id": player_id, "event": event, "date": date})
             for deck, player, player_id in players]
    return write_pdf_pages(pages, lib.pool, title=f"{event} decklists" if event else None)


def format_diff(d: DeckDiff) -> str:
    from deckcheck.decks.diff import format_diff as fmt

    return fmt(d)


def deck_to_json(deck: Deck) -> str:
    return deck.model_dump_json()


def deck_from_json(text: str) -> Deck:
    from deckcheck.decks.model import Deck

    return Deck.model_validate_json(text)


def report_to_json(report: Report) -> str:
    return report.model_dump_json()


def report_from_json(text: str) -> Report:
    from deckcheck.reports.model import Report

    return Report.model_validate_json(text)


def formula_safe(text: str) -> str:
    """Text as the event report writes it into a cell: a leading = + - @ gets a quote."""
    from deckcheck.event.report_csv import escape

    value = escape(text)
    return value if isinstance(value, str) else text
