"""A realistic event, built by hand in a tmp dir, shared by the event and CLI tests.

Not a test module: tests load it by path (test folders are not packages).
The cards are passcodes of deckcheck's built-in set; the decks are written here, by hand.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import openpyxl

from deckcheck.decks.ydke import to_ydke

ASH, ASH_ALT, POT = 14558127, 14558128, 55144522

#: 40 Main + 3 Extra + 2 Side, cards of the built-in set (legal under the 2026.05 TCG list).
MAIN = [(14558127, 3), (97268402, 3), (10045474, 3), (24224830, 1), (27204311, 3),
        (12580477, 1), (53129443, 1), (26202165, 1), (40640057, 3), (33508719, 3),
        (54652250, 3), (71625222, 3), (89631139, 3), (46986414, 3), (70781052, 3),
        (43096270, 3)]
EXTRA = [(86066372, 1), (38342335, 1), (44508094, 1)]
SIDE = [(94145021, 2)]


def ydk(main: Any, extra: Any = (), side: Any = (), *, crlf: bool = False,
        bom: bool = False) -> bytes:
    lines = ["#created by a player", "#main"]
    lines += [str(pc) for pc, n in main for _ in range(n)]
    lines += ["#extra"] + [str(pc) for pc, n in extra for _ in range(n)]
    lines += ["!side"] + [str(pc) for pc, n in side for _ in range(n)]
    text = ("\r\n" if crlf else "\n").join(lines) + "\n"
    return ("\ufeff" if bom else "").encode() + text.encode()


def text_list(main: Any, extra: Any = (), pool: Any = None) -> str:
    out = ["Main Deck"] + [f"{n} {pool.get(pc).name}" for pc, n in main]
    out += ["", "Extra Deck"] + [f"{n}x {pool.get(pc).name}" for pc, n in extra]
    return "\n".join(out) + "\n"


def sheet_deck(ws: Any, main: Any, pool: Any) -> None:
    ws.append(["Qty", "Card Name"])
    for pc, n in main:
        ws.append([n, pool.get(pc).name])


def build_event(root: Path, pool: Any) -> list[Path]:
    ev = root / "event"
    (ev / "sub").mkdir(parents=True)
    (ev / "alice.ydk").write_bytes(ydk(MAIN, EXTRA, SIDE, crlf=True, bom=True))
    (ev / "Bob Smith 0300000002.ydk").write_bytes(ydk([*MAIN, (POT, 1)], EXTRA))
    (ev / "notes.md").write_text("not a deck\n")
    (ev / ".hidden.ydk").write_bytes(ydk(MAIN))
    (ev / "sub" / "carol.txt").write_text(text_list(MAIN, EXTRA, pool), encoding="utf-8")
    (ev / "sub" / "broken.txt").write_text("\n\n", encoding="utf-8")
    alt = [(ASH_ALT if pc == ASH else pc, n) for pc, n in MAIN]
    (ev / "sub" / "zed_copy.ydk").write_bytes(ydk(alt, EXTRA, SIDE))

    wb = openpyxl.Workbook()
    erin = wb.active
    erin.title = "Erin"
    sheet_deck(erin, MAIN, pool)
    sheet_deck(wb.create_sheet("Frank"), MAIN[:4], pool)
    wb.save(root / "players.xlsx")

    from deckcheck.decks.model import Deck, Entry

    def deck_of(main: Any) -> Deck:
        return Deck(main=[Entry(passcode=pc, count=n) for pc, n in main],
                    extra=[Entry(passcode=pc, count=n) for pc, n in EXTRA])

    pasted = "\n".join(f"{n} {pool.get(pc).name}" for pc, n in MAIN[:3])
    passcodes = ", ".join(str(pc) for pc, n in [*MAIN, *EXTRA] for _ in range(n))
    with (root / "registrations.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["Timestamp", "Player", "Konami ID", "Deck name", "Decklist"])
        w.writerow(["2026-12-01 10:00", "Gina", "0301111111", "Blue-Eyes", to_ydke(deck_of(MAIN))])
        w.writerow(["2026-12-01 10:05", "Hank", "0302222222", "", pasted])
        w.writerow(["2026-12-01 10:07", "Ivy", "", "", passcodes])
        w.writerow(["2026-12-01 10:09", "bob smith", "300000002", "", "ydke://1xqf!!!"])
        w.writerow(["2026-12-01 10:10", "Jack", "0303333333", "", ""])

    reg = openpyxl.Workbook()
    ws = reg.active
    ws.title = "Registrations"
    ws.append(["Store championship, December"])
    ws.append(["First Name", "Last Name", "CARD GAME ID", "ydke"])
    ws.append(["Kim", "Lee", 304444444, to_ydke(deck_of([*MAIN[:-1], (43096270, 1), (POT, 2)]))])
    reg.save(root / "store.xlsx")
    return [ev, root / "players.xlsx", root / "registrations.csv", root / "store.xlsx"]


#: (player, player id, source, verdict, main, extra, side, problem count, duplicate)
EXPECTED = [
    ("Bob Smith", "0300000002", "event/Bob Smith 0300000002.ydk", "illegal", 41, 3, 0, 1,
     "same player id as #11 bob smith"),
    ("alice", None, "event/alice.ydk", "legal", 40, 3, 2, 0,
     "same deck as #5 zed copy"),
    ("broken", None, "event/sub/broken.txt", "unreadable", None, None, None, 0, None),
    ("carol", None, "event/sub/carol.txt", "legal", 40, 3, 0, 0,
     "same deck as #8 Gina, #10 Ivy"),
    ("zed copy", None, "event/sub/zed_copy.ydk", "legal", 40, 3, 2, 0,
     "same deck as #2 alice"),
    ("Erin", None, "players.xlsx:Erin", "legal", 40, 0, 0, 0, None),
    ("Frank", None, "players.xlsx:Frank", "illegal", 10, 0, 0, 1, None),
    ("Gina", "0301111111", "registrations.csv:2", "legal", 40, 3, 0, 0,
     "same deck as #4 carol, #10 Ivy"),
    ("Hank", "0302222222", "registrations.csv:3", "illegal", 9, 0, 0, 1, None),
    ("Ivy", None, "registrations.csv:4", "legal", 40, 3, 0, 0,
     "same deck as #4 carol, #8 Gina"),
    ("bob smith", "300000002", "registrations.csv:5", "unreadable", None, None, None, 0,
     "same player id as #1 Bob Smith"),
    ("Jack", "0303333333", "registrations.csv:6", "unreadable", None, None, None, 0, None),
    ("Kim Lee", "304444444", "store.xlsx:Registrations!D3", "illegal", 40, 3, 0, 1, None),
]
