"""Generate the built-in card pool from real card data, with deckcheck's own importers.

    python -m deckcheck.cards.build_builtin [DATA_DIR] [--out FOLDER] [--check]

reads every card source under DATA_DIR (default ``../shared/data/cards``: the YGOPRODeck
dump, YAML Yugi, YGOJSON, the EDOPro cdbs and mappings.json) exactly as `deckcheck cards
import` does, merges them as the store does (`deckcheck.imports.merge`), and writes the check
facts of every card into the package (`builtin_cards.tsv`, `builtin_ids.tsv`,
`builtin_names.tsv`, the cards' compact facts `builtin_facts.tsv` and both files' index
`builtin_cards.idx`; see `deckcheck.cards.builtin` for the columns). No card texts. The
header names each source, its file, version and the day its data ends, and what the pool
covers per family of facts (`deckcheck.cards.coverage`). ``--check`` writes nothing and
exits 1 when the files in the package differ from what the data gives (the test does the
same).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from deckcheck.cards.builtin import (
    CARDS_FILE,
    COLUMNS,
    FACTS_FILE,
    IDS_FILE,
    INDEX_FILE,
    NAME_LANGS,
    NAMES_FILE,
    facts_text,
    index_bytes,
    released_cell,
)
from deckcheck.cards.coverage import combine, source_covers
from deckcheck.cards.names import normalize
from deckcheck.imports.merge import Merged, merge
from deckcheck.sources import read_source
from deckcheck.sources.records import SourceData

#: The sources under the data folder, and the day each one's data ends where the file does
#: not say it (None: take the day from the file: YGOJSON's meta.json, a zip member's date;
#: "unknown": no day is known, so the source extends no coverage). From the data's README:
#: the YGOPRODeck dump was pulled on 2026-06-14 (its member's date), YAML Yugi is the
#: 2026-08-22 data (its zip was made later), YGOJSON says its own day; the EDOPro files carry
#: no date at all.
SOURCES: tuple[tuple[str, str | None], ...] = (
    ("ygoprodeck-cardinfo.zip", None),
    ("yaml-yugi-cards.zip", "2026-08-22"),
    ("ygojson-v1.zip", None),
    ("edopro/cards.delta.cdb", "unknown"),
    ("edopro/cards-unofficial.cdb", "unknown"),
    ("edopro/cards-rush.cdb", "unknown"),
    ("edopro/cards-rush.delta.cdb", "unknown"),
    ("edopro/cards-skills.cdb", "unknown"),
    ("edopro/cards-skills.delta.cdb", "unknown"),
    ("edopro/goat-entries.cdb", "unknown"),
    ("edopro/mappings.json", "unknown"),
)
DEFAULT_DATA = Path("..") / "shared" / "data" / "cards"


def read_all(data: Path) -> list[SourceData]:
    """Every source of `SOURCES` found under `data`, read by deckcheck's importers, with the
    day its data ends."""
    out = []
    for name, day in SOURCES:
        path = data / name
        if not path.is_file():
            continue
        sd = read_source(path)
        if day == "unknown":
            sd.covers = {}
        elif day is not None:
            sd.covers = source_covers(sd.name, sd.records, day)
        sd.origin = name
        out.append(sd)
    return out


def _evidence(sources: list[SourceData], merged: Merged) -> dict[int, dict[str, bool]]:
    """Card -> which sources say it is (True) or is not (False) in Master Duel."""
    out: dict[int, dict[str, bool]] = {}
    for sd in sources:
        base = sd.name.split(":", 1)[0]
        for rec in sd.records:
            md = rec.get("master_duel")
            found = merged.ids.get(rec["passcode"])
            if md is None or found is None:
                continue
            said = out.setdefault(found[0], {})
            said[base] = said.get(base, False) or bool(md)
    return out


def _cell(value: Any) -> str:
    if value is None or value is False:
        return ""
    if value is True:
        return "1"
    text = str(value)
    if "\t" in text or "\n" in text or "\r" in text:
        # a few unofficial cards' names carry a stray tab: a line holds it as one space
        text = " ".join(text.split())
    return text


def card_line(c: dict[str, Any], md_said: dict[str, bool] | None) -> str:
    """One card's line (the columns of `builtin.COLUMNS`)."""
    names = c.get("names") or {}
    frame = c["frame"]
    stars = c.get("rank") if frame.startswith("xyz") else c.get("link_rating") \
        if frame == "link" else c.get("level")
    atk, dfn = c.get("atk"), c.get("defense")
    md = c.get("master_duel")
    said = md_said or {}
    evidence = "+".join(sorted(s for s, v in said.items() if v is bool(md)))
    md_cell = "" if md is None else ("yes" if md else "no") + (f":{evidence}" if evidence
                                                               else "")
    cells = {
        "passcode": c["passcode"],
        "alt": ",".join(map(str, c.get("alt_passcodes") or ())),
        "konami": c.get("konami_id"),
        "kind": c["kind"],
        "frame": frame,
        "name": c["name"],
        "ja": names.get("ja"), "zh-CN": names.get("zh-CN"), "zh-TW": names.get("zh-TW"),
        "ko": names.get("ko"),
        "rule_name": None if c["rule_name"] == c["name"] else c["rule_name"],
        "types": ",".join(c.get("monster_types") or ()),
        "stars": stars,
        "scale": c.get("scale"),
        "attribute": c.get("attribute"),
        "race": c.get("race"),
        "atk/def": None if atk is None and dfn is None else
        f"{'' if atk is None else atk}/{'' if dfn is None else dfn}",
        "scopes": ",".join(sorted(c.get("scopes") or ())),
        "released": released_cell(c.get("released") or {}),
        "master_duel": md_cell,
        "cns": bool(c.get("cannot_normal_summon")),
    }
    return "\t".join(_cell(cells[col]) for col in COLUMNS)


def _header(sources: list[SourceData], what: str) -> Iterator[str]:
    yield (f"# deckcheck built-in card pool: {what}. Generated by `python -m "
           "deckcheck.cards.build_builtin` from the sources below, read by deckcheck's own "
           "importers; do not edit by hand (regenerate).")
    yield "# source\tname\tfile\tversion\trecords\tdata ends\tfamilies covered"
    for sd in sources:
        ends = next(iter(sd.covers.values()), None)
        yield "\t".join(("# source", sd.name, sd.origin or "", sd.version or "",
                         str(len(sd.records)), ends or "unknown",
                         ",".join(sd.covers) or "-"))
    for family, day in sorted(combine(sd.covers for sd in sources).items()):
        yield f"# covers\t{family}\t{day.isoformat()}"


def render(sources: list[SourceData]) -> tuple[str, str, str]:
    """The texts of the card file, the id file and the name file."""
    merged = merge({sd.name: sd.records for sd in sources})
    said = _evidence(sources, merged)
    cards = [card_line(c, said.get(pc)) for pc, c in sorted(merged.cards.items())]
    head = list(_header(sources, "the check facts of every card, one card a line, sorted by "
                                 "passcode, TAB-separated, empty cells for nothing known"))
    head.append(f"# cards\t{len(cards)}")
    head.append("# " + "\t".join(COLUMNS))
    ids = [f"{i}\t{pc}\t{kind}" for i, (pc, kind) in sorted(merged.ids.items()) if kind != "main"]
    id_head = [f"# deckcheck built-in card pool: the ids that are not a card's own passcode "
               f"(alternate artworks, prerelease ids), sorted; see {CARDS_FILE}.",
               "# id\tpasscode\tkind"]
    names: dict[str, list[int]] = {}
    for pc, c in sorted(merged.cards.items()):
        written = [c["name"], *(c["names"].get(lang) for lang in NAME_LANGS)]
        for key in dict.fromkeys(normalize(" ".join(_cell(n).split())) for n in written if n):
            if key:
                names.setdefault(key, []).append(pc)
    langs = ", ".join(NAME_LANGS)
    name_head = [f"# deckcheck built-in card pool: every name of every card ({langs}), "
                 f"normalised as deckcheck looks names up, sorted; see {CARDS_FILE}.",
                 "# key\tpasscodes"]
    name_lines = [f"{key}\t{','.join(map(str, pcs))}" for key, pcs in sorted(names.items())]
    return _text(head, cards), _text(id_head, ids), _text(name_head, name_lines)


def _text(head: Iterable[str], lines: Iterable[str]) -> str:
    return "\n".join((*head, *lines)) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deckcheck.cards.build_builtin",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA,
                        help="the folder of card data (default: ../shared/data/cards)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent,
                        help="where to write the files (default: the package)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when the files differ from the data")
    args = parser.parse_args(argv)
    sources = read_all(args.data)
    if not sources:
        print(f"no card data under {args.data}", file=sys.stderr)
        return 2
    texts = dict(zip((CARDS_FILE, IDS_FILE, NAMES_FILE), render(sources), strict=True))
    texts[FACTS_FILE] = facts_text(texts[CARDS_FILE])
    stale = [name for name, text in texts.items()
             if not (args.out / name).is_file()
             or (args.out / name).read_text(encoding="utf-8") != text]
    if args.check:
        if not stale and not _index_fits(args.out):
            stale.append(INDEX_FILE)
        for name in stale:
            print(f"{args.out / name} differs from the data; regenerate it", file=sys.stderr)
        return 1 if stale else 0
    for name, text in texts.items():
        (args.out / name).write_text(text, encoding="utf-8")
    (args.out / INDEX_FILE).write_bytes(_index_of(args.out))
    print(f"wrote {', '.join([*texts, INDEX_FILE])} to {args.out} ({len(sources)} sources)")
    return 0


def _index_of(folder: Path) -> bytes:
    """The index of `folder`'s cards and facts files as written (line ends included)."""
    return index_bytes((folder / CARDS_FILE).read_bytes(), (folder / FACTS_FILE).read_bytes())


def _index_fits(folder: Path) -> bool:
    """Whether `folder`'s index file is the index of its cards and facts files."""
    index = folder / INDEX_FILE
    return index.is_file() and index.read_bytes() == _index_of(folder)


if __name__ == "__main__":
    sys.exit(main())
