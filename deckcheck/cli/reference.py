"""Render the CLI reference (every command's `--help`) as Markdown.

README.md embeds this output between `<!-- cli-reference -->` markers; a test checks they
are identical, so the documentation cannot drift from `--help`. Regenerate with
`python -m deckcheck.cli.reference --write`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from deckcheck.cli.main import cli

START, END = "<!-- cli-reference -->", "<!-- /cli-reference -->"


def _walk(cmd: click.Command, path: list[str]) -> list[tuple[list[str], click.Command]]:
    out = [(path, cmd)]
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd, info_name=path[-1])
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                out.extend(_walk(sub, [*path, name]))
    return out


def render() -> str:
    """Every command's `--help`, exactly as a user sees it (100 columns wide)."""
    from click.testing import CliRunner

    parts: list[str] = []
    runner = CliRunner()
    for path, _cmd in _walk(cli, ["deckcheck"]):
        result = runner.invoke(cli, [*path[1:], "--help"], prog_name="deckcheck",
                               terminal_width=100, max_content_width=100)
        parts.append(f"### `{' '.join(path)}`\n\n```\n{result.output.rstrip()}\n```\n")
    return "\n".join(parts)


def readme_block(readme: str) -> str:
    start, end = readme.index(START) + len(START), readme.index(END)
    return readme[start:end].strip("\n")


def main() -> None:
    text = render()
    if "--write" in sys.argv:
        path = Path(__file__).resolve().parents[2] / "README.md"
        readme = path.read_text(encoding="utf-8")
        start, end = readme.index(START) + len(START), readme.index(END)
        path.write_text(readme[:start] + "\n" + text + "\n" + readme[end:], encoding="utf-8")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
