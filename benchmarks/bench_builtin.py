"""Cold start with every card built in, against the small hand-written set it replaced
(issue 19).

`deckcheck check DECK` in a fresh process with no card database (the built-in pool), run by
this tree and by a copy of an older tree that still had the ~150 hand-written cards (`git
archive` of `--old`, default 6891dbb, unpacked into a temporary folder and put first on
PYTHONPATH), the commands taking turns, after one untimed warm-up each; medians of wall time
and of the process's CPU time (user + system, steadier on a loaded machine). Byte code is
cached, as for an installed package. Yardstick in the same run: `python -c pass`.

Goal: `deckcheck check examples/tcg-legal.ydk` cold <= 1.2x the old tree on the same deck.
Also shown: `examples/tcg-illegal.ydk` (it looks a name up, which parses every built-in card
once) and the dated tournament list the README checks.

    python benchmarks/bench_builtin.py [--repeat 11] [--old REV]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import command_medians, installed_env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GOAL = 1.2
DECKS = ("examples/tcg-legal.ydk", "examples/tcg-illegal.ydk")


def _old_tree(rev: str, into: Path) -> Path:
    """`rev`'s deckcheck package and shipped lists, unpacked into `into`."""
    archive = subprocess.run(["git", "archive", rev, "deckcheck", "banlists"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--old", default="6891dbb",
                    help="a revision with the hand-written built-in set (default 6891dbb)")
    args = ap.parse_args()
    decks = list(DECKS)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    main_cmd = readme.split("<!-- main-command -->", 1)[1].split("```")[1]
    dated = main_cmd.split("deckcheck check ", 1)[1].split()
    if dated and dated[0] not in decks:
        decks.append(" ".join(dated))
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as tmp:
        old = Path(tmp) / "old"
        old.mkdir()
        _old_tree(args.old, old)
        home = Path(tmp) / "home"
        home.mkdir()
        base = installed_env(drop=("DECKCHECK_DB", "PYTHONPATH"),
                             PYTHONPYCACHEPREFIX=str(Path(tmp) / "pyc"), NO_COLOR="1",
                             HOME=str(home), XDG_DATA_HOME=str(home / "data"))
        new_env = dict(base, PYTHONPATH=str(ROOT))
        old_env = dict(base, PYTHONPATH=str(old))
        exe = [sys.executable, "-m", "deckcheck", "check"]
        # run from an empty folder: `python -m` puts the working folder first on sys.path,
        # which would shadow PYTHONPATH with this tree's package
        cwd = home
        cmds: dict[str, tuple[list[str], dict[str, str]]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], base)}
        for deck in decks:
            path, *rest = deck.split()
            argv = [*exe, str(ROOT / path), *rest]
            for label, env in (("old", old_env), ("new", new_env)):
                code = subprocess.run(argv, env=env, cwd=cwd, capture_output=True,
                                      check=False).returncode
                cmds[f"{label}: check {deck} (exit {code})"] = (argv, env)
        wall, cpu = command_medians(cmds, args.repeat, cwd, exit_codes={0, 1})
    print(f"cold `deckcheck check`, no card database: this tree (every card built in) and "
          f"{args.old} (the hand-written set), medians of {args.repeat} runs taking turns; "
          f"goal: {DECKS[0]} <= {GOAL}x the old tree.")
    for what, med in (("wall", wall), ("CPU", cpu)):
        print(f"  {what} time (python -c pass {med['python -c pass'] * 1000:.0f} ms):")
        for deck in decks:
            new = next(v for k, v in med.items() if k.startswith(f"new: check {deck} "))
            old_t = next(v for k, v in med.items() if k.startswith(f"old: check {deck} "))
            keys = [k for k in med if k.endswith(")") and f"check {deck} " in k]
            exits = ", ".join(k.split("(")[-1].rstrip(")") + f" {k[:3]}" for k in keys)
            verdict = ""
            if deck == DECKS[0]:
                verdict = f"  goal <= {GOAL}x: {'met' if new / old_t <= GOAL else 'NOT met'}"
            print(f"    {deck:<58} old {old_t * 1000:5.0f} ms  new {new * 1000:5.0f} ms  "
                  f"ratio {new / old_t:4.2f}x  ({exits}){verdict}")


if __name__ == "__main__":
    main()
