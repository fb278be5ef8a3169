"""The `ruling` command: a thin layer over the Python API, one library call per command.

Imports of anything heavy (jinja2, whoosh, jsonschema) happen inside the commands that
need them, so `ruling show` starts as fast as click itself.
"""
from __future__ import annotations

import json
import sys

import click

from .errors import UserError


class RulingGroup(click.Group):
    """Turns every user mistake (ours or click's) into one French line and exit status 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UserError as e:
            click.echo(f"Erreur : {e}", err=True)
            ctx.exit(e.exit_code)

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            from .click_fr import unknown_command_fr

            raise UserError(unknown_command_fr(name, list(self.commands)))
        return super().resolve_command(ctx, args)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, **extra)
        except UserError as e:
            click.echo(f"Erreur : {e}", err=True)
            rv = e.exit_code
        except click.ClickException as e:
            from .click_fr import usage_error_fr

            click.echo(f"Erreur : {usage_error_fr(e)}", err=True)
            rv = 2
        except click.Abort:
            click.echo("\nInterrompu.", err=True)
            rv = 1
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


def _kb(ctx: click.Context):
    """The knowledge base, loaded once per process."""
    obj = ctx.find_root().obj
    if obj.get("kb") is None:
        from .load import load_kb

        obj["kb"] = load_kb(obj.get("kb_path"))
    return obj["kb"]


def _print_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@click.group(cls=RulingGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--kb", "kb_path", envvar="RULING_KB", type=click.Path(file_okay=False),
              help="Dossier de la base de règles (par défaut : celle fournie avec ruling).")
@click.version_option(package_name="ruling", message="ruling %(version)s")
@click.pass_context
def cli(ctx, kb_path):
    """Assistant d'arbitrage et base de règles de poker.

    Trouvez la règle, obtenez la décision avec le texte exact à lire à la table.
    """
    ctx.obj = {"kb_path": kb_path, "kb": None}


@cli.command()
@click.argument("citation")
@click.option("--book", help="Livre où chercher une règle citée sans livre (ex. club).")
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON (objet règle).")
@click.pass_context
def show(ctx, citation, book, as_json):
    """Affiche une règle mot pour mot : club:9-13, 9-13, club@v1:8-10."""
    from .render_text import clause_report

    kb = _kb(ctx)
    clause = kb.clause(citation, book=book)
    if as_json:
        data = clause.to_json()
        data["cited_by"] = kb.cited_by(clause)
        data["procedures"] = [p.id for p in kb.procedures_citing(clause)]
        _print_json(data)
    else:
        click.echo(clause_report(kb, clause, color=sys.stdout.isatty()))


@cli.command("list")
@click.argument("book", required=False)
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON.")
@click.pass_context
def list_(ctx, book, as_json):
    """Liste les livres, ou les chapitres et règles d'un livre (club, club@v1)."""
    from .render_text import book_listing, books_listing

    kb = _kb(ctx)
    if book is None:
        if as_json:
            _print_json({"books": [b.to_json() for b in kb.books]})
        else:
            click.echo(books_listing(kb))
        return
    book_id, _, rev_id = book.partition("@")
    bk = kb.book(book_id)
    rev = bk.revision(rev_id or None)
    if as_json:
        _print_json({"book": bk.id, "revision": rev.id,
                     "chapters": [{"id": ch.id, "title": ch.title, "clauses": [c.to_json() for c in ch.clauses]}
                                  for ch in rev.chapters]})
    else:
        click.echo(book_listing(bk, rev))


@cli.command()
@click.option("--json", "as_json", is_flag=True, default=True, help="Sortie JSON (seul format).")
@click.pass_context
def export(ctx, as_json):
    """Exporte toute la base (livres, règles de toutes les révisions, procédures) en JSON."""
    _print_json(_kb(ctx).to_json())


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON : problèmes et couverture.")
@click.pass_context
def check(ctx, as_json):
    """Valide la base de règles ; code 0 si elle est propre, 1 sinon."""
    from .check import check_kb

    report = check_kb(ctx.find_root().obj.get("kb_path"))
    if as_json:
        _print_json(report.to_json())
    else:
        click.echo(report.to_text())
    ctx.exit(0 if report.ok else 1)


def main() -> None:
    cli(prog_name="ruling")
