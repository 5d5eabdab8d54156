"""Deck readers against the real decklists in ../shared/data/decks (skipped without it)."""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.files import read_decks
from deckcheck.decks.ydk import read_ydk
from deckcheck.decks.ydke import read_ydke
from deckcheck.errors import DeckReadError


def raw_counts(data: bytes) -> tuple[dict[str, int], bool]:
    """Digit-only lines per section, counted the simple way, and whether a header was seen."""
    text = data.decode("utf-8", "replace").lstrip("\ufeff")
    counts = {"main": 0, "extra": 0, "side": 0}
    section: str | None = "main"
    headers = False
    for line in text.splitlines():
        s = line.strip()
        low = s.lower()
        if low in ("#main", "#extra", "!side"):
            section, headers = {"#main": "main", "#extra": "extra", "!side": "side"}[low], True
        elif low.startswith("!") or low.startswith("##") or low[1:] in (
                "pickup", "case", "protector", "field", "grave", "stand", "mate", "spare",
                "representative"):
            section = None
        elif s.isdigit() and section is not None:
            counts[section] += 1
    return counts, headers


def test_every_ydk_file_reads_with_the_counts_its_lines_imply(shared_data: Path) -> None:
    files = sorted((shared_data / "decks").rglob("*.ydk"))
    assert len(files) > 3500
    refused = []
    for path in files:
        data = path.read_bytes()
        expected, headers = raw_counts(data)
        try:
            deck = read_ydk(data, str(path))
        except DeckReadError:
            assert not headers and not any(expected.values()), path
            refused.append(path.name)
            continue
        got = {s: deck.size(s) for s in expected}  # type: ignore[misc]
        assert got == expected, path
        assert all(p.kind == "bad-line" for p in deck.problems)
    assert len(refused) <= 1   # the one RDF file saved with a .ydk extension


def _ydke_rows(shared_data: Path) -> list[dict[str, str]]:
    with open(shared_data / "decks" / "ydke" / "ydke_urls.tsv", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_every_ydke_url_decodes_to_the_recorded_counts(shared_data: Path) -> None:
    rows = _ydke_rows(shared_data)
    assert len(rows) == 66
    for row in rows:
        deck = read_ydke(row["url"])
        assert (deck.size("main"), deck.size("extra"), deck.size("side")) == (
            int(row["main"]), int(row["extra"]), int(row["side"])), row["url"]


def test_broken_real_urls_fail_with_a_message(shared_data: Path) -> None:
    for row in _ydke_rows(shared_data):
        url = row["url"]
        main = url[len("ydke://"):].split("!")[0]
        if len(main) < 8:
            continue
        cut = "ydke://" + main[:-3] + url[len("ydke://") + len(main):]
        star = "ydke://*" + url[len("ydke://"):]
        for bad, why in ((cut, "Main Deck part"), (star, "holds '*'"),
                         (url.split("!")[0], "needs three")):
            with pytest.raises(DeckReadError, match=re.escape(why)):
                read_ydke(bad)


def _expected_text_counts(path: Path) -> Counter[str]:
    """Copies per section from the raw lines: leading number or 1; header lines switch."""
    section = "unsectioned"
    counts: Counter[str] = Counter()
    words = {"monster": "main", "spell": "main", "trap": "main", "extra": "extra",
             "side": "side", "main": "main"}
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if not s:
            continue
        if s.lower() in words:
            section = words[s.lower()]
            continue
        m = re.match(r"(\d+)\s+\D", s)
        counts[section] += int(m.group(1)) if m else 1
    return counts


def test_plain_text_lists_resolve_every_name(shared_data: Path, real_pool: MemoryPool) -> None:
    files = sorted((shared_data / "decks" / "plaintext").rglob("*.txt"))
    assert len(files) == 2
    for path in files:
        (deck,) = read_decks(path, real_pool)
        for p in deck.problems:   # anything not resolved must be reported with suggestions
            assert p.kind == "unknown-name" and p.suggestions, p
        assert deck.problems == []
        expected = _expected_text_counts(path)
        if "unsectioned" in expected:   # no headers: Extra Deck monsters found by frame
            assert deck.size("main") + deck.size("extra") == expected["unsectioned"]
            for e in deck.extra:
                card = real_pool.get(e.passcode)  # type: ignore[arg-type]
                assert card is not None and card.deck == "extra"
            assert deck.size("extra") > 0
        else:
            assert {s: deck.size(s) for s in ("main", "extra", "side")} == {
                s: expected[s] for s in ("main", "extra", "side")}


def test_csv_one_row_per_copy(shared_data: Path, real_pool: MemoryPool) -> None:
    for path in sorted((shared_data / "decks" / "YGO-Decklist-Analytics").rglob("*.csv")):
        with open(path, encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        expected = Counter({"main_deck": "main", "extra_deck": "extra",
                            "side_deck": "side"}[r["deck"]] for r in rows)
        codes = Counter(int(r["code"]) for r in rows)
        (deck,) = read_decks(path, real_pool)
        assert deck.problems == []
        assert {s: deck.size(s) for s in ("main", "extra", "side")} == dict(expected)
        assert sum((deck.counts(s) for s in ("main", "extra", "side")), Counter()) == codes
        assert all(e.location.cell and e.location.line for _, e in deck.entries())
