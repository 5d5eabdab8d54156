"""Hostile deck files, generated (never copied): the shapes of the attacks in issue 12, built
from scratch by the tests, the fuzz tests and benchmarks/bench_hostile.py.

Every builder returns bytes. The xlsx builders write a minimal but valid workbook (content
types, relationships, one or more sheets) around the part that carries the attack, and keep
each part's compression ratio under the zip-bomb bound where the attack is about counts, so
that it is the count that must be refused.
"""

from __future__ import annotations

import io
import zipfile

from deckcheck.decks.cells import column_letter

_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def _cell(r: int, c: int, value: object) -> str:
    ref = f"{column_letter(c)}{r}"
    if isinstance(value, int):
        return f'<c r="{ref}"><v>{value}</v></c>'
    text = str(value).replace("&", "&amp;").replace("<", "&lt;")
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def sheet_xml(rows: list[list[object]]) -> str:
    """A worksheet part holding `rows` (inline strings and integers)."""
    body = "".join(
        f'<row r="{r}">' + "".join(_cell(r, c, v) for c, v in enumerate(row) if v is not None)
        + "</row>" for r, row in enumerate(rows, 1))
    return f'{_HEAD}<worksheet xmlns="{_NS}"><sheetData>{body}</sheetData></worksheet>'


def workbook(sheets: dict[str, str | bytes], extra: dict[str, str | bytes] | None = None, *,
             compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """An xlsx archive: `sheets` maps sheet names to worksheet XML; `extra` adds parts
    (`xl/sharedStrings.xml`, `xl/styles.xml` are wired into the workbook)."""
    extra = dict(extra or {})
    overrides = [f'<Override PartName="/xl/workbook.xml" ContentType="{_CT}.sheet.main+xml"/>']
    rels = []
    entries = []
    for i, name in enumerate(sheets, 1):
        overrides.append(f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
                         f'ContentType="{_CT}.worksheet+xml"/>')
        rels.append(f'<Relationship Id="rId{i}" Type="{_REL}/worksheet" '
                    f'Target="worksheets/sheet{i}.xml"/>')
        entries.append(f'<sheet name="{name}" sheetId="{i}" r:id="rId{i}"/>')
    n = len(sheets)
    for part, kind, ctype in (("xl/sharedStrings.xml", "sharedStrings", "sharedStrings"),
                              ("xl/styles.xml", "styles", "styles")):
        if part in extra:
            n += 1
            overrides.append(f'<Override PartName="/{part}" ContentType="{_CT}.{ctype}+xml"/>')
            rels.append(f'<Relationship Id="rId{n}" Type="{_REL}/{kind}" '
                        f'Target="{part[3:]}"/>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as z:
        z.writestr("[Content_Types].xml", (
            f'{_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            + "".join(overrides) + "</Types>"))
        z.writestr("_rels/.rels", (
            f'{_HEAD}<Relationships xmlns="{_PKG}"><Relationship Id="rId1" '
            f'Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>'))
        z.writestr("xl/workbook.xml", (
            f'{_HEAD}<workbook xmlns="{_NS}" xmlns:r="{_REL}"><sheets>' + "".join(entries)
            + "</sheets></workbook>"))
        z.writestr("xl/_rels/workbook.xml.rels",
                   f'{_HEAD}<Relationships xmlns="{_PKG}">' + "".join(rels) + "</Relationships>")
        for i, xml in enumerate(sheets.values(), 1):
            z.writestr(f"xl/worksheets/sheet{i}.xml", xml)
        for part, data in extra.items():
            z.writestr(part, data)
    return out.getvalue()


DECK_ROWS: list[list[object]] = [["Qty", "Card Name"], [3, "Ash Blossom & Joyous Spring"],
                                 [2, "Pot of Desires"]]


def normal_deck_xlsx() -> bytes:
    """A 40-card one-sheet decklist (the yardstick)."""
    rows: list[list[object]] = [["Qty", "Card Name", "Passcode"]]
    rows += [[3, f"Card {i}", 10_000_000 + i] for i in range(13)] + [[1, "Card 13", 10_000_013]]
    return workbook({"Deck": sheet_xml(rows)})


def many_rows(n: int = 1_048_576) -> bytes:
    """One sheet of `n` rows (Excel's maximum by default), one small number each."""
    body = "".join(f'<row r="{r}"><c r="A{r}"><v>{r % 7 + 1}</v></c></row>'
                   for r in range(1, n + 1))
    return workbook({"Deck": f'{_HEAD}<worksheet xmlns="{_NS}"><sheetData>{body}</sheetData>'
                              "</worksheet>"})


def many_shared_strings(n: int = 4_200_000) -> bytes:
    """A shared-strings table of `n` distinct short strings (compresses about 10 to 1, far
    under the zip-bomb ratio), used by a three-cell sheet."""
    sst = (f'{_HEAD}<sst xmlns="{_NS}" count="{n}" uniqueCount="{n}">'
           + "".join(f"<si><t>{i:x}</t></si>" for i in range(n)) + "</sst>")
    sheet = (f'{_HEAD}<worksheet xmlns="{_NS}"><sheetData><row r="1">'
             '<c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row></sheetData>'
             "</worksheet>")
    return workbook({"Deck": sheet}, {"xl/sharedStrings.xml": sst})


def many_styles(n: int = 1_000_000) -> bytes:
    """A stylesheet of `n` distinct cell formats."""
    xfs = "".join(f'<xf numFmtId="{i % 50}" fontId="0" fillId="0" borderId="0" xfId="{i}"/>'
                  for i in range(n))
    styles = (f'{_HEAD}<styleSheet xmlns="{_NS}"><fonts count="1"><font/></fonts>'
              '<fills count="1"><fill/></fills><borders count="1"><border/></borders>'
              f'<cellXfs count="{n}">{xfs}</cellXfs></styleSheet>')
    return workbook({"Deck": sheet_xml(DECK_ROWS)}, {"xl/styles.xml": styles})


def dense_cells(rows: int = 10_000, cols: int = 60) -> bytes:
    """A sheet with every cell of `rows` x `cols` filled with a distinct number."""
    return workbook({"Deck": sheet_xml([[r * cols + c for c in range(cols)]
                                        for r in range(rows)])})


def zip_bomb(megabytes: int = 90) -> bytes:
    """A workbook whose sheet inflates to `megabytes` MB of zeros (ratio ~1000 to 1)."""
    filler = "<!--" + "0" * (megabytes * 2**20) + "-->"
    return workbook({"Deck": sheet_xml(DECK_ROWS).replace("<sheetData>", filler + "<sheetData>")})


def entity_expansion(levels: int = 9) -> bytes:
    """A worksheet declaring nested entities ("billion laughs")."""
    ents = ['<!ENTITY e0 "lol">'] + [
        f'<!ENTITY e{i} "{("&e" + str(i - 1) + ";") * 10}">' for i in range(1, levels + 1)]
    xml = sheet_xml(DECK_ROWS).replace(
        _HEAD, _HEAD + "<!DOCTYPE worksheet [" + "".join(ents) + "]>").replace(
        "Pot of Desires", f"&e{levels};")
    return workbook({"Deck": xml})


def bzip2_members() -> bytes:
    """A workbook whose parts are bzip2-compressed (no spreadsheet writes that)."""
    return workbook({"Deck": sheet_xml(DECK_ROWS)}, compression=zipfile.ZIP_BZIP2)


def utf16_part() -> bytes:
    """A workbook whose worksheet is UTF-16 XML (where byte patterns would count nothing)."""
    xml = sheet_xml(DECK_ROWS).replace('encoding="UTF-8"', 'encoding="UTF-16"')
    return workbook({"Deck": xml.encode("utf-16")})


def many_ydk_passcodes(n: int = 99_990) -> bytes:
    """A .ydk listing `n` distinct passcodes."""
    return ("#main\n" + "\n".join(str(10_000_000 + i) for i in range(n)) + "\n").encode()
