"""Faults and hostile inputs, round two (issue 21): for each family of the issue, how many
cases ran and how many gave a traceback, ran longer than 10 s, peaked over 256 MB, or lost
data. Goal: all zero except the cases.

Each case runs in a fresh Python process (the CLI through `deckcheck.cli.main.main`, or a
few library lines), killed after 10 s (a "hang"); its peak is the child's own VmHWM (the
whole process: interpreter and imports included). A "traceback" is a Python traceback on
stderr or an exit code the command may not give (an error a user can cause must be one
sentence, exit 2). "Data lost" is checked per family: a store with fewer cards after a
refused or shrinking import, a pipe or a link replaced by a regular file, a table row
neither read nor reported, a store changed by a failed download.

Families: 1 store shrinks (the dataloss answers, by import, update --from and update
--force from a local server); 2 importers (the 17 hostile import files, and seeded
type-confusion mutations of each JSON source's fixture; a mutation that makes a record
unreadable takes that card out of the source, so the store may lose as many cards as the
input lost records, and no more); 3 readers (malformed CSV rows, the
slow text file); 4 outputs (convert onto a FIFO, a device, a symlink; --db and DECKCHECK_DB
naming a FIFO); 5 encodings (commands that print names, under cp1252 and latin-1); 6 network
(`cards update --force` as a user runs it, with the client's default bounds, against a
server on 127.0.0.1 answering a 1 GB gzip bomb on the version check or on the download, a
stall, a trickle or a truncated body: each must end within the 10 s of a hang, exit 2 with
one sentence, the store unchanged); 7 messages and bounds (a
50,001-character name, deep JSON, update --from a cdb, a 5,000-character option value).

Run: `python benchmarks/bench_faults.py [--mutations N]` (default 40 per JSON source; a few
minutes on a shared 2-core machine). Needs ../shared/hostile for the hostile files (the
families run without them, with fewer cases).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _local import PEAK_MB_SOURCE, Server

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT.parent / "shared" / "hostile"
KEPT = ROOT / "tests" / "fixtures" / "hostile"
FIX = ROOT / "tests" / "sources" / "fixtures"
HANG_S = 10.0
PEAK_MB = 256

CHILD = r"""
import json, os, sys
spec = json.loads(sys.argv[1])
""" + PEAK_MB_SOURCE + r"""
out = {"exit": 0, "result": None}
try:
    if "argv" in spec:
        sys.argv = ["deckcheck", *spec["argv"]]
        from deckcheck.cli.main import main
        try:
            main()
        except SystemExit as exc:
            out["exit"] = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    else:
        from deckcheck.errors import DeckcheckError
        scope = {}
        try:
            exec(spec["code"], scope)
            out["result"] = scope.get("result")
        except DeckcheckError as exc:
            print("deckcheck:", exc, file=sys.stderr)
            out["exit"] = 2
finally:
    out["peak_mb"] = peak_mb()
    with open(spec["out"], "w") as f:
        json.dump(out, f)
"""


@dataclass
class Row:
    cases: int = 0
    tracebacks: int = 0
    hangs: int = 0
    peaks: int = 0
    lost: int = 0
    worst_s: float = 0.0
    worst_mb: float = 0.0
    notes: list[str] = field(default_factory=list)


@dataclass
class Ran:
    exit: int | None
    stderr: str
    peak_mb: float
    seconds: float
    result: Any
    hung: bool


def run(spec: dict[str, Any], *, env: dict[str, str] | None = None,
        cwd: Path | None = None) -> Ran:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        spec = {**spec, "out": str(out)}
        full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
        t = time.monotonic()
        try:
            proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)],
                                  capture_output=True, env=full_env, cwd=cwd,
                                  timeout=HANG_S)
        except subprocess.TimeoutExpired:
            return Ran(None, "", 0.0, time.monotonic() - t, None, True)
        seconds = time.monotonic() - t
        stderr = proc.stderr.decode("utf-8", "replace")
        if not out.exists():
            return Ran(proc.returncode, stderr, 0.0, seconds, None, False)
        data = json.loads(out.read_text())
        return Ran(data["exit"], stderr, data["peak_mb"], seconds, data["result"], False)


def tally(row: Row, ran: Ran, *, allowed: tuple[int, ...] = (0, 1, 2),
          lost: bool = False, label: str = "") -> None:
    row.cases += 1
    row.worst_s = max(row.worst_s, ran.seconds)
    row.worst_mb = max(row.worst_mb, ran.peak_mb)
    if ran.hung:
        row.hangs += 1
        row.notes.append(f"hang: {label}")
        return
    if "Traceback" in ran.stderr or ran.exit not in allowed:
        row.tracebacks += 1
        row.notes.append(f"traceback/exit {ran.exit}: {label}: {ran.stderr.strip()[-200:]}")
    if ran.peak_mb > PEAK_MB:
        row.peaks += 1
        row.notes.append(f"peak {ran.peak_mb:.0f} MB: {label}")
    if lost:
        row.lost += 1
        row.notes.append(f"data lost: {label}")


def cards_in(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM cards").fetchone()[0])
    finally:
        con.close()


def base_store(folder: Path) -> Path:
    db = folder / "base.sqlite"
    from deckcheck.imports.run import import_sources
    from deckcheck.sources import read_source

    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    return db


def hostile(name: str) -> Path | None:
    for folder in (KEPT, HOSTILE):
        if (folder / name).exists():
            return folder / name
    return None


def gzip_bomb(inflated: int) -> bytes:
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    piece = b"\0" * 2**20
    return b"".join([*(z.compress(piece) for _ in range(inflated // 2**20)), z.flush()])


# -- the families ------------------------------------------------------------------------

def family_shrink(tmp: Path, base: Path, server: Server) -> Row:
    row = Row()
    answers = [p for p in (hostile("dataloss-cardinfo-one-card.json"),
                           hostile("dataloss-cards-update-3-card-answer.json")) if p]
    cut = tmp / "cut.json"
    doc = json.loads((FIX / "ygoprodeck_small.json").read_text())
    cut.write_text(json.dumps({"data": doc["data"][:2]}))
    answers.append(cut)
    cases: list[tuple[list[str], dict[str, str]]] = []
    for a in answers:
        cases.append((["cards", "import", str(a)], {}))
        cases.append((["cards", "update", "--from", str(a)], {}))
    three = hostile("dataloss-cards-update-3-card-answer.json")
    if three:
        cases.append((["cards", "update", "--force"], {"DECKCHECK_YGOPRODECK_URL": server.url,
                                                       "SERVE": str(three)}))
    for argv, env in cases:
        db = tmp / "shrink.sqlite"
        shutil.copy(base, db)
        before = cards_in(db)
        if "SERVE" in env:
            server.mode, server.body = "ok", Path(env.pop("SERVE")).read_bytes()
        ran = run({"argv": ["--db", str(db), *argv]}, env=env)
        tally(row, ran, allowed=(2,), lost=cards_in(db) < before, label=" ".join(argv[:3]))
    server.body = (FIX / "ygoprodeck_small.json").read_bytes()
    return row


def _mutations(doc: Any, n: int, rng: random.Random) -> list[Any]:
    odd = [None, True, 0, -1, 2**70, 10**30, 1.5, float("inf"), float("nan"), "", "abc",
           "9" * 30, [], [1, "x"], {}, {"a": 1}, [[[[[]]]]]]
    paths: list[tuple[Any, ...]] = []

    def walk(node: Any, at: tuple[Any, ...]) -> None:
        paths.append(at)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, (*at, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, (*at, i))

    walk(doc, ())
    out = []
    for _ in range(n):
        new = json.loads(json.dumps(doc))
        for path in rng.sample(paths[1:], k=min(3, len(paths) - 1)):
            node = new
            try:
                for k in path[:-1]:
                    node = node[k]
                node[path[-1]] = rng.choice(odd)
            except (KeyError, IndexError, TypeError):
                pass
        out.append(new)
    return out


def family_importers(tmp: Path, base: Path, mutations: int) -> Row:
    row = Row()
    files = sorted(HOSTILE.glob("import-*")) if HOSTILE.is_dir() else []
    if not files and (KEPT / "import-cdb-text-in-int-column.cdb").exists():
        files = [KEPT / "import-cdb-text-in-int-column.cdb"]
    rng = random.Random(21)
    for name in ("ygoprodeck_small.json", "yamlyugi_small.json", "ygocdb_small.json"):
        doc = json.loads((FIX / name).read_text())
        for i, m in enumerate(_mutations(doc, mutations, rng)):
            path = tmp / f"mut-{name[:-5]}-{i}.json"
            path.write_text(json.dumps(m))
            files.append(path)
    for f in files:
        db = tmp / "imp.sqlite"
        shutil.copy(base, db)
        before, raw = cards_in(db), db.read_bytes()
        ran = run({"argv": ["--db", str(db), "cards", "import", str(f)]})
        # lost: a refused import changed the store, or the store lost more cards than the
        # records the input no longer holds (a mutation that makes a record unreadable takes
        # that card out of the source: within the shrink rule, and not a loss by surprise)
        gone = before - cards_in(db)
        lost = (ran.exit == 2 and db.read_bytes() != raw) or gone > _dropped(f)
        tally(row, ran, allowed=(0, 2), lost=lost, label=f.name)
    return row


def _dropped(path: Path) -> int:
    """How many records of its source's fixture a mutated file no longer holds (0 for a
    file that is no mutation)."""
    from deckcheck.errors import DeckcheckError
    from deckcheck.sources import read_source

    if not path.name.startswith("mut-"):
        return 0
    original = FIX / (path.name.split("-")[1] + ".json")
    try:
        now = len(read_source(path).records)
    except DeckcheckError:
        now = 0
    return max(0, len(read_source(original).records) - now)


CSV_ROWS = ["1,4294967296", "1,abc", "1,-1", "1,1e9", "1,55144522.5", "2,", "1,14558127x"]


def family_readers(tmp: Path) -> Row:
    row = Row()
    code = ("from deckcheck.decks.csvfile import read_csv\n"
            "from deckcheck.cards.builtin import builtin_pool\n"
            "d = read_csv(open({path!r}, 'rb').read(), builtin_pool(), 'x.csv')\n"
            "result = [sum(e.count for _, e in d.entries()), len(d.problems)]\n")
    inputs = []
    for i, extra in enumerate(CSV_ROWS):
        p = tmp / f"row{i}.csv"
        p.write_text(f"Qty,Passcode\n3,14558127\n{extra}\n")
        inputs.append(p)
    if (h := hostile("silent-drop-csv-passcode.csv")):
        inputs.append(h)
    for p in inputs:
        ran = run({"code": code.format(path=str(p))})
        lost = not ran.result or ran.result[1] == 0  # the bad row neither read nor reported
        tally(row, ran, allowed=(0,), lost=lost, label=p.name)
    page = tmp / "slow.txt"  # the quadratic-regex shape, made here too
    page.write_text(("a (" + " " * 190 + "x 3\n") * 1000)
    for p in filter(None, (hostile("slow-text-1000-lines-paren-spaces.txt"), page)):
        ran = run({"argv": ["check", str(p)]})
        tally(row, ran, label=p.name)
    return row


def family_outputs(tmp: Path) -> Row:
    row = Row()
    deck = tmp / "d.ydk"
    deck.write_text("#main\n14558127\n")
    if hasattr(os, "mkfifo"):
        fifo = tmp / "f.ydk"
        os.mkfifo(fifo)
        ran = run({"argv": ["convert", str(deck), str(fifo)]})
        tally(row, ran, allowed=(2,), lost=not fifo.is_fifo(), label="convert onto a FIFO")
        db_fifo = tmp / "cards.sqlite"
        os.mkfifo(db_fifo)
        ran = run({"argv": ["--db", str(db_fifo), "check", str(deck)]})
        tally(row, ran, allowed=(2,), lost=not db_fifo.is_fifo(), label="--db FIFO")
        ran = run({"argv": ["check", str(deck)]}, env={"DECKCHECK_DB": str(db_fifo)})
        tally(row, ran, allowed=(2,), lost=not db_fifo.is_fifo(), label="DECKCHECK_DB FIFO")
        ran = run({"argv": ["event", "check", str(tmp / "ev"), "-o", str(tmp / "r.csv")]})
        # (an event folder that does not exist: one sentence)
        tally(row, ran, allowed=(2,), label="event check, no folder")
    if Path("/dev/null").exists():
        dev = tmp / "dev.ydk"
        dev.symlink_to("/dev/null")
        ran = run({"argv": ["convert", str(deck), str(dev)]})
        tally(row, ran, allowed=(2,), lost=not dev.is_symlink(), label="convert onto /dev/null")
    real = tmp / "real.ydk"
    real.write_text("old")
    link = tmp / "link.ydk"
    link.symlink_to(real)
    ran = run({"argv": ["convert", str(deck), str(link)]})
    tally(row, ran, allowed=(0,), lost=not link.is_symlink() or real.read_text() == "old",
          label="convert through a symlink")
    return row


def family_encodings(tmp: Path) -> Row:
    row = Row()
    jp = hostile("encoding-cp1252-unknown-japanese-name.txt")
    if jp is None:
        return row
    event = tmp / "event"
    event.mkdir()
    (event / "山田太郎.txt").write_text(jp.read_text(encoding="utf-8"), encoding="utf-8")
    (event / "Zoë.ydk").write_text("#main\n14558127\n")
    commands = [["check", str(jp)], ["check", "--output-format", "parsable", str(jp)],
                ["check", "--output-format", "json", str(jp)], ["cards", "show", "灰流うらら"],
                ["cards", "show", "存在しないカード"], ["cards", "search", "Blossom"],
                ["convert", str(jp), "-", "--to", "text"], ["event", "check", str(event)],
                ["diff", str(jp), str(jp)]]
    for enc in ("cp1252", "latin-1"):
        for argv in commands:
            ran = run({"argv": argv}, env={"PYTHONIOENCODING": enc}, cwd=tmp)
            tally(row, ran, label=f"{enc}: {' '.join(argv[:2])}")
    return row


def family_network(tmp: Path, base: Path, server: Server) -> Row:
    """`cards update --force` against each hostile answer, with the client's default bounds:
    what a user runs (the version check, then the download)."""
    row = Row()
    server.bomb = gzip_bomb(2**30)  # 1 GB once inflated
    for mode in ("bomb-version", "bomb", "stall", "trickle", "truncated"):
        db = tmp / "net.sqlite"
        shutil.copy(base, db)
        raw = db.read_bytes()
        server.mode = mode
        ran = run({"argv": ["--db", str(db), "cards", "update", "--force"]},
                  env={"DECKCHECK_YGOPRODECK_URL": server.url})
        tally(row, ran, allowed=(2,), lost=db.read_bytes() != raw, label=mode)
        said = [line for line in ran.stderr.splitlines() if line.startswith("deckcheck:")]
        if not ran.hung and len(said) != 1:  # (the other lines are the progress line)
            row.notes.append(f"not one sentence: {mode}: {ran.stderr.strip()[:200]}")
        row.notes.append(f"{mode}: {ran.seconds:.1f} s, {ran.peak_mb:.0f} MB: "
                         f"{(said or ['-'])[-1][:150]}")
    server.mode = "ok"
    return row


def family_messages(tmp: Path, base: Path) -> Row:
    row = Row()
    db = tmp / "msg.sqlite"
    shutil.copy(base, db)
    cases: list[tuple[list[str], tuple[int, ...], Callable[[str], bool]]] = [
        (["--db", str(db), "cards", "show", "a" * 50_001], (2,),
         lambda e: "damaged" in e),
        (["--db", str(db), "cards", "search", "a" * 50_001], (0,), lambda e: "damaged" in e),
        (["check", "--date", "x" * 5000, str(FIX / "ygoprodeck_small.json")], (2,),
         lambda e: "x" * 201 in e),
    ]
    if (deep := hostile("msg-deep-nesting-called-zip.json")):
        cases.append((["--db", str(db), "cards", "import", str(deep)], (2,),
                      lambda e: "zip archive" in e))
    if (cdb := hostile("import-cdb-text-in-int-column.cdb")):
        cases.append((["--db", str(db), "cards", "update", "--from", str(cdb)], (2,),
                      lambda e: "not card data" in e))
    for argv, allowed, wrong in cases:
        ran = run({"argv": argv})
        tally(row, ran, allowed=allowed, label=" ".join(a[:30] for a in argv[2:5]))
        if wrong(ran.stderr):
            row.notes.append(f"misleading message: {ran.stderr.strip()[:150]}")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutations", type=int, default=40,
                        help="type-confusion mutations per JSON source (default 40)")
    args = parser.parse_args()
    started = time.monotonic()
    server = Server((FIX / "ygoprodeck_small.json").read_bytes())
    with tempfile.TemporaryDirectory(prefix="deckcheck-faults-") as t:
        tmp = Path(t)
        base = base_store(tmp)
        rows = {
            "1 store never shrinks": family_shrink(tmp, base, server),
            "2 importers": family_importers(tmp, base, args.mutations),
            "3 readers account for rows": family_readers(tmp),
            "4 writes only where they should": family_outputs(tmp),
            "5 output in any encoding": family_encodings(tmp),
            "6 bounded network": family_network(tmp, base, server),
            "7 messages and bounds": family_messages(tmp, base),
        }
    server.close()
    print(f"{'family':34} {'cases':>5} {'tracebacks':>10} {'hangs>10s':>9} "
          f"{'peak>256MB':>10} {'data lost':>9}   worst s / MB")
    for name, r in rows.items():
        print(f"{name:34} {r.cases:5} {r.tracebacks:10} {r.hangs:9} {r.peaks:10} {r.lost:9}"
              f"   {r.worst_s:5.1f} / {r.worst_mb:4.0f}")
    total = Row()
    for r in rows.values():
        total.cases += r.cases
        total.tracebacks += r.tracebacks
        total.hangs += r.hangs
        total.peaks += r.peaks
        total.lost += r.lost
    print(f"{'all':34} {total.cases:5} {total.tracebacks:10} {total.hangs:9} {total.peaks:10} "
          f"{total.lost:9}")
    notes = [n for r in rows.values() for n in r.notes]
    for n in notes:
        print("  -", n)
    print(f"({time.monotonic() - started:.0f} s; hostile files from "
          f"{HOSTILE if HOSTILE.is_dir() else 'tests/fixtures/hostile only'})")


if __name__ == "__main__":
    main()
