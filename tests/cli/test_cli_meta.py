"""The CLI as a whole: every command has help text, and README's reference matches --help."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from deckcheck.cli import reference
from deckcheck.cli.main import COMMANDS, cli

README = Path(__file__).resolve().parents[2] / "README.md"


def all_commands() -> list[tuple[str, click.Command]]:
    return [(" ".join(path), cmd) for path, cmd in reference._walk(cli, ["deckcheck"])]


def test_every_registered_command_loads() -> None:
    ctx = click.Context(cli)
    for name in COMMANDS:
        assert cli.get_command(ctx, name) is not None, name


@pytest.mark.parametrize("path,cmd", all_commands(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_command_has_help(path: str, cmd: click.Command) -> None:
    assert (cmd.help or "").strip(), f"`{path}` has no help text"
    args = path.split()[1:] + ["--help"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


def test_readme_reference_matches_help() -> None:
    readme = README.read_text(encoding="utf-8")
    assert reference.readme_block(readme) == reference.render().strip("\n"), (
        "README's CLI reference is out of date: run `python -m deckcheck.cli.reference --write`")


def test_shell_completion_is_documented_and_works() -> None:
    """Issue 23: completion worked and nobody was told; the README's line is the one that
    works."""
    readme = README.read_text(encoding="utf-8")
    assert 'eval "$(_DECKCHECK_COMPLETE=bash_source deckcheck)"' in readme
    script = CliRunner().invoke(cli, [], prog_name="deckcheck",
                                env={"_DECKCHECK_COMPLETE": "bash_source"})
    assert script.exit_code == 0 and "_deckcheck_completion()" in script.output
    words = CliRunner().invoke(cli, [], prog_name="deckcheck",
                               env={"_DECKCHECK_COMPLETE": "bash_complete",
                                    "COMP_WORDS": "deckcheck ch", "COMP_CWORD": "1"})
    assert words.output.splitlines() == ["plain,check"]
