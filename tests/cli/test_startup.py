"""Start-up stays cheap: a plain `deckcheck check` imports no pydantic (issue 13), nor
tomllib (shipped format and list files take the fast readers), importlib.resources or
tempfile (platformdirs imports it; deckcheck knows Linux's data folder itself), nor
dataclasses (building a dataclass costs start-up: the check path's values are plain classes),
nor pathlib with its urllib.parse (files are found with `os` on path strings), nor heapq
(suggestions only).

pydantic's import and the building of its model classes cost more than the whole check of a
deck; deckcheck's values are plain classes (`deckcheck.plain`) and pydantic is imported only
where people write the input (user format files, goldfish profiles). These tests run the real
command in a fresh interpreter, so a later import that brings it back fails here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tcg-legal.ydk"


def _imported(args: list[str], tmp_path: Path) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules `python -X importtime -m deckcheck ARGS` imports, and the run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(DECKCHECK_DB=str(tmp_path / "none.sqlite"), NO_COLOR="1",
               DECKCHECK_BANLISTS=str(tmp_path / "no-user-lists"))
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "deckcheck", *args],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    mods = {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}
    return mods, run


@pytest.mark.parametrize("extra", [[], ["--output-format", "json"],
                                   ["--output-format", "parsable"]])
def test_a_check_imports_no_pydantic(tmp_path: Path, extra: list[str]) -> None:
    mods, run = _imported(["check", "--date", "2026-11-22", *extra, str(EXAMPLE)], tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "deckcheck.checker" in mods  # the check did run in this process
    heavy = sorted(m for m in mods if m.split(".")[0] in ("pydantic", "pydantic_core", "tomllib",
                                                          "tempfile", "dataclasses", "pathlib",
                                                          "urllib", "heapq")
                   or m.startswith("importlib.resources"))
    assert not heavy, f"a plain check imported {heavy}"


def test_a_clean_deck_imports_only_the_rules_it_gives_something_to_look_at(
        tmp_path: Path) -> None:
    """A rule whose gate is closed (`rules.registry.GATES`: no unreadable entry, no unknown or
    misplaced card, sizes in bounds, every card out, nothing unusual) is not even imported,
    nor one that cannot apply in the format (`APPLIES`). (Rules are
    imported by `importlib.import_module`, which `-X importtime` does not list: the process
    writes its `sys.modules` instead.)"""
    from deckcheck.rules.registry import APPLIES, GATES, MODULES

    listing = tmp_path / "modules.txt"
    script = ("import sys\nfrom deckcheck.cli.main import main\n"
              f"sys.argv = ['deckcheck', 'check', '--date', '2026-11-22', {str(EXAMPLE)!r}]\n"
              "try:\n    main()\nfinally:\n"
              f"    open({str(listing)!r}, 'w').write('\\n'.join(sys.modules))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(DECKCHECK_DB=str(tmp_path / "none.sqlite"), NO_COLOR="1",
               DECKCHECK_BANLISTS=str(tmp_path / "no-user-lists"))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    rules = {m.rsplit(".", 1)[1] for m in listing.read_text(encoding="utf-8").split()
             if m.startswith("deckcheck.rules.")}
    for code in ("DC101", "DC102", "DC103", "DC110", "DC111", "DC120", "DC401", "DC402",
                 "DC404", "DC405", "DC407"):
        assert code in GATES and MODULES[code] not in rules, code
    for code in APPLIES:  # nor are the rules that cannot apply in TCG (no Skills, no points)
        assert code == "DC403" or MODULES[code] not in rules, code
    assert MODULES["DC201"] in rules  # a listed card opens the copy rules' gate


def test_a_user_format_file_is_validated_by_pydantic(tmp_path: Path) -> None:
    """The boundary keeps its strict schema: a user's own format file goes through pydantic."""
    user = tmp_path / "no-user-lists" / "mine"
    user.mkdir(parents=True)
    (user / "format.toml").write_text('id = "mine"\nname = "Mine"\ncopies = "three"\n',
                                      encoding="utf-8")
    mods, run = _imported(["check", "--format", "mine", str(EXAMPLE)], tmp_path)
    assert run.returncode == 2
    assert "pydantic" in mods
    assert "`copies`: input should be a valid integer" in run.stderr


def test_help_lists_every_command_importing_only_the_command_modules(tmp_path: Path) -> None:
    """`deckcheck --help` lists every command of `COMMANDS` (the lazy group imports each
    command's module for its short help) but none of the library the commands call: a command
    module imports its readers, pools and reports inside the command."""
    from deckcheck.cli.main import COMMANDS

    listing = tmp_path / "modules.txt"
    script = ("import sys\nfrom deckcheck.cli.main import main\n"
              "sys.argv = ['deckcheck', '--help']\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\nfinally:\n"
              f"    open({str(listing)!r}, 'w').write('\\n'.join(sys.modules))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    listed = [line.split()[0] for line in run.stdout.split("Commands:")[1].splitlines()
              if line.startswith("  ")]
    assert listed == sorted(COMMANDS)
    mods = set(listing.read_text(encoding="utf-8").split())
    assert {target.split(":")[0] for target in COMMANDS.values()} <= mods
    heavy = sorted(m for m in mods if m.startswith(("deckcheck.cards", "deckcheck.reports",
                                                     "deckcheck.decks.resolve", "deckcheck.rules",
                                                     "deckcheck.formats", "importlib.util")))
    assert not heavy, f"`deckcheck --help` imported {heavy}"


def test_a_check_on_an_imported_store_imports_no_pathlib(tmp_path: Path) -> None:
    """With a card store (what `cards update` makes), the check finds and opens it by path
    strings too: no pathlib, no urllib.parse."""
    from deckcheck.imports.run import import_sources
    from deckcheck.sources import read_source

    db = tmp_path / "cards.sqlite"
    fixture = ROOT / "tests" / "sources" / "fixtures" / "ygoprodeck_small.json"
    import_sources(db, [read_source(fixture)])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(DECKCHECK_DB=str(db), NO_COLOR="1",
               DECKCHECK_BANLISTS=str(tmp_path / "no-user-lists"))
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "deckcheck", "check",
                          "--date", "2026-11-22", str(EXAMPLE)],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert run.returncode in (0, 1), run.stderr[-2000:]
    mods = {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}
    assert "deckcheck.cards.store" in mods  # the store was read
    assert not {"pathlib", "urllib.parse"} & mods


def test_the_collector_rests_while_the_program_starts_and_a_check_runs(tmp_path: Path) -> None:
    """`main()` pauses the cyclic garbage collector before click is imported; a command's body
    runs with it on again (`handle_errors`), and `check` pauses it for its work (its values
    hold no cycles) to the program's end: a cold check runs no collection at all. Importing
    `deckcheck.cli.main` (as tests and tools do) neither imports click nor touches the
    collector, and outside the program a check's pause ends with the check."""
    script = (
        "import gc, sys\n"
        "import deckcheck.cli.main as m\n"
        "assert 'click' not in sys.modules and gc.isenabled()\n"
        "runs = []\n"
        "gc.callbacks.append(lambda phase, info: runs.append(phase))\n"
        f"sys.argv = ['deckcheck', 'check', '--date', '2026-11-22', {str(EXAMPLE)!r}]\n"
        "try:\n    m.main()\nexcept SystemExit as e:\n    code = e.code\n"
        "sys.stderr.write(f'collections={len(runs) // 2} enabled={gc.isenabled()} '\n"
        "                 f'code={code}\\n')\n")
    assert _last_line_as_program(script, tmp_path) == "collections=0 enabled=False code=0"


def _last_line_as_program(script: str, tmp_path: Path) -> str:
    """The last line `script` writes to stderr, run in a fresh Python with no card store and
    no user lists (the collector tests' end: the report of a `main()` run as the program)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(DECKCHECK_DB=str(tmp_path / "none.sqlite"), NO_COLOR="1",
               DECKCHECK_BANLISTS=str(tmp_path / "no-user-lists"))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=False)
    return run.stderr.splitlines()[-1] if run.stderr else f"no stderr (exit {run.returncode})"


def test_a_command_body_runs_with_the_collector_on() -> None:
    """After `pause_startup`, the first command's body turns the collector back on, start-up's
    objects frozen out of its way; without a pause, nothing changes."""
    import gc

    from click.testing import CliRunner

    from deckcheck import gc_pause
    from deckcheck.cli.main import cli

    seen: list[bool] = []
    original = gc_pause.resume_startup

    def spy() -> None:
        original()
        seen.append(gc.isenabled())

    import deckcheck.cli.common as common

    assert gc.isenabled()
    try:
        gc_pause.pause_startup()
        assert not gc.isenabled()
        common.resume_startup = spy  # type: ignore[attr-defined]
        result = CliRunner().invoke(cli, ["banlist", "list"])
        assert result.exit_code == 0, result.output
        assert seen[0] is True and gc.get_freeze_count() > 0
        gc_pause._program = False  # this test process is no `deckcheck` program
        with gc_pause.gc_paused(until_exit=True):
            assert not gc.isenabled()
        assert gc.isenabled()
    finally:  # whatever failed, the rest of the session is no `deckcheck` program
        gc_pause._program = False
        common.resume_startup = original  # type: ignore[attr-defined]
        gc.unfreeze()
        gc.enable()


def test_odds_leaves_nothing_for_the_collection_at_exit(tmp_path: Path) -> None:
    """`odds` runs with the collector paused to the program's end and what it built frozen
    (`gc_paused(until_exit=True)`): no collection runs during the command, and the one Python
    makes at exit finds nothing left to walk (NumPy's modules and the report's objects
    included; ~10 ms of the default `odds`)."""
    script = (
        "import gc, sys\n"
        "import deckcheck.cli.main as m\n"
        "runs = []\n"
        "gc.callbacks.append(lambda phase, info: runs.append(phase))\n"
        f"sys.argv = ['deckcheck', 'odds', '--seed', '1', '--hands', '2000', "
        f"{str(ROOT / 'examples' / 'tcg-legal.ydk')!r}]\n"
        "try:\n    m.main()\nexcept SystemExit as e:\n    code = e.code\n"
        "left = len(gc.get_objects())\n"
        "sys.stderr.write(f'collections={len(runs) // 2} enabled={gc.isenabled()} '\n"
        "                 f'tracked={\"few\" if left < 1000 else left} code={code}\\n')\n")
    assert _last_line_as_program(script, tmp_path) == \
        "collections=0 enabled=False tracked=few code=0"


def test_odds_builds_no_dataclass_and_imports_no_pathlib(tmp_path: Path) -> None:
    """The default `odds` (its profile found next to the deck) imports neither dataclasses
    nor pathlib: the profile's and the compiled deck's classes are plain, and the profile is
    found and read on path strings (~10 ms of start-up together)."""
    mods, run = _imported(["odds", "--seed", "1", "--hands", "2000",
                           str(EXAMPLE.relative_to(ROOT))], tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "deckcheck.sim.goldfish.montecarlo" in mods  # the odds did run in this process
    heavy = sorted(m for m in mods if m.split(".")[0] in ("dataclasses", "pathlib", "urllib"))
    assert not heavy, f"odds imported {heavy}"
