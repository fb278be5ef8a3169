"""The `ruling` command: a thin layer over the Python API, one library call per command.

Imports of anything heavy (jinja2, whoosh, jsonschema) happen inside the commands that
need them, so `ruling show` starts as fast as click itself.
"""
from __future__ import annotations

import json
import sys

import click

from ruling import completion
from ruling.click_fr import FrenchHelpMixin, RulingCommand, refuse_empty_kb
from ruling.click_fr import loaded_kb as _kb
from ruling.errors import RulingError, UserError
from ruling.journal.commands import journal_command, journal_options, journal_recorder


def _check_kb(ctx, param, value):
    return refuse_empty_kb(ctx, value)


def _wants_json(args) -> bool:
    """Whether the command line asks for `--json` (before any `--`): errors then print JSON too."""
    args = list(sys.argv[1:] if args is None else args)
    return "--json" in (args[: args.index("--")] if "--" in args else args)


def _report_error(error: RulingError, as_json: bool) -> int:
    """One French line on stderr, or with `--json` the error document on stdout; the exit status."""
    from ruling.render.terminal import OutputLost

    if as_json:
        try:
            _print_json(error.to_json())
        except OutputLost as lost:  # the document cannot reach stdout: say why on stderr
            return _report_lost_output(lost)
    else:
        click.echo(f"Erreur : {error}", err=True)
    return error.exit_code


def _report_lost_output(error: Exception) -> int:
    """The output could not be written: one French line on stderr (even with --json: stdout is
    what failed), exit status 2, and nothing more tried on stdout."""
    from ruling.render.terminal import discard_pending_output

    discard_pending_output()
    try:
        click.echo(f"Erreur : {error}", err=True)
    except (OSError, ValueError):
        pass
    return 2


class RulingGroup(FrenchHelpMixin, click.Group):
    """Turns every user mistake (ours or click's) into one French line and exit status 2 (a JSON
    error document on stdout with --json); plain `ruling` prints the help."""

    command_class = RulingCommand

    def parse_args(self, ctx, args):
        if not args and not ctx.resilient_parsing:  # plain `ruling`: the help, and no error
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            from ruling.click_fr import unknown_command_fr

            raise unknown_command_fr(name, list(self.commands))
        return super().resolve_command(ctx, args)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from ruling.render.terminal import guarded_output

        # ruling.render.terminal decides what reaches the terminal (click would strip some styles only).
        extra.setdefault("color", True)
        with guarded_output():
            rv = self._main(args, prog_name, complete_var, **extra)
            rv = self._flush_output(rv)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)

    @staticmethod
    def _flush_output(rv):
        """What is still buffered for stdout, written now: a full disk must be reported here,
        not lost in the interpreter's last flush."""
        from ruling.render.terminal import OutputLost

        try:
            sys.stdout.flush()
        except OutputLost as e:
            return _report_lost_output(e)
        return rv

    def _main(self, args, prog_name, complete_var, **extra):
        from ruling.render.terminal import OutputLost

        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, **extra)
        except OutputLost as e:
            rv = _report_lost_output(e)
        except RulingError as e:
            rv = _report_error(e, _wants_json(args))
        except click.ClickException as e:
            from ruling.click_fr import usage_error

            rv = _report_error(usage_error(e), _wants_json(args))
        except click.Abort:
            click.echo("\nInterrompu.", err=True)
            rv = 1
        return rv


def _print_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@click.group(cls=RulingGroup, subcommand_metavar="COMMANDE [ARGUMENTS]...",
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--kb", "kb_path", envvar="RULING_KB", metavar="DOSSIER", callback=_check_kb,
              help="Dossier de la base de règles (par défaut : celle fournie avec ruling) ; "
                   "avant ou après la commande.")
@click.version_option(package_name="ruling", message="ruling %(version)s", help="Affiche la version et quitte.")
@click.pass_context
def cli(ctx, kb_path):
    """Assistant d'arbitrage et base de règles de poker.

    Trouvez la règle, obtenez la décision avec le texte exact à lire à la table.
    """
    ctx.obj = {"kb_path": kb_path, "kb": None}


@cli.command()
@click.argument("citation", metavar="CITATION", shell_complete=completion.citations)
@click.option("--book", metavar="LIVRE", shell_complete=completion.book_ids,
              help="Livre où chercher une règle citée sans livre (ex. club).")
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON (objet règle).")
@click.pass_context
def show(ctx, citation, book, as_json):
    """Affiche une règle mot pour mot : club:9-13, 9-13, club@v1:8-10."""
    from ruling.render.text import clause_report

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
@click.argument("book", required=False, metavar="[LIVRE]", shell_complete=completion.book_revisions)
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON.")
@click.pass_context
def list_(ctx, book, as_json):
    """Liste les livres, ou les chapitres et règles d'un livre (club, club@v1)."""
    from ruling.render.text import book_listing, books_listing

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
@click.option("--stamp", is_flag=True, help="Écrit ou rafraîchit l'empreinte du texte cité dans chaque cites des procédures.")
@click.pass_context
def check(ctx, as_json, stamp):
    """Valide la base de règles ; code 0 si elle est propre, 1 sinon."""
    from ruling.kb.validate import check_kb

    if stamp:
        from ruling.kb.validate import stamp as stamp_cites

        changed = stamp_cites(ctx.find_root().obj.get("kb_path"))
        message = f"empreintes écrites dans {len(changed)} fichier(s)" if changed else "empreintes déjà à jour"
        click.echo(message + "".join(f"\n  {f}" for f in changed), err=as_json)
    report = check_kb(ctx.find_root().obj.get("kb_path"))
    if as_json:
        _print_json(report.to_json())
    else:
        click.echo(report.to_text())
    ctx.exit(0 if report.ok else 1)


@cli.command("test")
@click.option("--book", metavar="LIVRE", help="Seulement les scénarios de ce livre (club, tda, cash, infos).")
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON : résultat de chaque scénario.")
@click.pass_context
def test_(ctx, book, as_json):
    """Rejoue les scénarios du livre (rulebook/LIVRE/scenarios/) : chaque décision attendue est-elle
    celle que donnent les procédures ? Code 0 si tout passe, 1 sinon."""
    from ruling.decide.scenarios import run_tests

    report = run_tests(_kb(ctx), book)
    if as_json:
        _print_json(report.to_json())
    else:
        click.echo(report.to_text())
    ctx.exit(0 if report.ok else 1)


@cli.command("diff")
@click.argument("sides", nargs=-1, required=True, metavar="[ANCIEN] NOUVEAU", shell_complete=completion.book_revisions)
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON (changements, impact).")
@click.option("--markdown", "as_markdown", is_flag=True, help="Sortie Markdown avec <del>/<ins> (site, lettre du club).")
@click.option("--rulings", is_flag=True, help="Rejoue les scénarios et liste les décisions qui changent.")
@click.pass_context
def diff_(ctx, sides, as_json, as_markdown, rulings):
    """Ce qui a changé entre deux éditions, règle par règle : `ruling diff club` (précédente
    contre actuelle), `ruling diff club@v1 club`, un fichier ou dossier YAML, git:HEAD~1:rulebook/club."""
    from ruling.diff.redline import report_markdown, report_text
    from ruling.diff.revisions import diff

    if len(sides) > 2:
        raise UserError(f"{len(sides)} côtés donnés ; attendu ruling diff [ANCIEN] NOUVEAU")
    if as_json and as_markdown:
        raise UserError("--json et --markdown s'excluent ; choisissez l'un des deux")
    kb = _kb(ctx)
    old, new = (None, sides[0]) if len(sides) == 1 else sides
    result = diff(old, new, kb)
    if rulings:
        from ruling.diff.revisions import replay_rulings

        result.rulings = replay_rulings(result, kb)
    if as_json:
        _print_json(result.to_json())
    elif as_markdown:
        click.echo(report_markdown(result), nl=False)
    else:
        import os

        click.echo(report_text(result, color=sys.stdout.isatty() and not os.environ.get("NO_COLOR")))


def _decide_inputs(answer_pairs, answers_file, profile_file) -> tuple[dict, dict]:
    """Answers (file then -a pairs) and profile, read and checked for form."""
    from ruling.decide.questionnaire import parse_pairs, read_mapping_file

    answers = read_mapping_file(answers_file, "réponses") if answers_file else {}
    answers.update(parse_pairs(answer_pairs))
    profile = read_mapping_file(profile_file, "profil") if profile_file else {}
    return answers, profile


@cli.command()
@click.argument("procedure", metavar="PROCÉDURE", shell_complete=completion.procedure_ids)
@click.option("--book", metavar="LIVRE", shell_complete=completion.book_ids,
              help="Livre de la procédure (facultatif si son id est unique).")
@click.option("-a", "--answer", "answer_pairs", multiple=True, metavar="QUESTION=RÉPONSE",
              help="Une réponse (répétable) : -a defaut=premature -a ordre-connu=oui.")
@click.option("--answers", "answers_file", metavar="FICHIER", help="Fichier YAML question: réponse.")
@click.option("--profile", "profile_file", metavar="FICHIER",
              help="Profil d'événement (YAML) : réponses aux questions de contexte.")
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON (décision, ou questions manquantes).")
@journal_options
@click.pass_context
def decide(ctx, procedure, book, answer_pairs, answers_file, profile_file, as_json, journal):
    """Donne la décision d'une procédure à partir des réponses ; code 2 et la liste des questions
    s'il en manque."""
    from ruling.decide.engine import decide as decide_
    from ruling.decide.questionnaire import decision_report, missing_report

    kb = _kb(ctx)
    answers, profile = _decide_inputs(answer_pairs, answers_file, profile_file)
    from ruling.decide.unknown import decide_unknown, is_unknown

    unknown = [qid for qid, v in answers.items() if isinstance(v, str) and (v.strip() == "?" or is_unknown(v))]
    if unknown:  # -a q=? or -a "q=je ne sais pas": the decision of each possibility, side by side
        decide_unknown(ctx, kb, book, procedure, answers, profile, unknown, as_json)
        return
    recorder = journal_recorder(journal, profile)
    result = recorder.complete(kb, decide_(kb, book, procedure, answers, profile))
    unused = [qid for qid in answers if result.decided and qid not in result.answers]
    if unused:  # an answer no path of this decision reads: the TD may have meant another question
        click.echo(f"Avertissement : réponse{'s' if len(unused) > 1 else ''} non utilisée{'s' if len(unused) > 1 else ''} "
                   f"par cette décision : {', '.join(unused)}", err=True)
    if as_json:
        data = recorder.json(kb, result, result.to_json())
        if result.decided:
            data["unused"] = unused
        _print_json(data)
    elif result.decided:
        click.echo(decision_report(kb, result, color=sys.stdout.isatty()))
    else:
        click.echo(missing_report(result))
    recorder.finish(ctx, kb, result, as_json)
    if not result.decided:
        names = ", ".join(q.id for q in result.missing)
        click.echo(f"Erreur : réponses manquantes pour {result.procedure.id} ({result.book}) : {names}", err=True)
        ctx.exit(2)


@cli.command()
@click.option("--book", metavar="LIVRE", shell_complete=completion.book_ids, help="Seulement les procédures de ce livre.")
@click.option("--calculators", "show_calculators", is_flag=True, help="Liste plutôt les calculateurs et leurs entrées.")
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON : procédures, questions et choix.")
@click.pass_context
def procedures(ctx, book, show_calculators, as_json):
    """Liste les procédures de décision avec leurs questions et leurs choix."""
    from ruling.decide.questionnaire import procedures_listing

    kb = _kb(ctx)
    if show_calculators:
        if as_json:
            data = kb.catalogue.to_json()
            data["parameters"] = {b: [p.to_json() for p in ps.values()] for b, ps in kb.parameters.items()}
            _print_json(data)
        else:
            click.echo(kb.catalogue.listing())
        return
    if book is not None:
        book = kb.book(book).id  # CLUB is club
    procs = [p for p in kb.procedures if book is None or p.book == book]
    if as_json:
        _print_json({"procedures": [p.to_json() for p in procs]})
    else:
        click.echo(procedures_listing(procs))


@cli.command("search")
@click.argument("words", nargs=-1, metavar="[MOTS]...")
@click.option("--book", metavar="LIVRE", shell_complete=completion.book_ids,
              help="Chercher seulement dans ce livre (club, tda, cash, infos).")
@click.option("--house", metavar="LIVRE", shell_complete=completion.book_ids,
              help="Votre livre : ses règles d'abord, celles des autres livres ensuite "
                   "(par défaut RULING_BOOK, sinon le house_book de la base).")
@click.option("--kind", type=click.Choice(["clause", "procedure"]),
              help="Seulement des règles (clause) ou des procédures de décision (procedure).")
@click.option("--limit", type=int, metavar="N", default=10, help="Nombre maximal de résultats (10 par défaut).")
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON : query, hits, suggestion.")
@click.pass_context
def search_(ctx, words, book, house, kind, limit, as_json):
    """Cherche règles et procédures avec les mots de la table : `ruling search relance insuffisante`,
    sans accents, avec fautes de frappe ou en anglais du poker (overchip, misdeal)."""
    from ruling.search import result_text, search_path

    if not words:
        raise UserError("indiquez les mots à chercher, par exemple : ruling search relance insuffisante")
    # search_path, not _kb(ctx): with the index cached, the knowledge base need not be loaded.
    import os

    house = house or os.environ.get("RULING_BOOK") or None
    result = search_path(ctx.find_root().obj.get("kb_path"), " ".join(words), book=book, kind=kind,
                         limit=limit, house=house)
    if as_json:
        _print_json(result.to_json())
    else:
        click.echo(result_text(result, color=sys.stdout.isatty()))


@cli.command()
@click.argument("words", nargs=-1, metavar="[MOTS]...")
@click.option("--book", metavar="LIVRE", shell_complete=completion.book_ids,
              help="Livre de la maison : ses situations d'abord (club, tda, cash, infos ; sinon le book: du "
                   "profil, RULING_BOOK ou le house_book de la base).")
@click.option("--profile", "profile_file", metavar="FICHIER",
              help="Profil d'événement (YAML) : réponses aux questions de contexte.")
@click.option("--full", is_flag=True, help="Afficher le texte entier de chaque règle citée.")
@journal_options
@click.pass_context
def ask(ctx, words, book, profile_file, full, journal):
    """Questionnaire guidé : décrivez la situation, répondez aux seules questions utiles, lisez la
    décision et la règle à lire à la table."""
    from ruling.decide.questionnaire import EndOfInput, Interrupted, house_book, read_mapping_file, run_questionnaire

    kb = _kb(ctx)
    profile = read_mapping_file(profile_file, "profil") if profile_file else {}
    book = house_book(kb, book, profile)
    profile = {k: v for k, v in profile.items() if k != "book"}
    recorder = journal_recorder(journal, profile)
    try:
        decision = run_questionnaire(kb, " ".join(words), book=book, profile=profile, color=sys.stdout.isatty(),
                                     recall=recorder.ask_recall if recorder.active else None, full=full)
    except Interrupted:
        ctx.exit(130)  # Ctrl-C: the shell's convention for SIGINT
    except EndOfInput:
        ctx.exit(1)  # the input ended before a decision (the line saying so is printed)
    if decision is not None:
        recorder.finish(ctx, kb, decision)


@cli.command()
@click.argument("situation", nargs=-1, required=True, metavar="SITUATION|MOTS...", shell_complete=completion.situations)
@click.option("-a", "--answer", "answer_pairs", multiple=True, metavar="QUESTION=RÉPONSE",
              help="Une réponse commune aux livres (répétable) : -a cas=don.")
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON : cas, décision de chaque livre, différences.")
@click.pass_context
def compare(ctx, situation, answer_pairs, as_json):
    """Ce que chaque livre décide pour une même situation, côte à côte, et où ils diffèrent
    (la situation par son id, ou décrite en mots libres comme pour `ruling ask`)."""
    from ruling.decide.engine import compare as compare_
    from ruling.decide.questionnaire import comparison_report, parse_pairs, situation_named

    kb = _kb(ctx)
    situation, from_words = situation_named(kb, " ".join(situation))
    if from_words and not as_json:
        click.echo(f"D'après vos mots : situation {situation}", err=True)
    result = compare_(kb, situation, parse_pairs(answer_pairs))
    if as_json:
        _print_json(result.to_json())
    else:
        click.echo(comparison_report(_kb(ctx), result))


# -- site: the published site as a folder of Markdown pages, for any engine ----------------------

@cli.command("site")
@click.argument("folder", metavar="DOSSIER", type=click.Path(file_okay=True, dir_okay=True, path_type=str))
@click.option("--pages", "pages_dir", metavar="DOSSIER",
              help="Les pages écrites à la main (accueil, scripts) ; par défaut le site/ du dépôt de la base.")
@click.pass_context
def site(ctx, folder, pages_dir):
    """Écrit le site dans DOSSIER : les pages Markdown et les fichiers (DOSSIER/docs/) et un
    mkdocs.yml sans hook, à construire avec « mkdocs build -f DOSSIER/mkdocs.yml » (ou Zensical)."""
    from ruling.site.export import export_site

    written, notes = export_site(folder, ctx.find_root().obj.get("kb_path"), pages_dir)
    for note in notes:
        click.echo(note, err=True)
    pages = sum(1 for p in written if p.endswith(".md"))
    click.echo(f"Site écrit dans {folder} : {len(written)} fichiers, dont {pages} pages.")
    if "mkdocs.yml" in written:
        click.echo(f"Pour le construire : mkdocs build -f {folder}/mkdocs.yml")


cli.add_command(journal_command)


def main() -> None:
    cli(prog_name="ruling")
