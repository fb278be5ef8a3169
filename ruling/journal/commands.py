"""The journal on the command line: the options `ask` and `decide` share (`--event`, `--table`,
`--player`, `--note`, `--journal`), the recorder behind them, and the `ruling journal` command.

Only click is imported here; SQLite and the engine are imported when a journal is really used,
so `ruling show` and a `decide` without `--event` do not pay for them.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

import click

from ruling.click_fr import RulingCommand, loaded_kb
from ruling.errors import UserError, shown
from ruling.kb.files import write_atomic
from ruling.kb.names import closest


def journal_options(command):
    """Add the recording options to `ask` or `decide`; they reach the command as one `journal` dict."""
    options = [
        click.option("--event", metavar="NOM",
                     help="Enregistre la décision au journal de cet événement (ou `event:` dans le profil)."),
        click.option("--table", "table", type=click.IntRange(min=0), metavar="N", help="Numéro de la table."),
        click.option("--player", "players", multiple=True, metavar="NOM[@SIÈGE]",
                     help="Joueur concerné (répétable) ; avec un seul joueur, le journal répond aux questions "
                          "sur ses fautes et sanctions précédentes."),
        click.option("--note", metavar="TEXTE", help="Note jointe à la décision enregistrée."),
        click.option("--journal", "journal_path", envvar="RULING_JOURNAL", metavar="FICHIER",
                     help="Fichier du journal (par défaut $XDG_DATA_HOME/ruling/journal.sqlite3)."),
    ]

    @functools.wraps(command)
    def wrapper(*args, event, table, players, note, journal_path, **kwargs):
        kwargs["journal"] = {"event": event, "table": table, "players": players, "note": note, "path": journal_path}
        return command(*args, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def journal_recorder(journal: dict, profile: dict) -> Recorder:
    """The recorder for this ruling; takes `event:` out of the profile (it answers no question)."""
    event = journal.get("event")
    profile_event = profile.pop("event", None) if isinstance(profile, dict) else None
    if event is None and profile_event is not None:
        event = str(profile_event)
    if event is not None and not event.strip():
        raise UserError("--event vide ; attendu le nom de l'événement (ex. --event \"Open du club\")")
    return Recorder(event.strip() if event else None, journal.get("table"), journal.get("players") or (),
                    journal.get("note"), journal.get("path"))


class Recorder:
    """Records one ruling of `ask` or `decide`, and lets the journal answer what it knows first.

    A journal that cannot be opened never stops the ruling: the error is kept and told once the
    ruling is printed (one French line, exit 2)."""

    def __init__(self, event, table, players, note, path):
        self.event, self.table, self.note = event, table, note
        self.path = path
        self.players = []
        if event is not None:
            from ruling.journal.rulings import parse_player

            self.players = [parse_player(p) for p in players]
        self.error: str | None = None
        self.entry_id: int | None = None
        self.recalled: dict = {}
        self._entries = None

    @property
    def active(self) -> bool:
        return self.event is not None

    def _path(self):
        from ruling.journal.store import default_path

        return self.path or default_path()

    def _load(self) -> None:
        """Read the event's entries once; an event typed with other accents or case is the existing one."""
        if self._entries is not None or self.error is not None or not self.active:
            return
        from ruling.journal.store import Journal, JournalError

        try:
            with Journal(self._path(), create=False) as journal:
                self._resolve_event(journal.events())
                self._entries = journal.entries(self.event)
        except JournalError as e:
            self.error = str(e)

    def _resolve_event(self, events: list[str]) -> None:
        if self.event in events:
            return
        from ruling.journal.rulings import same_player

        match = next((e for e in events if same_player(e, self.event)), None)
        if match is not None:
            click.echo(f"Événement « {shown(self.event)} » lu comme « {shown(match)} », déjà au journal.", err=True)
            self.event = match

    def _history(self, book: str) -> list | None:
        """The single player's standing rulings of `book` in this event (None: no player, or journal unreadable)."""
        if not self.active or len(self.players) != 1:
            return None
        self._load()
        if self._entries is None:
            return None
        from ruling.journal.rulings import player_history

        return player_history(self._entries, self.players[0].name, book)

    def recall(self, kb, procedure, question):
        """The journal's answer to `question` (kept to be recorded with its sources), or None."""
        history = self._history(procedure.book)
        if history is None or not question.journal:
            return None
        from ruling.journal.rulings import recall

        found = recall(kb, procedure, question, history)
        if found is not None:
            self.recalled[question.id] = found
        return found

    def ask_recall(self, kb, procedure, question):
        """`ask`: the journal's answer, or, when it withholds one the ladder could give, why (the TD answers)."""
        found = self.recall(kb, procedure, question)
        if found is None and question.journal and len(self.players) == 1:
            from ruling.journal.rulings import already_sanctioned, is_ladder

            why = already_sanctioned(kb, procedure, self._history(procedure.book) or []) if is_ladder(procedure) else None
            if why is not None:
                click.echo(f"Le journal ne répond pas à {question.id} : {why}.")
        return found

    def complete(self, kb, decision):
        """`decide`: answer from the journal the missing questions it knows, then decide again."""
        from ruling.decide.engine import decide_procedure

        while self.active and not decision.decided:
            values = dict(decision.answers)
            filled = False
            for question in decision.missing:
                if question.id not in values and question.journal:
                    found = self.recall(kb, decision.procedure, question)
                    if found is not None:
                        values[question.id] = found.value
                        filled = True
            if not filled:
                break
            decision = decide_procedure(kb, decision.procedure, values)
        if self.active and decision.decided:  # answers the TD typed: what the journal would have said
            for qid in decision.answers:
                question = decision.procedure.question(qid)
                if question is not None and question.journal and qid not in self.recalled:
                    self.recall(kb, decision.procedure, question)
        return decision

    def notes(self, kb, decision) -> list[str]:
        """« D'après le journal : … » for every answer the journal gave or would have given, and the
        same fault recorded earlier for a ruling that leads to the sanction ladder."""
        from ruling.decide.engine import answer_text

        out = []
        for qid, found in self.recalled.items():
            if qid not in decision.answers:
                continue
            given = decision.answers[qid]
            line = f"D'après le journal : {found.text} → {qid}={answer_text(found.value)}"
            if given != found.value:
                line += f" ; réponse de l'arbitre retenue : {qid}={answer_text(given)}"
            out.append(line)
        rule = decision.rule
        history = self._history(decision.book)
        covered = any(q.journal and q.journal.get("fault") == (rule.fault if rule else None)
                      for q in decision.procedure.questions.values() if q.id in decision.answers)
        if rule is not None and rule.fault and history and not covered:
            from ruling.journal.rulings import at, fault_label, is_ladder, is_occurrence

            earlier = [e for e in history if is_occurrence(e) and e.fault == rule.fault]
            if earlier:
                label = fault_label(kb, decision.book, rule.fault)
                ladder = next((p for p in kb.procedures if p.book == decision.book and is_ladder(p)), None)
                hint = f" ; échelle des sanctions : ruling decide {ladder.id} --book {ladder.book}" if ladder else ""
                out.append(f"D'après le journal : même faute (« {label} ») déjà relevée pour ce joueur "
                           + " ; ".join(at(e) for e in earlier[-3:]) + hint)
        return out

    def _why_unanswered(self, kb, decision) -> None:
        """Why the journal left a question it knows how to answer to the TD (stderr: stdout stays the report)."""
        unanswered = [q.id for q in decision.missing if q.journal and q.id not in self.recalled]
        if not unanswered or self.error is not None:
            return
        from ruling.journal.rulings import already_sanctioned, is_ladder

        taken = None
        if len(self.players) == 1 and is_ladder(decision.procedure):
            taken = already_sanctioned(kb, decision.procedure, self._history(decision.book) or [])
        if len(self.players) != 1:
            why = "donnez le joueur concerné (un seul --player)"
        elif taken is not None:
            why = taken
        else:
            why = "aucune faute de ce joueur n'est enregistrée dans cet événement ; enregistrez-la d'abord"
        lead = "ne répond pas à" if taken is not None else "peut répondre à"
        click.echo(f"Le journal {lead} {', '.join(unanswered)} : {why}.", err=True)

    def _record(self, kb, decision) -> None:
        if self.entry_id is not None or self.error is not None or not decision.decided:
            return
        from ruling.journal.rulings import claim_fault, entry_fault, entry_for
        from ruling.journal.store import Journal, JournalError

        self._load()
        history = self._history(decision.book) or []
        if self.error is not None:
            return
        fault, fault_sources, answers_entry = entry_fault(decision.procedure, decision, history)
        sources = {qid: r.sources for qid, r in self.recalled.items() if decision.answers.get(qid) == r.value}
        overridden = {qid: r.value for qid, r in self.recalled.items()
                      if qid in decision.answers and decision.answers[qid] != r.value}
        if fault_sources:
            sources["fault"] = fault_sources
        entry = entry_for(kb, decision, self.event, table=self.table, players=self.players, note=self.note,
                          fault=fault, sources=sources, answers_entry=answers_entry, overridden=overridden)
        claim = claim_fault(decision.procedure, entry, self.players[0].name) if answers_entry is not None else None
        try:
            with Journal(self._path(), make_folder=self.path is None) as journal:
                self.entry_id = journal.record(entry, claim=claim)
                if journal.folder_created:
                    click.echo(f"Dossier créé pour le journal : {shown(journal.path.parent)}", err=True)
                if journal.created:
                    click.echo(f"nouveau journal créé : {shown(journal.path)}", err=True)
        except JournalError as e:
            self.error = str(e)

    def json(self, kb, decision, data: dict) -> dict:
        """`decide --json`: the decision, plus what the journal did with it when an event is given."""
        if not self.active:
            return data
        self._record(kb, decision)
        data["journal"] = {"event": self.event, "id": self.entry_id, "error": self.error,
                           "recalled": [{"question": qid, "answer": r.value, "text": r.text, "entries": r.sources}
                                        for qid, r in self.recalled.items() if qid in decision.answers]}
        return data

    def finish(self, ctx, kb, decision, as_json: bool = False) -> None:
        """Record (if not yet), then say so; a journal failure is one French line and exit 2, the
        ruling already printed."""
        if not self.active:
            return
        self._record(kb, decision)
        if not as_json:
            for line in self.notes(kb, decision) if decision.decided else ():
                click.echo(line)
            if self.entry_id is not None:
                click.echo(f"Enregistré au journal : n° {self.entry_id}, événement « {shown(self.event)} », "
                           f"fichier {shown(self._path())}.")
        if not decision.decided:
            self._why_unanswered(kb, decision)
        if self.error is None:
            return
        if decision.decided:
            click.echo(f"Erreur : {self.error} ; la décision ci-dessus n'est pas enregistrée, pour la rejouer : "
                       f"{decision.replay_command()}", err=True)
            ctx.exit(2)
        click.echo(f"Erreur : {self.error}", err=True)


# -- `ruling journal` ----------------------------------------------------------------------------------

@click.command("journal", cls=RulingCommand)
@click.option("--event", metavar="NOM", help="Seulement les décisions de cet événement.")
@click.option("--player", metavar="NOM", help="Seulement les décisions qui concernent ce joueur.")
@click.option("--since", metavar="QUAND", help="Depuis une date (AAAA-MM-JJ), une date et une heure "
                                                 "(AAAA-MM-JJ HH:MM) ou une heure d'aujourd'hui (HH:MM).")
@click.option("--json", "as_json", is_flag=True, help="Sortie JSON : {\"entries\": [...]}.")
@click.option("--csv", "as_csv", is_flag=True, help="Sortie CSV pour un tableur (UTF-8 avec BOM, séparateur ;).")
@click.option("--markdown", "as_markdown", is_flag=True, help="Sortie Markdown (lettre du club).")
@click.option("--replay", is_flag=True, help="Rejoue les décisions sur la base actuelle et liste celles qui changeraient.")
@click.option("--undo", type=click.IntRange(min=1), metavar="N", help="Annule la décision n° N (elle reste au journal, barrée).")
@click.option("--anonymise", "anonymise_event", metavar="ÉVÉNEMENT",
              help="Exporte l'événement anonymisé pour publication (le document --json, les noms remplacés par "
                   "« table 1, siège 4 » ou « table 1, joueur 2 ») ; le journal n'est pas modifié.")
@click.option("--output", "output", metavar="FICHIER",
              help="Écrit l'export dans ce fichier (écriture atomique) au lieu de la sortie standard.")
@click.option("--journal", "journal_path", envvar="RULING_JOURNAL", metavar="FICHIER",
              help="Fichier du journal (par défaut $XDG_DATA_HOME/ruling/journal.sqlite3).")
@click.pass_context
def journal_command(ctx, event, player, since, as_json, as_csv, as_markdown, replay, undo, anonymise_event, output,
                    journal_path):
    """Le journal des décisions d'un événement : liste, exports, rejeu après une révision,
    annulation d'une décision saisie par erreur, export anonymisé pour publication."""
    _journal(ctx, event, player, since, as_json, as_csv, as_markdown, replay, undo, anonymise_event, output,
             journal_path)


def _journal(ctx, event, player, since, as_json, as_csv, as_markdown, replay, undo, anonymise_event, output,
             journal_path):
    from ruling.journal.rulings import select
    from ruling.journal.store import Journal, default_path
    from ruling.render.journal import csv_bytes, markdown, replay_text, table_text

    if sum(map(bool, (as_json, as_csv, as_markdown))) > 1:
        raise UserError("--json, --csv et --markdown s'excluent ; choisissez l'un des trois")
    actions = [name for name, on in (("--replay", replay), ("--undo", undo is not None),
                                     ("--anonymise", anonymise_event is not None)) if on]
    if len(actions) > 1:
        raise UserError(f"{' et '.join(actions)} s'excluent ; une action à la fois")
    if actions and (as_csv or as_markdown):
        raise UserError(f"{actions[0]} ne s'exporte pas en CSV ni en Markdown ; utilisez --json ou la sortie texte")
    if output is not None and (undo is not None or replay):
        raise UserError(f"--output écrit un export ; {actions[0]} n'en produit pas")
    path = Path(journal_path) if journal_path else default_path()
    if journal_path and not path.exists():
        raise UserError(f"aucun journal à {shown(path)} ; vérifiez le chemin donné à --journal (ou RULING_JOURNAL)")
    if undo is not None:
        with Journal(path, create=False) as journal:
            entry = journal.cancel(undo)
        if as_json:
            click.echo(json.dumps({"cancelled": entry.id, "cancelled_at": entry.cancelled_at}, ensure_ascii=False))
        else:
            click.echo(f"Décision n° {entry.id} annulée ({entry.book}:{entry.procedure}, {entry.outcome}) ; "
                       "elle reste au journal, barrée.")
        return
    with Journal(path, create=False) as journal:
        events = journal.events()
        if anonymise_event is not None:
            event = _existing_event(anonymise_event, events, path, required=True)
        elif event is not None:
            event = _existing_event(event, events, path, required=bool(events))
        entries = journal.entries(event) if event is not None else journal.entries()
    if anonymise_event is not None:
        from ruling.journal.anonymise import anonymised

        _emit(_json_document(anonymised(entries)), output)
        return
    entries = select(entries, player=player, since=since)
    if replay:
        from ruling.journal.rulings import replay as replay_entries

        results = replay_entries(loaded_kb(ctx), entries)
        if as_json:
            click.echo(json.dumps({"replayed": len(results), "changed": [r.to_json() for r in results if r.changed]},
                                  ensure_ascii=False, indent=2))
        else:
            click.echo(replay_text(results))
        return
    if as_json:
        _emit(_json_document(entries), output)
    elif as_csv:
        _emit(csv_bytes(entries), output)  # bytes go out as they are: the BOM and UTF-8 whatever the locale
    elif as_markdown:
        _emit(markdown(entries), output)
    else:
        _emit(table_text(entries) + "\n", output)


def _existing_event(name: str, events: list[str], path, required: bool) -> str:
    """The event as the journal spells it (« Soiree du jeudi » is « Soirée du jeudi », said on stderr);
    an event the journal does not hold is refused with the nearest one."""
    from ruling.journal.rulings import same_player

    if name in events:
        return name
    match = next((e for e in events if same_player(e, name)), None)
    if match is not None:
        click.echo(f"Événement « {shown(name)} » lu comme « {shown(match)} ».", err=True)
        return match
    if not required:
        return name
    near = closest(name, events, n=1)
    hint = (f" ; vouliez-vous dire « {shown(near[0])} » ?" if near
            else " ; événements du journal : " + ", ".join(f"« {shown(e)} »" for e in events[-5:]))
    raise UserError(f"aucune décision pour l'événement « {shown(name)} » dans le journal {shown(path)}{hint}",
                    suggestions=near)


def _json_document(entries: list) -> str:
    """The `--json` export: standing entries, and the numbers of the cancelled ones."""
    data = {"entries": [e.to_json() for e in entries if not e.cancelled],
            "cancelled": [{"id": e.id, "cancelled_at": e.cancelled_at} for e in entries if e.cancelled]}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _emit(document, output: str | None) -> None:
    """An export to stdout, or to `--output FILE` through a temporary file and os.replace."""
    if output is None:  # text through the terminal guard; CSV's bytes as they are
        click.echo(document, nl=False)
        return
    data = document.encode("utf-8") if isinstance(document, str) else document
    target = Path(output)
    if not target.parent.is_dir():
        raise UserError(f"--output {shown(output)} : le dossier {shown(target.parent)} n'existe pas ; "
                        "créez-le ou choisissez un autre fichier")
    if target.is_dir():
        raise UserError(f"--output {shown(output)} est un dossier ; attendu un nom de fichier")
    try:
        write_atomic(target, data)
    except OSError as e:
        raise UserError(f"--output {shown(output)} ne peut pas être écrit ({shown(e.strerror or e)}) ; "
                        "choisissez un autre fichier") from None
    click.echo(f"Export écrit dans {shown(target)}.", err=True)
