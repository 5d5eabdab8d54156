"""Property tests: round trips are lossless, and no input makes a reader raise anything but
DeckReadError.

Lossless means: same passcodes and counts per section. ydk, ydke, CSV and xlsx keep every
passcode as written (alternate artworks too); plain text writes names, so a text round trip
canonicalises alternate artworks to the card's own passcode (unknown passcodes are written as
digits and survive). Omega codes do not store Main vs Extra, so the reader files cards by
frame: the Main+Extra multiset and the Side Deck survive exactly.
"""

from __future__ import annotations

import io
import zipfile
from collections import Counter

from deckfile_cards import POOL  # type: ignore[import-not-found]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.csvfile import read_csv, write_csv
from deckcheck.decks.files import dump_deck, sniff
from deckcheck.decks.model import SECTIONS, Deck, Entry
from deckcheck.decks.omega import read_omega, to_omega
from deckcheck.decks.text import read_text, write_text
from deckcheck.decks.xlsx import read_xlsx, write_xlsx
from deckcheck.decks.ydk import read_ydk, write_ydk
from deckcheck.decks.ydke import read_ydke, to_ydke
from deckcheck.errors import DeckReadError

B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
KNOWN = sorted({pc for c in POOL for pc in c.all_passcodes})
passcodes = st.one_of(st.sampled_from(KNOWN), st.integers(1, 2**32 - 1))
entries = st.lists(st.builds(lambda pc, n: Entry(passcode=pc, count=n), passcodes,
                             st.integers(1, 3)), max_size=8)
decks = st.builds(lambda m, e, s: Deck(main=m, extra=e, side=s), entries, entries, entries)
FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=15, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def exact(deck: Deck) -> list[Counter[int]]:
    return [deck.counts(s) for s in SECTIONS]


def canonical(deck: Deck, pool: MemoryPool = POOL) -> list[Counter[int]]:
    out = []
    for s in SECTIONS:
        c: Counter[int] = Counter()
        for pc, n in deck.counts(s).items():
            card = pool.get(pc)
            c[card.passcode if card is not None else pc] += n
        out.append(c)
    return out


@FAST
@given(decks)
def test_ydk_and_ydke_are_exact(deck: Deck) -> None:
    assert exact(read_ydk(write_ydk(deck), "x.ydk")) == exact(deck)
    assert exact(read_ydke(to_ydke(deck))) == exact(deck)


@FAST
@given(decks)
def test_csv_is_exact(deck: Deck) -> None:
    assert exact(read_csv(write_csv(deck, POOL), POOL, "x.csv")) == exact(deck)


@FAST
@given(decks)
def test_text_canonicalises_alternate_artworks_only(deck: Deck) -> None:
    again = read_text(write_text(deck, POOL), POOL, "x.txt")
    assert again.problems == []
    assert canonical(again) == canonical(deck)


@FAST
@given(decks)
def test_omega_keeps_cards_and_files_them_by_frame(deck: Deck) -> None:
    again = read_omega(to_omega(deck), POOL)
    assert again.counts("main") + again.counts("extra") == deck.counts("main") + \
        deck.counts("extra")
    assert again.counts("side") == deck.counts("side")
    for pc in again.counts("extra"):
        card = POOL.get(pc)
        assert card is not None and card.deck == "extra"


@SLOW
@given(decks)
def test_xlsx_registration_sheet_adds_up_artworks_only(deck: Deck) -> None:
    (again,) = read_xlsx(write_xlsx(deck, POOL), POOL, "x.xlsx")
    assert again.problems == []
    assert canonical(again) == canonical(deck)  # one line per card name, as Konami's form


@SLOW
@given(decks)
def test_chain_ydk_ydke_text_xlsx_ydk(deck: Deck) -> None:
    d1 = read_ydk(write_ydk(deck), "a.ydk")
    d2 = read_ydke(to_ydke(d1))
    d3 = read_text(write_text(d2, POOL), POOL, "c.txt")
    (d4,) = read_xlsx(write_xlsx(d3, POOL), POOL, "d.xlsx")
    d5 = read_ydk(write_ydk(d4), "e.ydk")
    assert canonical(d5) == canonical(deck)


def _only_deck_read_error(fn, *args) -> None:  # noqa: ANN001
    try:
        deck = fn(*args)
    except DeckReadError as exc:
        assert str(exc).strip() and "\n" not in str(exc)
        return
    assert deck is not None


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_crash_a_reader(data: bytes) -> None:
    _only_deck_read_error(read_ydk, data, "r.ydk")
    _only_deck_read_error(read_text, data, POOL, "r.txt")
    _only_deck_read_error(read_csv, data, POOL, "r.csv")
    _only_deck_read_error(read_xlsx, data, POOL, "r.xlsx")
    _only_deck_read_error(read_xlsx, b"PK\x03\x04" + data, POOL, "r.xlsx")
    assert sniff(data) in ("ydk", "ydke", "omega", "text", "csv", "xlsx")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_random_strings_never_crash_a_reader(text: str) -> None:
    _only_deck_read_error(read_ydk, text, "r.ydk")
    _only_deck_read_error(read_text, text, POOL, "r.txt")
    _only_deck_read_error(read_csv, text, POOL, "r.csv")
    _only_deck_read_error(read_ydke, "ydke://" + text)
    _only_deck_read_error(read_ydke, text)
    _only_deck_read_error(read_omega, text, POOL)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=B64_ALPHABET, max_size=40), min_size=1, max_size=5))
def test_random_ydke_parts_give_a_deck_or_a_sentence(parts: list[str]) -> None:
    _only_deck_read_error(read_ydke, "ydke://" + "!".join(parts))
    _only_deck_read_error(read_omega, "".join(parts), POOL)


_SHEET = dump_deck(Deck(main=[Entry(passcode=14558127, count=3)]), "xlsx", POOL)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_SHEET) - 1), st.integers(0, 255)),
                min_size=1, max_size=6))
def test_damaged_workbooks_give_a_deck_or_a_sentence(flips: list[tuple[int, int]]) -> None:
    data = bytearray(_SHEET)
    for at, value in flips:
        data[at] = value
    _only_deck_read_error(read_xlsx, bytes(data), POOL, "d.xlsx")


def test_damaged_sheet_xml_inside_a_valid_zip() -> None:
    src = zipfile.ZipFile(io.BytesIO(_SHEET))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename.endswith("sheet1.xml"):
                body = body[: len(body) // 2]
            dst.writestr(info, body)
    _only_deck_read_error(read_xlsx, out.getvalue(), POOL, "d.xlsx")
