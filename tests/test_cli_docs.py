"""docs/CLI.md is the `--help` of every command, regenerated: the reference never drifts."""
from ruling.cli import cli
from ruling.cli_docs import cli_reference

from conftest import ROOT


def test_cli_reference_is_up_to_date():
    committed = (ROOT / "docs" / "CLI.md").read_text(encoding="utf-8")
    assert committed == cli_reference(), "docs/CLI.md est périmé : python -m ruling.cli_docs > docs/CLI.md"


def test_every_command_is_documented():
    committed = (ROOT / "docs" / "CLI.md").read_text(encoding="utf-8")
    for name in cli.commands:
        assert f"## ruling {name}\n" in committed
