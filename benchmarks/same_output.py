"""Is `deckcheck check`'s output byte-identical before and after a change? (Issue 23.)

Runs `deckcheck check` in this process (click's runner) over every real `.ydk` in
`../shared/data/decks`, on each card pool a user can have (the built-in pool, a store of every
card source, a store of the YGOPRODeck dump alone), for several formats and dates and each
output (text, json, parsable), `deckcheck event check` over the same folder (its JSON and CSV
reports), and seeded `deckcheck odds` runs of the example decks; writes one line per run: what
ran, the exit code, and the SHA-256 of stdout, stderr and each report. Run it on the code
before and after, then compare the two files (`diff`, or `--compare OLD`).

    python benchmarks/same_output.py --out before.txt
    python benchmarks/same_output.py --out after.txt --compare before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import DECKS, full_store_path, need_data, store_path, ydk_files  # noqa: E402

FORMATS = ("tcg", "ocg", "genesys", "goat", "master-duel")
DATES = ("2026-06-01", "2024-01-01")
OUTPUTS = ("text", "json", "parsable")
#: `check`'s option that picks the output kind.
OUTPUT_OPTION = "--output-format"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Seeded `odds` runs: (deck, extra options).
ODDS = (
    ("tcg-legal.ydk", ("--seed", "1")),
    ("tcg-legal.ydk", ("--json", "--seed", "2")),
    ("tcg-legal.ydk", ("--hands", "20000", "--seed", "7", "--turns", "3")),
    ("tcg-legal.ydk", ("--hands", "20000", "--seed", "11", "--json", "--each-row-alone")),
    ("tcg-legal.ydk", ("--copies", "Ash Blossom & Joyous Spring", "--seed", "3")),
    ("tcg-legal.ydk", ("--second", "--turns", "2", "--hands", "5000", "--seed", "9")),
)


def runs(pool: str, files: list[str]) -> list[str]:
    from click.testing import CliRunner

    from deckcheck.cli.main import cli

    runner = CliRunner()
    lines = []
    for fmt in FORMATS:
        for date in DATES:
            for output in OUTPUTS:
                result = runner.invoke(cli, ["check", "-f", fmt, "--date", date,
                                             OUTPUT_OPTION, output, *files])
                out = hashlib.sha256(result.stdout_bytes).hexdigest()[:16]
                err = hashlib.sha256(result.stderr_bytes or b"").hexdigest()[:16]
                lines.append(f"{pool} {fmt} {date} {output} exit={result.exit_code} "
                             f"stdout={out} ({len(result.stdout_bytes)} bytes) stderr={err}")
                print(lines[-1], flush=True)
    return lines


def event_runs(pool: str, folder: str) -> list[str]:
    from click.testing import CliRunner

    from deckcheck.cli.main import cli

    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in (".json", ".csv"):
            report = Path(tmp) / f"report{suffix}"
            result = CliRunner().invoke(cli, ["event", "check", folder, "-f", "tcg", "--date",
                                              DATES[0], "--jobs", "1", "-o", str(report)])
            written = sorted(Path(tmp).glob("report*"))
            digests = " ".join(f"{p.name}={hashlib.sha256(p.read_bytes()).hexdigest()[:16]}"
                               for p in written)
            out = hashlib.sha256(result.stdout_bytes.replace(tmp.encode(), b"TMP"))
            lines.append(f"{pool} event tcg {DATES[0]} {suffix} exit={result.exit_code} "
                         f"stdout={out.hexdigest()[:16]} {digests}")
            print(lines[-1], flush=True)
            for p in written:
                p.unlink()
    return lines


def odds_runs() -> list[str]:
    from click.testing import CliRunner

    from deckcheck.cli.main import cli

    lines = []
    for deck, extra in ODDS:
        result = CliRunner().invoke(cli, ["odds", str(EXAMPLES / deck), *extra])
        out = hashlib.sha256(result.stdout_bytes).hexdigest()[:16]
        lines.append(f"odds {deck} {' '.join(extra).replace(str(EXAMPLES), 'EX')} "
                     f"exit={result.exit_code} stdout={out} ({len(result.stdout_bytes)} bytes)")
        print(lines[-1], flush=True)
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--compare", type=Path)
    args = ap.parse_args()
    need_data()
    files = [str(p) for p in ydk_files()]
    print(f"{len(files)} .ydk files; {len(FORMATS)} formats x {len(DATES)} dates x "
          f"{len(OUTPUTS)} outputs", flush=True)
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        pools = {"builtin": Path(tmp) / "no-store.sqlite", "every-source": full_store_path(),
                 "ygoprodeck": store_path()}
        for pool, db in pools.items():
            os.environ["DECKCHECK_DB"] = str(db)
            lines += runs(pool, files) + event_runs(pool, str(DECKS))
        os.environ["DECKCHECK_DB"] = str(pools["builtin"])
        lines += odds_runs()
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.compare:
        old = args.compare.read_text(encoding="utf-8").splitlines()
        differ = [f"- {a}\n+ {b}" for a, b in zip(old, lines, strict=True) if a != b]
        print("\n".join(differ) if differ else f"identical: all {len(lines)} runs")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
