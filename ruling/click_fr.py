"""French messages for click's own usage errors (unknown option, missing argument…).

click only speaks English; a TD mid-dispute should read French, with the nearest valid
name when he mistyped one.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

from ruling.errors import UserError, shown
from ruling.kb.names import closest


def _param_name(param) -> str:
    if param is None:
        return "?"
    if isinstance(param, click.Option):
        return "/".join(param.opts)
    return (param.human_readable_name or param.name or "?").upper()


def usage_error_fr(err: click.ClickException) -> str:
    """One French line for a click usage error."""
    if isinstance(err, click.NoSuchOption):
        msg = f"option inconnue : {err.option_name}"
        if err.possibilities:
            msg += " ; vouliez-vous " + " ou ".join(sorted(err.possibilities)) + " ?"
        return msg
    if isinstance(err, click.MissingParameter):
        return f"il manque {_param_name(err.param)} ; voir --help"
    if isinstance(err, click.BadOptionUsage):
        return f"l'option {err.option_name} attend une valeur ; voir --help"
    if isinstance(err, click.BadParameter):
        return _bad_value_fr(err)
    if isinstance(err, click.FileError):
        return f"fichier illisible : {err.ui_filename}"
    message = err.format_message()
    if message.startswith("No such command"):
        return message  # replaced upstream by RulingGroup.resolve_command
    if message.startswith("Got unexpected extra argument"):
        extra = message.split("(", 1)[-1].rstrip(")")
        return f"argument en trop : {extra} ; mettez les mots entre guillemets ou voir --help"
    return f"utilisation incorrecte : {message}"


def _bad_value_fr(err: click.BadParameter) -> str:
    """One French line for a value click's own types refuse (int, float, choice)."""
    name = _param_name(err.param)
    typed = re.match(r"^(['\"])(.*?)\1 is\b", err.message, re.S)
    value = f", pas « {shown(typed.group(2))} »" if typed else ""
    kind = getattr(err.param, "type", None)
    if isinstance(kind, click.types.IntParamType):
        return f"{name} attend un nombre entier (ex. 5){value}"
    if isinstance(kind, click.types.FloatParamType):
        return f"{name} attend un nombre (ex. 2.5){value}"
    if isinstance(kind, click.Choice):
        return f"{name} attend " + " ou ".join(map(str, kind.choices)) + value
    return f"valeur invalide pour {name} : {err.message}"


def usage_error(err: click.ClickException):
    """A click usage error as our `UserError`: the French line and the names it suggests."""
    suggestions = sorted(err.possibilities or []) if isinstance(err, click.NoSuchOption) else []
    param = err.param if isinstance(err, click.BadParameter) else None
    if param is not None and isinstance(param.type, click.Choice):
        suggestions = [str(c) for c in param.type.choices]
    return UserError(usage_error_fr(err), suggestions=suggestions)


def unknown_command_fr(name: str, commands: list[str]):
    """The `UserError` for an unknown command, with the nearest command names."""
    msg = f"commande inconnue : « {name} »"
    close = closest(name, commands, n=2)
    if close:
        msg += " ; vouliez-vous " + " ou ".join(close) + " ?"
    else:
        msg += " ; commandes : " + ", ".join(sorted(commands))
    return UserError(msg, suggestions=close)


if TYPE_CHECKING:
    _Mixed = click.Group  # what the mixin is mixed into (a command or a group): for the type checker
else:
    _Mixed = object


class FrenchHelpMixin(_Mixed):
    """`--help` in French: usage line, help option and the list of commands."""

    def format_usage(self, ctx, formatter) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix="Utilisation : ")

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = "Affiche cette aide et quitte."
        return option

    def format_commands(self, ctx, formatter) -> None:  # used by groups only
        found = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        commands = [(name, cmd) for name, cmd in found if cmd is not None and not cmd.hidden]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section("Commandes"):
                formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in commands])


class FrenchCommand(FrenchHelpMixin, click.Command):
    """A click command whose help speaks French."""


def refuse_empty_kb(ctx, value):
    """`--kb ''` (often `--kb "$UNSET"`) would silently mean the bundled base: refused instead.
    An empty `RULING_KB` counts as unset (click reads it so), as documented in the README."""
    if value == "" and not ctx.resilient_parsing:
        raise UserError("--kb vide ; indiquez le dossier de la base de règles (par exemple --kb rulebook/), "
                        "ou retirez --kb pour utiliser la base fournie avec ruling")
    return value


def loaded_kb(ctx: click.Context):
    """The knowledge base of this command (`--kb` before or after its name), loaded once per process."""
    obj = ctx.find_root().obj
    if obj.get("kb") is None:
        from ruling.kb.load import load_kb  # `--help` and a usage error never load a base

        obj["kb"] = load_kb(obj.get("kb_path"))
    return obj["kb"]


def _set_kb_late(ctx, param, value):
    """`--kb` given after the command (`ruling show 9-13 --kb DOSSIER`) counts as if given before it."""
    if value is None:
        return
    refuse_empty_kb(ctx, value)
    root = ctx.find_root()
    if root.obj is not None:
        root.obj["kb_path"] = value
    else:  # shell completion: the group's callback did not run, completion reads its params
        root.params["kb_path"] = value


class RulingCommand(FrenchCommand):
    """A command that also accepts `--kb` after its name (hidden: the group's help documents it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.params.append(click.Option(["--kb"], metavar="DOSSIER", hidden=True, expose_value=False,
                                        callback=_set_kb_late, help="Dossier de la base de règles."))
