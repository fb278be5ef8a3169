"""The event journal as a TD uses it: recording from `decide` and `ask`, the sanction ladder answered
from the journal, replay after a changed clause, undo, exports, anonymisation, concurrency and the
broken-database cases (the ruling is never lost)."""
from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
from datetime import datetime

import pytest
import yaml

from conftest import RULEBOOK

EVENT = "Open du club"
ENTRY_KEYS = ["id", "recorded_at", "event", "table", "players", "book", "revision", "kb_digest", "procedure",
              "outcome", "decision", "answers", "citations", "replay", "note", "overridden"]


@pytest.fixture
def jpath(tmp_path):
    return tmp_path / "journal.sqlite3"


@pytest.fixture
def clock(monkeypatch):
    """Rulings recorded at the times given, today, local time: `clock("21:14", "22:05")`."""
    import ruling.journal.store

    def set_times(*times):
        today = datetime.now().astimezone()
        stamps = iter([today.replace(hour=int(t[:2]), minute=int(t[3:]), second=0, microsecond=0).isoformat()
                       for t in times])
        monkeypatch.setattr(ruling.journal.store, "now", lambda: next(stamps))
    return set_times


@pytest.fixture
def rule(run, jpath):
    """`rule("decide", …)` with the test's journal."""
    def _rule(*args, kb_path=None, input=None):
        return run(*args, "--journal", jpath, kb_path=kb_path, input=input)
    return _rule


def listing(run, jpath, *args):
    result = run("journal", "--journal", jpath, *args)
    assert result.exit_code == 0, result.output
    return result


def entries(run, jpath, *args):
    return json.loads(listing(run, jpath, "--json", *args).stdout)["entries"]


HORS_TOUR = ("decide", "action-hors-tour", "--book", "club", "-a", "cas=repetition")
LADDER = ("decide", "echelle-des-sanctions", "--book", "club", "-a", "cas=choisir", "-a", "gravite=non")
AT_TABLE_3 = ("--event", EVENT, "--table", "3", "--player", "Dupont")


# -- recording ------------------------------------------------------------------------------------

def test_decide_records_the_ruling_with_every_key(rule, run, jpath, kb, clock):
    clock("21:14")
    result = rule("decide", "flop-irregulier", "--book", "club", "-a", "defaut=quatre-cartes", "-a", "ordre-connu=oui",
                  "--event", EVENT, "--table", "3", "--player", "Dupont", "--player", "Élodie Martin",
                  "--note", "réclamation du voisin")
    assert result.exit_code == 0, result.output
    assert "La quatrième carte du flop est brûlée" in result.stdout
    assert result.stdout.rstrip().endswith(f"Enregistré au journal : n° 1, événement « {EVENT} », fichier {jpath}.")
    [entry] = entries(run, jpath)
    assert list(entry) == ENTRY_KEYS
    assert entry["recorded_at"].startswith(datetime.now().date().isoformat() + "T21:14:00")
    assert (entry["event"], entry["table"], entry["players"]) == (EVENT, 3, ["Dupont", "Élodie Martin"])
    assert (entry["book"], entry["revision"], entry["kb_digest"]) == ("club", "v2", kb.digest)
    assert (entry["procedure"], entry["outcome"]) == ("flop-irregulier", "quatrieme-carte-brulee")
    assert entry["answers"] == {"defaut": "quatre-cartes", "ordre-connu": True}
    from ruling.decide.procedures import text_hash

    clause = kb.find("club:2-7")
    assert {"citation": "club:2-7", "hash": text_hash(clause.full_text)} in entry["citations"]
    assert entry["replay"] == "ruling decide flop-irregulier --book club -a defaut=quatre-cartes -a ordre-connu=oui"
    assert entry["note"] == "réclamation du voisin"
    assert entry["decision"] in result.stdout


def test_outcome_recorded_is_the_one_decided(rule, run, jpath):
    decided = json.loads(rule("decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature", "--json",
                              "--event", EVENT).stdout)
    [entry] = entries(run, jpath)
    assert entry["outcome"] == decided["outcome"] and entry["decision"] == decided["decision"]
    assert decided["journal"] == {"event": EVENT, "id": 1, "error": None, "recalled": []}


def test_nothing_recorded_and_output_unchanged_without_event(run, rule, jpath):
    args = ("decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature")
    plain = run(*args)
    with_path = rule(*args)
    assert with_path.stdout == plain.stdout and "journal" not in plain.stdout.lower()
    assert "journal" not in json.loads(rule(*args, "--json").stdout)
    assert not jpath.exists()


def test_default_path_follows_xdg_data_home(run, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert run(*HORS_TOUR, "--event", EVENT).exit_code == 0
    assert (tmp_path / "data" / "ruling" / "journal.sqlite3").is_file()
    monkeypatch.setenv("RULING_JOURNAL", str(tmp_path / "autre.sqlite3"))
    assert run(*HORS_TOUR, "--event", EVENT).exit_code == 0
    assert json.loads(run("journal", "--json").stdout)["entries"][0]["id"] == 1


def test_event_from_the_profile(rule, run, jpath, tmp_path):
    profile = tmp_path / "open.yaml"
    profile.write_text(f"event: {EVENT}\nformat: payant\n", encoding="utf-8")
    result = rule(*HORS_TOUR, "--profile", profile)
    assert result.exit_code == 0, result.output
    assert [e["event"] for e in entries(run, jpath)] == [EVENT]


def test_ask_records_the_ruling(rule, run, jpath):
    result = rule("ask", "flop", "quatre", "cartes", "--book", "club", "--event", EVENT, "--table", "7",
                  input="1\n3\no\n")
    assert result.exit_code == 0, result.output
    assert "Pour rejouer : ruling decide flop-irregulier --book club -a defaut=quatre-cartes -a ordre-connu=oui" in result.stdout
    assert "Enregistré au journal : n° 1" in result.stdout
    [entry] = entries(run, jpath)
    assert (entry["procedure"], entry["table"], entry["answers"]) == ("flop-irregulier", 7,
                                                                      {"defaut": "quatre-cartes", "ordre-connu": True})


def test_abandoned_questionnaire_records_nothing(rule, jpath):
    result = rule("ask", "flop", "--book", "club", "--event", EVENT, input="1\n")
    assert result.exit_code == 1 and "aucune décision" in result.stdout and not jpath.exists()


# -- the ladder remembers -----------------------------------------------------------------------------

def test_warning_then_the_same_fault_again_gives_the_next_step_of_15_1(rule, clock):
    clock("21:10", "21:14", "22:05", "22:06")
    assert rule(*HORS_TOUR, *AT_TABLE_3).exit_code == 0
    first = rule(*LADDER, *AT_TABLE_3)
    assert first.exit_code == 0, first.output
    assert "Premier degré de l'échelle ; le joueur peut recevoir un avertissement (warning)." in first.stdout
    assert ("D'après le journal : aucune sanction pour « action hors de son tour répétée » ; faute relevée "
            "à 21 h 10, table 3 (n° 1) → precedents=aucun") in first.stdout
    again = rule(*HORS_TOUR, *AT_TABLE_3)
    assert ("D'après le journal : même faute (« action hors de son tour répétée ») déjà relevée pour ce joueur "
            "à 21 h 10, table 3 (n° 1)") in again.stdout
    second = rule(*LADDER, "--event", EVENT, "--table", "3", "--player", "dupont")  # same player, typed otherwise
    assert second.exit_code == 0, second.output
    assert "La faute se répète après un avertissement ; le degré suivant est la suspension" in second.stdout
    assert ("D'après le journal : avertissement à 21 h 14, table 3 (n° 2) pour « action hors de son tour répétée », "
            "faute de nouveau relevée à 22 h 05, table 3 (n° 3) → precedents=avertissement") in second.stdout
    assert "Pour rejouer : ruling decide echelle-des-sanctions --book club -a cas=choisir -a gravite=non " \
           "-a precedents=avertissement" in second.stdout
    assert "club:15-1  [Règlement des tournois du club" in second.stdout


def test_the_td_overrides_the_journal(rule, run, jpath, clock):
    clock("21:10", "21:14", "22:05", "22:06")
    for args in (HORS_TOUR, LADDER, HORS_TOUR):
        rule(*args, *AT_TABLE_3)
    result = rule(*LADDER, "-a", "precedents=aucun", *AT_TABLE_3)
    assert "Premier degré de l'échelle" in result.stdout
    assert "→ precedents=avertissement ; réponse de l'arbitre retenue : precedents=aucun" in result.stdout
    assert entries(run, jpath)[-1]["outcome"] == "avertissement"


def test_another_player_or_fault_starts_the_ladder_again(rule, run, jpath):
    for args in (HORS_TOUR, LADDER):
        rule(*args, *AT_TABLE_3)
    rule(*HORS_TOUR, "--event", EVENT, "--player", "Durand")
    assert "precedents=aucun" in rule(*LADDER, "--event", EVENT, "--player", "Durand").stdout
    rule("decide", "telephone", "--book", "club", "-a", "usage=communication", *AT_TABLE_3)
    assert "precedents=aucun" in rule(*LADDER, *AT_TABLE_3).stdout  # Dupont's fault is now the telephone
    assert [e["outcome"] for e in entries(run, jpath)][-1] == "avertissement"


def test_without_a_player_or_a_recorded_fault_the_td_answers(rule):
    missing = rule(*LADDER, "--event", EVENT)
    assert missing.exit_code == 2 and "-a precedents=" in missing.stdout
    assert "Le journal peut répondre à precedents : donnez le joueur concerné (un seul --player)." in missing.stderr
    no_fault = rule(*LADDER, "--event", EVENT, "--player", "Dupont")
    assert no_fault.exit_code == 2 and "-a precedents=" in no_fault.stdout
    assert "aucune faute de ce joueur n'est enregistrée dans cet événement" in no_fault.stderr
    assert "Le journal" not in rule(*LADDER).stderr  # no event: no journal


def test_ask_proposes_the_journal_answer_and_enter_confirms(rule, run, jpath, clock):
    clock("21:10", "21:14", "22:05", "22:06")
    for args in (HORS_TOUR, LADDER, HORS_TOUR):
        rule(*args, *AT_TABLE_3)
    result = rule("ask", "échelle", "des", "sanctions", "--book", "club", *AT_TABLE_3, input="1\n1\nn\n\n")
    assert result.exit_code == 0, result.output
    assert ("D'après le journal : avertissement à 21 h 14, table 3 (n° 2) pour « action hors de son tour répétée », "
            "faute de nouveau relevée à 22 h 05, table 3 (n° 3) (Entrée pour confirmer") in result.stdout
    assert "Votre choix (1-3) [2]:" in result.stdout
    assert "le degré suivant est la suspension" in result.stdout
    assert entries(run, jpath)[-1]["outcome"] == "suspension"


def test_tda_repeated_faults_come_from_the_journal(rule, clock):
    clock("20:00", "20:01", "20:30", "20:31")
    tda = ("decide", "echelle-des-sanctions", "--book", "tda", "-a", "faute=faute-de-jeu", *AT_TABLE_3)
    rule("decide", "cartes-exposees-pendant-le-coup", "--book", "tda", "-a", "tapis=non", *AT_TABLE_3)
    first = rule(*tda)
    assert "D'après le journal : aucune sanction pour ce joueur dans cet événement → recidive=non" in first.stdout
    assert "La sanction est possible mais pas obligatoire" in first.stdout
    rule("decide", "comportement", "--book", "tda", "-a", "faute=injures", *AT_TABLE_3)
    second = rule(*tda)
    assert ("D'après le journal : sanction possible à 20 h 01, table 3 (n° 2) pour « main exposée pendant le coup » "
            "→ recidive=oui") in second.stdout
    assert "La faute est répétée : « Des fautes répétées entraînent une augmentation des sanctions. »" in second.stdout


def test_a_repeated_fault_question_is_answered_from_the_journal(rule, clock):
    clock("20:00", "20:40")
    string_bet = ("decide", "string-bet", "--book", "club", "-a", "annoncee=non", "-a", "une-fois=non", *AT_TABLE_3)
    first = rule(*string_bet)
    assert "aucune faute « string bet » relevée pour ce joueur dans cet événement → abus=non" in first.stdout
    second = rule(*string_bet)
    assert "D'après le journal : « string bet » déjà relevé à 20 h 00, table 3 (n° 1) → abus=oui" in second.stdout
    assert "peut en plus être sanctionné" in second.stdout


# -- replay, undo, exports, anonymisation --------------------------------------------------------------------

def test_replay_lists_the_rulings_a_changed_clause_would_change(rule, run, jpath, kb_copy):
    rule(*HORS_TOUR, *AT_TABLE_3, kb_path=kb_copy)
    rule("decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature", "--event", EVENT, kb_path=kb_copy)
    assert "aucune ne change" in listing(run, jpath, "--replay").stdout
    chapter = kb_copy / "club" / "15-sanctions.yaml"
    if not chapter.exists():
        chapter = next(p for p in (kb_copy / "club").glob("*.yaml") if "id: 15-1" in p.read_text(encoding="utf-8")
                       or "id: '15-1'" in p.read_text(encoding="utf-8") or 'id: "15-1"' in p.read_text(encoding="utf-8"))
    text = chapter.read_text(encoding="utf-8")
    assert "Disqualification définitive du tournoi." in text
    chapter.write_text(text.replace("Disqualification définitive du tournoi.", "Exclusion définitive du tournoi."),
                       encoding="utf-8")
    result = run("journal", "--journal", jpath, "--replay", kb_path=kb_copy)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "2 décision(s) rejouée(s) sur la base actuelle : 1 changerai(en)t."
    assert "n° 1" in result.stdout and "n° 2" not in result.stdout
    assert "texte de club:15-1 modifié" in result.stdout
    data = json.loads(run("journal", "--journal", jpath, "--replay", "--json", kb_path=kb_copy).stdout)
    [changed] = data["changed"]
    assert changed["id"] == 1 and changed["changes"][0] == "texte de club:15-1 modifié"
    assert changed["changes"][1].startswith("décision refusée : ")
    assert "le texte de club:15-1 a changé depuis l'écriture de la procédure action-hors-tour" in changed["changes"][1]


def test_replay_shows_a_changed_decision(rule, run, jpath, kb_copy):
    rule(*HORS_TOUR, "--event", EVENT, kb_path=kb_copy)
    proc = kb_copy / "club" / "procedures" / "action-hors-tour.yaml"
    proc.write_text(proc.read_text(encoding="utf-8").replace(
        "peut être sanctionné, selon l'échelle des sanctions.", "est sanctionné selon l'échelle des sanctions."),
        encoding="utf-8")
    data = json.loads(run("journal", "--journal", jpath, "--replay", "--json", kb_path=kb_copy).stdout)
    assert data["changed"][0]["changes"] == ["texte de la décision modifié"]
    assert data["changed"][0]["decision_new"].endswith("est sanctionné selon l'échelle des sanctions.")


def test_undo_marks_cancelled_and_never_deletes(rule, run, jpath):
    for args in (HORS_TOUR, LADDER):
        rule(*args, *AT_TABLE_3)
    result = run("journal", "--journal", jpath, "--undo", "2")
    assert result.exit_code == 0
    assert result.stdout.strip() == ("Décision n° 2 annulée (club:echelle-des-sanctions, avertissement) ; "
                                     "elle reste au journal, barrée.")
    text = listing(run, jpath).stdout
    struck = [line for line in text.splitlines() if "\u0336" in line]
    assert len(struck) == 1 and "(annulée le " in struck[0]
    assert struck[0].strip().startswith("2\u0336")
    assert "1 décision(s), 1 annulée(s)." in text
    data = json.loads(listing(run, jpath, "--json").stdout)
    assert [e["id"] for e in data["entries"]] == [1] and [c["id"] for c in data["cancelled"]] == [2]
    again = run("journal", "--journal", jpath, "--undo", "2")
    assert again.exit_code == 2 and "Erreur : la décision n° 2 est déjà annulée" in again.stderr
    unknown = run("journal", "--journal", jpath, "--undo", "9")
    assert unknown.exit_code == 2 and "aucune décision n° 9" in unknown.stderr
    assert "precedents=aucun" in rule(*LADDER, *AT_TABLE_3).stdout  # the cancelled warning no longer counts
    with sqlite3.connect(jpath) as db:
        assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == 3


def test_entries_cannot_be_rewritten_or_deleted(rule, jpath):
    rule(*HORS_TOUR, *AT_TABLE_3)
    db = sqlite3.connect(jpath)
    for sql in ("UPDATE entries SET outcome = 'autre'", "DELETE FROM entries", "DELETE FROM citations",
                "UPDATE citations SET text_hash = '000000'", "DELETE FROM entry_players"):
        with pytest.raises(sqlite3.DatabaseError, match="ajout seul"):
            db.execute(sql)
    db.close()
    db = sqlite3.connect(jpath, isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")  # as the journal opens it
    with pytest.raises(sqlite3.IntegrityError):  # no entry for an unknown event
        db.execute("INSERT INTO entries (recorded_at, event_id, book, revision, kb_digest, procedure, outcome, decision,"
                   " answers, replay) VALUES ('x', 99, 'club', 'v2', 'd', 'p', 'o', 'd', '{}', 'r')")
    db.close()


def test_csv_opens_in_a_spreadsheet_with_accents_intact(rule, run, jpath):
    rule(*HORS_TOUR, "--event", EVENT, "--player", "Élodie Müller", "--note", "=HYPERLINK(\"x\") réclamée")
    rule(*LADDER, "--event", EVENT, "--player", "Élodie Müller")
    run("journal", "--journal", jpath, "--undo", "1")
    data = listing(run, jpath, "--csv").stdout_bytes
    assert data.startswith(b"\xef\xbb\xbf")  # the BOM that tells a spreadsheet it is UTF-8
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert rows[0][:3] == ["n°", "date et heure", "événement"]
    assert rows[1][4] == "Élodie Müller" and rows[2][4] == "Élodie Müller"
    assert rows[1][11] == "'=HYPERLINK(\"x\") réclamée"  # never run as a formula
    assert rows[1][12] and not rows[2][12]  # the cancellation date
    assert ("Premier degré de l'échelle ; le joueur peut recevoir un avertissement (warning). 15-1 dit que les "
            "sanctions « pourront être prises dans l'ordre chronologique » : le texte le permet, il n'y oblige pas. "
            "Cette échelle vaut « Si une même faute se répète avec le même joueur ». Le règlement ne le précise pas ; "
            "pour une première faute, pas encore répétée, on lit que le directeur de tournoi peut aussi avertir le joueur, "
            "au titre de 15-2 (« se réservent le droit de sanctionner toute action nuisant au bon déroulement du tournoi "
            "ou au confort des ses participants »).") == rows[2][9]
    assert b"\r\n" in data


def test_markdown_for_the_newsletter(rule, run, jpath):
    rule(*HORS_TOUR, "--event", EVENT, "--player", "A|B <b>")
    rule(*LADDER, "--event", EVENT, "--player", "A|B <b>")
    run("journal", "--journal", jpath, "--undo", "1")
    text = listing(run, jpath, "--markdown").stdout
    assert text.startswith(f"## Journal — {EVENT}\n\n| n° | heure |")
    rows = [line for line in text.splitlines() if line.startswith("| ")][1:]
    assert rows[0].startswith("| ~~1~~ |") and rows[0].endswith("(annulée) |")
    assert "A\\|B &lt;b>" in rows[1] and "<b>" not in text


def test_filters_event_player_since(rule, run, jpath, clock):
    clock("09:00", "10:30", "11:45")
    rule(*HORS_TOUR, "--event", EVENT, "--player", "Dupont")
    rule(*HORS_TOUR, "--event", "Tournoi du jeudi", "--player", "Durand")
    rule(*HORS_TOUR, "--event", EVENT, "--player", "Durand")
    assert [e["id"] for e in entries(run, jpath, "--event", EVENT)] == [1, 3]
    assert [e["id"] for e in entries(run, jpath, "--player", "durand")] == [2, 3]
    assert [e["id"] for e in entries(run, jpath, "--since", "10:00")] == [2, 3]
    today = datetime.now().date().isoformat()
    assert [e["id"] for e in entries(run, jpath, "--since", f"{today} 11:00")] == [3]
    assert len(entries(run, jpath, "--since", today)) == 3
    bad = run("journal", "--journal", jpath, "--since", "hier")
    assert bad.exit_code == 2 and "--since « hier » invalide ; attendu une date AAAA-MM-JJ" in bad.stderr
    assert json.loads(run("journal", "--journal", jpath, "--since", "hier", "--json").stdout)["error"]["message"].startswith("--since")


def test_listing_an_absent_journal_creates_nothing(run, jpath, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("RULING_JOURNAL", raising=False)
    result = run("journal")  # the default journal, nothing recorded yet
    assert result.exit_code == 0 and result.stdout.strip() == "Aucune décision enregistrée."
    assert json.loads(run("journal", "--json").stdout) == {"entries": [], "cancelled": []}
    assert not (tmp_path / "data").exists()
    typo = run("journal", "--journal", jpath)  # a file named on purpose that is not there: a typo
    assert typo.exit_code == 2 and not typo.stdout
    assert typo.stderr.strip() == (f"Erreur : aucun journal à {jpath} ; vérifiez le chemin donné à --journal "
                                   "(ou RULING_JOURNAL)")
    assert "aucun journal à" in json.loads(run("journal", "--journal", jpath, "--json").stdout)["error"]["message"]
    assert not jpath.exists()


@pytest.mark.parametrize("args, message", [
    (("--json", "--csv"), "--json, --csv et --markdown s'excluent"),
    (("--replay", "--undo", "1"), "--replay et --undo s'excluent"),
    (("--undo", "1", "--csv"), "--undo ne s'exporte pas en CSV ni en Markdown"),
])
def test_conflicting_options(run, jpath, args, message):
    result = run("journal", "--journal", jpath, *args)
    assert result.exit_code == 2
    if "--json" in args:  # with --json the error is the JSON document on stdout
        assert message in json.loads(result.stdout)["error"]["message"] and not result.stderr
    else:
        assert message in result.stderr


def test_bad_event_and_player(rule):
    assert "--event vide" in rule(*HORS_TOUR, "--event", " ").stderr
    assert "--player vide" in rule(*HORS_TOUR, "--event", EVENT, "--player", " ").stderr


# -- several TDs at once; schema ------------------------------------------------------------------------------

def _record_many(args):
    path, worker, count = args
    from ruling.journal.store import Entry, Journal, Player

    for k in range(count):
        with Journal(path) as journal:
            journal.record(Entry(event=EVENT, book="club", revision="v2", kb_digest="d", procedure="p",
                                 outcome="o", decision=f"{worker}-{k}", answers={"k": k}, replay="r",
                                 players=[Player(f"joueur {worker}")]))


def test_eight_processes_recording_at_once_lose_nothing(jpath):
    with multiprocessing.get_context("spawn").Pool(8) as pool:
        pool.map(_record_many, [(str(jpath), w, 25) for w in range(8)])
    with sqlite3.connect(jpath) as db:
        decisions = [r[0] for r in db.execute("SELECT decision FROM entries ORDER BY id")]
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert sorted(decisions) == sorted(f"{w}-{k}" for w in range(8) for k in range(25))


def test_eight_cli_processes_at_once(tmp_path):
    env = {**os.environ, "RULING_JOURNAL": str(tmp_path / "j.sqlite3"), "RULING_KB": str(RULEBOOK)}
    procs = [subprocess.Popen([sys.executable, "-m", "ruling", *HORS_TOUR, "--event", EVENT, "--player", f"J{k}"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(8)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    numbers = sorted(int(o[0].split("Enregistré au journal : n° ")[1].split(",")[0]) for o in outs)
    assert numbers == list(range(1, 9))


def test_schema_version_and_migrations(jpath, monkeypatch):
    import ruling.journal.store as journal

    with journal.Journal(jpath):
        pass
    with sqlite3.connect(jpath) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == journal.SCHEMA_VERSION
    step = "CREATE TABLE later_step (x INTEGER);"
    monkeypatch.setattr(journal, "MIGRATIONS", journal.MIGRATIONS + [step])
    monkeypatch.setattr(journal, "SCHEMA_VERSION", journal.SCHEMA_VERSION + 1)
    with journal.Journal(jpath):
        pass
    with sqlite3.connect(jpath) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == journal.SCHEMA_VERSION
        assert db.execute("SELECT count(*) FROM later_step").fetchone()[0] == 0


# -- a journal that cannot record: the ruling is still given -----------------------------------------------

def _assert_ruling_kept(result, message):
    assert result.exit_code == 2, result.output
    assert "Premier degré de l'échelle" not in result.stdout
    assert "Le joueur qui agit hors de son tour de manière répétitive peut être sanctionné" in result.stdout
    assert "Pour rejouer : ruling decide action-hors-tour --book club -a cas=repetition" in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Erreur : ") and message in lines[0]
    assert lines[0].endswith("la décision ci-dessus n'est pas enregistrée, pour la rejouer : "
                             "ruling decide action-hors-tour --book club -a cas=repetition")
    assert "Traceback" not in result.output


def test_locked_journal(rule, jpath, monkeypatch):
    import ruling.journal.store

    rule(*HORS_TOUR, "--event", EVENT)
    monkeypatch.setattr(ruling.journal.store, "LOCK_TIMEOUT", 0.2)
    holder = sqlite3.connect(jpath, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        _assert_ruling_kept(rule(*HORS_TOUR, *AT_TABLE_3), "est verrouillé par un autre programme")
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_corrupt_journal(rule, jpath):
    jpath.write_bytes(b"ceci n'est pas une base" * 200)
    _assert_ruling_kept(rule(*HORS_TOUR, *AT_TABLE_3), "est endommagé (ce n'est pas une base SQLite lisible)")
    assert jpath.read_bytes().startswith(b"ceci n'est pas une base")  # left as found


def test_newer_schema(rule, run, jpath):
    rule(*HORS_TOUR, "--event", EVENT)
    with sqlite3.connect(jpath) as db:
        db.execute("PRAGMA user_version = 99")
    _assert_ruling_kept(rule(*HORS_TOUR, "--event", EVENT), "vient d'une version plus récente de ruling (schéma 99")
    listed = run("journal", "--journal", jpath)
    assert listed.exit_code == 2 and "version plus récente" in listed.stderr


def test_read_only_journal(rule, jpath):
    rule(*HORS_TOUR, "--event", EVENT)
    if os.geteuid() == 0:  # root writes through permissions: make the file immutable instead
        if subprocess.run(["chattr", "+i", str(jpath)], capture_output=True).returncode != 0:
            pytest.skip("chattr +i indisponible")
        undo = ["chattr", "-i", str(jpath)]
    else:
        jpath.chmod(0o444)
        undo = ["chmod", "644", str(jpath)]
    try:
        _assert_ruling_kept(rule(*HORS_TOUR, *AT_TABLE_3), "est en lecture seule")
    finally:
        subprocess.run(undo, check=True)


def test_json_error_when_the_journal_cannot_record(rule, jpath):
    jpath.write_bytes(b"x" * 4096)
    result = rule(*HORS_TOUR, "--event", EVENT, "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["outcome"] == "sanction" and data["journal"]["id"] is None
    assert "est endommagé" in data["journal"]["error"]


def test_a_journal_spec_the_procedure_cannot_honour_is_refused(run, kb_copy):
    proc = kb_copy / "club" / "procedures" / "echelle-des-sanctions.yaml"
    proc.write_text(proc.read_text(encoding="utf-8").replace("steps: {avertissement: avertissement,",
                                                             "steps: {avertissement: blame,"), encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert ("journal de la question « precedents » : la réponse « blame » n'est pas un choix de la question"
            in result.output)
    string_bet = kb_copy / "club" / "procedures" / "string-bet.yaml"
    string_bet.write_text(string_bet.read_text(encoding="utf-8").replace("\n    fault: string-bet\n", "\n    fault: autre\n", 1),
                          encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert "relève la faute « autre » que la procédure ne déclare pas dans faults" in result.output


# -- the site's history page: a published event log replayed ----------------------------------------------

def test_history_page_replays_a_published_event_log(rule, run, jpath, kb_copy, tmp_path):
    from ruling.kb.load import load_kb
    from ruling.site.build import read_event_logs
    from ruling.site.pages import SitePages

    rule(*HORS_TOUR, *AT_TABLE_3, kb_path=kb_copy)
    rule("decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature", "--event", EVENT, kb_path=kb_copy)
    logs = tmp_path / "journaux"
    logs.mkdir()
    exported = run("journal", "--journal", jpath, "--anonymise", EVENT, "--output", logs / "open-du-club.json")
    assert exported.exit_code == 0 and not exported.stdout, exported.output
    proc = kb_copy / "club" / "procedures" / "action-hors-tour.yaml"
    proc.write_text(proc.read_text(encoding="utf-8").replace(
        "peut être sanctionné, selon l'échelle des sanctions.", "est sanctionné selon l'échelle des sanctions."),
        encoding="utf-8")
    site = SitePages(load_kb(kb_copy))
    site.event_logs = read_event_logs(logs)
    page = site.render()["historique.md"]
    assert "## Décisions publiées, rejouées sur les règles actuelles" in page
    assert "### open&#45;du&#45;club" in page
    assert "2 décision(s) rejouée(s), 1 changerai(en)t :" in page
    [row] = [line for line in page.splitlines() if line.startswith("| 1 |")]
    assert "texte de la décision modifié" in row and "Dupont" not in page
    assert not [line for line in page.splitlines() if line.startswith("| 2 |")]
    (logs / "autre.json").write_text('{"entrées": []}', encoding="utf-8")
    with pytest.raises(Exception, match="le journal publié autre.json n'est pas un export de « ruling journal --json »"):
        read_event_logs(logs)
    assert "ruling-journaux" not in SitePages(load_kb(kb_copy)).render()["historique.md"]  # no log, no section


def test_a_journal_that_cannot_be_created(run, tmp_path):
    blocker = tmp_path / "fichier"
    blocker.write_text("pas un dossier", encoding="utf-8")
    result = run(*HORS_TOUR, "--event", EVENT, "--journal", blocker / "j.sqlite3")
    _assert_ruling_kept(result, f"le journal {blocker / 'j.sqlite3'} ne peut pas être créé : le dossier {blocker} "
                                "n'est pas un dossier ; créez-le ou choisissez un autre fichier avec --journal")


# -- the outside TD trial (issue 17 follow-up) ------------------------------------------------------------

def test_asking_the_ladder_again_without_a_new_fault_does_not_climb(rule, run, jpath, clock):
    clock("21:10", "21:14", "22:05", "22:06")
    rule(*HORS_TOUR, *AT_TABLE_3)
    assert "Premier degré de l'échelle" in rule(*LADDER, *AT_TABLE_3).stdout
    again = rule(*LADDER, *AT_TABLE_3)  # the same offence, asked again: no answer from the journal
    assert again.exit_code == 2 and "-a precedents=" in again.stdout and "D'après le journal" not in again.stdout
    assert ("Le journal ne répond pas à precedents : la dernière faute relevée pour ce joueur (« action hors de son "
            "tour répétée » à 21 h 10, table 3 (n° 1)) est déjà sanctionnée : avertissement à 21 h 14, table 3 "
            "(n° 2) ; une faute ne monte l'échelle qu'une fois : enregistrez la nouvelle faute d'abord, ou "
            "répondez vous-même.") in again.stderr
    rule(*HORS_TOUR, *AT_TABLE_3)  # a new fault (n° 3): now the ladder climbs, once
    second = rule(*LADDER, *AT_TABLE_3)
    assert "le degré suivant est la suspension" in second.stdout
    assert "faute de nouveau relevée à 22 h 05, table 3 (n° 3) → precedents=avertissement" in second.stdout
    third = rule(*LADDER, *AT_TABLE_3)
    assert third.exit_code == 2 and "disqualifié" not in third.stdout
    assert "est déjà sanctionnée : suspension à 22 h 06, table 3 (n° 4)" in third.stderr
    assert [e["outcome"] for e in entries(run, jpath)] == ["sanction", "avertissement", "sanction", "suspension"]
    with sqlite3.connect(jpath) as db:
        assert db.execute("SELECT id, answers_entry FROM entries WHERE procedure = 'echelle-des-sanctions'"
                          ).fetchall() == [(2, 1), (4, 3)]


def test_eight_terminals_asking_the_ladder_for_one_fault_give_one_step(tmp_path):
    env = {**os.environ, "RULING_JOURNAL": str(tmp_path / "j.sqlite3"), "RULING_KB": str(RULEBOOK)}
    first = subprocess.run([sys.executable, "-m", "ruling", *HORS_TOUR, *AT_TABLE_3], env=env, capture_output=True,
                           text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    procs = [subprocess.Popen([sys.executable, "-m", "ruling", *LADDER, *AT_TABLE_3], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(8)]
    outs = [p.communicate(timeout=180) for p in procs]
    codes = [p.returncode for p in procs]
    assert codes.count(0) == 1, outs
    assert all("sanctionnée" in err for (_, err), code in zip(outs, codes) if code != 0), outs
    with sqlite3.connect(tmp_path / "j.sqlite3") as db:
        assert db.execute("SELECT outcome, answers_entry FROM entries ORDER BY id").fetchall() == [
            ("sanction", None), ("avertissement", 1)]


def test_a_version_1_journal_is_migrated_and_keeps_its_entries(jpath, run, monkeypatch):
    import ruling.journal.store as store

    db = sqlite3.connect(jpath, isolation_level=None)  # a journal written by the first release (schema 1)
    for statement in store._statements(store.MIGRATIONS[0]):
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO events (name, created_at) VALUES (?, '2026-11-30T21:00:00+01:00')", (EVENT,))
    db.execute("INSERT INTO entries (recorded_at, event_id, book, revision, kb_digest, procedure, outcome, decision, "
               "answers, replay) VALUES ('2026-11-30T21:00:00+01:00', 1, 'club', 'v2', 'd', 'p', 'o', 'ancienne', "
               "'{}', 'r')")
    db.close()
    [entry] = entries(run, jpath)
    assert entry["decision"] == "ancienne" and entry["overridden"] == {}
    with sqlite3.connect(jpath) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        with pytest.raises(sqlite3.DatabaseError, match="ajout seul"):
            db.execute("UPDATE entries SET answers_entry = 1")


def test_anonymise_exports_and_leaves_the_journal_untouched(rule, run, jpath, tmp_path):
    rule(*HORS_TOUR, "--event", EVENT, "--table", "1", "--player", "Élodie Martin@4",
         "--note", "Élodie Martin conteste ; Martin dit qu'Élodie n'a pas vu, ÉLODIE insiste")
    rule(*HORS_TOUR, "--event", EVENT, "--table", "2", "--player", "Élodie Martin@4", "--player", "Durand")
    rule(*HORS_TOUR, "--event", EVENT, "--table", "1", "--player", "Durand", "--note", "Durand")
    before = jpath.read_bytes()
    result = run("journal", "--journal", jpath, "--anonymise", EVENT)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["entries", "cancelled"] and list(data["entries"][0]) == ENTRY_KEYS
    assert [e["players"] for e in data["entries"]] == [["table 1, siège 4"], ["table 2, siège 4", "table 2, joueur 1"],
                                                        ["table 1, joueur 1"]]
    assert data["entries"][0]["note"] == ("[table 1, siège 4] conteste ; [table 1, siège 4] dit qu'[table 1, siège 4] "
                                          "n'a pas vu, [table 1, siège 4] insiste")
    assert data["entries"][2]["note"] == "[table 1, joueur 1]"
    assert "Élodie" not in result.stdout and "Martin" not in result.stdout and "Durand" not in result.stdout
    assert jpath.read_bytes() == before  # never rewritten
    assert entries(run, jpath)[0]["players"] == ["Élodie Martin"]
    out = tmp_path / "open.json"
    written = run("journal", "--journal", jpath, "--anonymise", EVENT, "--output", out)
    assert written.exit_code == 0 and not written.stdout and f"Export écrit dans {out}." in written.stderr
    assert json.loads(out.read_text(encoding="utf-8")) == data
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".open.json")]  # no temporary left
    unknown = run("journal", "--journal", jpath, "--anonymise", "Nulle part")
    assert unknown.exit_code == 2 and "aucune décision pour l'événement « Nulle part »" in unknown.stderr
    nowhere = run("journal", "--journal", jpath, "--anonymise", EVENT, "--output", tmp_path / "absent" / "x.json")
    assert nowhere.exit_code == 2 and "le dossier" in nowhere.stderr and "n'existe pas" in nowhere.stderr


def test_the_journal_file_is_named_and_a_new_one_is_said(run, tmp_path):
    path = tmp_path / "soir.sqlite3"
    first = run(*HORS_TOUR, "--event", EVENT, "--journal", path)
    assert first.exit_code == 0
    assert f"Enregistré au journal : n° 1, événement « {EVENT} », fichier {path}." in first.stdout
    assert first.stderr.strip() == f"nouveau journal créé : {path}"
    second = run(*HORS_TOUR, "--event", EVENT, "--journal", path)
    assert "nouveau journal" not in second.stderr and "n° 2" in second.stdout
    typo = tmp_path / "tournois" / "open.sqlite3"  # a folder that does not exist: refused, never created
    refused = run(*HORS_TOUR, "--event", EVENT, "--journal", typo)
    assert refused.exit_code == 2 and "la décision ci-dessus n'est pas enregistrée" in refused.stderr
    assert (f"le journal {typo} ne peut pas être créé : le dossier {typo.parent} n'existe pas ; créez-le ou "
            "choisissez un autre fichier avec --journal") in refused.stderr
    assert not typo.parent.exists()


def test_the_default_journal_folder_is_created_and_said(run, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("RULING_JOURNAL", raising=False)
    result = run(*HORS_TOUR, "--event", EVENT)
    path = tmp_path / "data" / "ruling" / "journal.sqlite3"
    assert result.exit_code == 0 and path.is_file()
    assert result.stderr.splitlines() == [f"Dossier créé pour le journal : {path.parent}",
                                          f"nouveau journal créé : {path}"]


def test_an_event_typed_without_accents_is_the_existing_one(rule, run, jpath):
    rule(*HORS_TOUR, "--event", "Soirée du jeudi", "--player", "Dupont")
    typed = rule(*LADDER, "--event", "soiree DU jeudi", "--player", "Dupont")
    assert typed.exit_code == 0, typed.output
    assert "Événement « soiree DU jeudi » lu comme « Soirée du jeudi », déjà au journal." in typed.stderr
    assert "D'après le journal : aucune sanction pour « action hors de son tour répétée »" in typed.stdout
    assert "événement « Soirée du jeudi »" in typed.stdout
    listed = run("journal", "--journal", jpath, "--event", "Soiree du jeudi", "--json")
    assert [e["event"] for e in json.loads(listed.stdout)["entries"]] == ["Soirée du jeudi"] * 2
    assert "lu comme « Soirée du jeudi »" in listed.stderr
    missing = run("journal", "--journal", jpath, "--event", "Soirée du jeud")
    assert missing.exit_code == 2
    assert missing.stderr.strip() == (f"Erreur : aucune décision pour l'événement « Soirée du jeud » dans le journal "
                                      f"{jpath} ; vouliez-vous dire « Soirée du jeudi » ?")
    far = run("journal", "--journal", jpath, "--event", "Championnat")
    assert far.exit_code == 2 and far.stderr.rstrip().endswith("; événements du journal : « Soirée du jeudi »")


def test_kb_after_the_journal_command(rule, run, jpath, kb_copy):
    rule(*HORS_TOUR, "--event", EVENT)
    result = run("journal", "--journal", jpath, "--replay", "--kb", kb_copy)
    assert result.exit_code == 0, result.output
    assert "1 décision(s) rejouée(s) sur la base actuelle : aucune ne change." in result.stdout


def test_markdown_keeps_the_whole_decision_and_the_note(rule, run, jpath):
    note = "Le joueur *conteste*, puis accepte ; voir `15-1` <ici> (2, 3)"
    decided = json.loads(rule(*LADDER, "-a", "precedents=avertissement", "--event", EVENT, "--note", note,
                              "--json").stdout)
    assert len(decided["decision"]) > 160 and "," in decided["decision"]
    text = listing(run, jpath, "--markdown").stdout
    [row] = [line for line in text.splitlines() if line.startswith("| 1 |")]
    assert decided["decision"].replace("_", "\\_") in row  # whole, commas kept
    assert "caractères)" not in row
    assert row.endswith("| Le joueur \\*conteste\\*, puis accepte ; voir \\`15-1\\` &lt;ici> (2, 3) |")
    assert text.splitlines()[2].endswith("| règles citées | note |")


def test_replay_gives_the_new_decision_of_a_changed_cited_text(rule, run, jpath, kb_copy):
    rule(*LADDER, "-a", "precedents=avertissement", "--event", EVENT, kb_path=kb_copy)
    chapter = next(p for p in (kb_copy / "club").glob("*.yaml") if "Disqualification définitive du tournoi." in
                   p.read_text(encoding="utf-8"))
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("Disqualification définitive du tournoi.",
                                                                   "Exclusion définitive du tournoi."), encoding="utf-8")
    data = json.loads(run("journal", "--journal", jpath, "--replay", "--json", kb_path=kb_copy).stdout)
    [changed] = data["changed"]
    assert changed["changes"][0] == "texte de club:15-1 modifié"
    assert changed["decision_new"] == changed["decision_old"] and changed["decision_new"].startswith("La faute se répète")
    assert changed["decision_new_missing"] is None
    text = run("journal", "--journal", jpath, "--replay", kb_path=kb_copy).stdout
    [line] = [line for line in text.splitlines() if line.startswith("  n° 1")]
    assert line.endswith(changed["changes"][-1]) and len(line) > 308  # the whole reason, never cut
    assert "caractères)" not in text


def test_replay_says_why_there_is_no_new_decision(rule, run, jpath, kb_copy):
    rule(*HORS_TOUR, "--event", EVENT, kb_path=kb_copy)
    (kb_copy / "club" / "procedures" / "action-hors-tour.yaml").unlink()
    for scenario in (kb_copy / "club" / "scenarios").glob("action-hors-tour*"):
        scenario.unlink()
    phrasings = yaml.safe_load((kb_copy / "phrasings.yaml").read_text(encoding="utf-8"))
    del phrasings["situations"]["club:action-hors-tour"]  # else a phrasing of a procedure that is gone
    (kb_copy / "phrasings.yaml").write_text(yaml.safe_dump(phrasings, allow_unicode=True), encoding="utf-8")
    data = json.loads(run("journal", "--journal", jpath, "--replay", "--json", kb_path=kb_copy).stdout)
    [changed] = data["changed"]
    assert changed["decision_new"] is None
    assert changed["decision_new_missing"] == "la procédure club:action-hors-tour n'existe plus"
    text = run("journal", "--journal", jpath, "--replay", kb_path=kb_copy).stdout
    assert "      pas de décision actuelle : la procédure club:action-hors-tour n'existe plus" in text


def test_the_td_override_is_recorded_and_shown(rule, run, jpath, clock):
    clock("21:10", "21:14", "22:05", "22:06")
    for args in (HORS_TOUR, LADDER, HORS_TOUR):
        rule(*args, *AT_TABLE_3)
    rule(*LADDER, "-a", "precedents=aucun", *AT_TABLE_3)
    recorded = entries(run, jpath)
    assert recorded[-1]["overridden"] == {"precedents": "avertissement"} and recorded[1]["overridden"] == {}
    assert recorded[-1]["answers"]["precedents"] == "aucun"
    text = listing(run, jpath).stdout
    assert "      réponse du journal écartée par l'arbitre : precedents=avertissement" in text
    rows = list(csv.reader(io.StringIO(listing(run, jpath, "--csv").stdout_bytes.decode("utf-8-sig"), newline=""),
                           delimiter=";"))
    assert rows[0][-1] == "réponse du journal écartée" and rows[4][-1] == "precedents=avertissement"
    assert rows[2][-1] == ""


def test_ask_says_why_the_journal_leaves_a_sanctioned_fault_to_the_td(rule, run, jpath, clock):
    clock("21:10", "21:14", "21:20")
    rule(*HORS_TOUR, *AT_TABLE_3)
    rule(*LADDER, *AT_TABLE_3)
    result = rule("ask", "échelle", "des", "sanctions", "--book", "club", *AT_TABLE_3, input="1\n1\nn\n1\n")
    assert result.exit_code == 0, result.output
    assert ("Le journal ne répond pas à precedents : la dernière faute relevée pour ce joueur (« action hors de son "
            "tour répétée » à 21 h 10, table 3 (n° 1)) est déjà sanctionnée : avertissement à 21 h 14, table 3 (n° 2)"
            ) in result.stdout
    assert "Votre choix (1-3):" in result.stdout and "D'après le journal" not in result.stdout
    assert [e["outcome"] for e in entries(run, jpath)] == ["sanction", "avertissement", "avertissement"]
