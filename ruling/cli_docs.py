"""The CLI reference (`docs/CLI.md`), generated from click's own `--help` so it never drifts.

    python -m ruling.cli_docs > docs/CLI.md

`tests/test_cli_docs.py` fails when the committed file differs from what this prints.
"""
from __future__ import annotations

import click

from ruling.cli import cli

WIDTH = 100


def _context(command: click.Command, info_name: str, parent: click.Context | None = None) -> click.Context:
    """A context as click builds it for `--help` (the group's context settings apply), at a fixed width."""
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    return click.Context(command, info_name=info_name, parent=parent, **settings)


def _help(command: click.Command, info_name: str, parent: click.Context | None = None) -> str:
    return command.get_help(_context(command, info_name, parent))


def cli_reference() -> str:
    """Markdown: the top-level help, then one section per command, in alphabetical order."""
    root = _context(cli, "ruling")
    parts = ["# Référence de la ligne de commande", "",
             "Générée depuis `--help` par `python -m ruling.cli_docs > docs/CLI.md` ; ne pas modifier à la main.",
             "", "```", _help(cli, "ruling"), "```"]
    for name in sorted(cli.commands):
        parts += ["", f"## ruling {name}", "", "```", _help(cli.commands[name], name, root), "```"]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    print(cli_reference(), end="")
