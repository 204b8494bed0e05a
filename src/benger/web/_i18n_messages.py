"""English texts of the study platform's server messages (``StudyError`` templates), states and progress, and
of the pages added with the lifecycle, accounts, consent and progress.

Kept beside benger.web._i18n (which merges them into its ``EN`` table) so that table stays one module's size.
"""

from __future__ import annotations

# fmt: off
MESSAGES_EN: dict[str, str] = {
    # server messages (StudyError templates)
    "Unbekannte Rolle(n) {roles}; erlaubt sind: {allowed}": "Unknown role(s) {roles}; allowed: {allowed}",
    "Ein Passwort braucht mindestens {n} Zeichen.": "A password needs at least {n} characters.",
    "Ein Benutzername braucht 1 bis 100 Zeichen.": "A user name needs 1 to 100 characters.",
    "Ein Benutzername darf keine Steuer- oder Formatzeichen enthalten (Zeichen {position}: U+{code}).":
        "A user name may not contain control or formatting characters (character {position}: U+{code}).",
    "Der Benutzername {name} ist bereits vergeben.": "The user name {name} is taken.",
    "Dieses Konto gibt es nicht.": "This account does not exist.",
    "Es gibt kein Konto {name}.": "There is no account {name}.",
    "Es gibt keine Studie mit dem Namen oder der Nummer {ref}; die Studien (Nummer Name): {known}.":
        "There is no study named or numbered {ref}; the studies (id name): {known}.",
    "Das bisherige Passwort ist falsch.": "The current password is wrong.",
    "Dieser Einladungslink ist ungültig, benutzt oder abgelaufen.": "This invitation link is invalid, used or expired.",
    "{label} muss eine ganze Zahl von {low} bis {high} sein (angegeben: {value}).":
        "{label} must be a whole number from {low} to {high} (given: {value}).",
    "Der Seed": "The seed",
    "Die Bearbeitungszeit in Sekunden": "The time limit in seconds",
    "Bitte einen Namen für die Studie angeben.": "Please give the study a name.",
    "Den Korpus {corpus} gibt es im Speicher nicht.": "The store has no corpus {corpus}.",
    "Der Korpus {corpus} hat keine Falllösungsaufgaben.": "Corpus {corpus} has no case-solution tasks.",
    "Eine Studie namens {name} gibt es bereits.": "A study named {name} exists already.",
    "Aufgabe {task} gehört nicht zu dieser Studie.": "Task {task} is not part of this study.",
    "Eine Aufgabenautorin / ein Aufgabenautor braucht die Rolle creator.": "A task author needs the creator role.",
    "Das Konto {account} gibt es für diese Studie nicht.": "There is no account {account} for this study.",
    "Bitte einen Ausbildungsstand wählen.": "Please choose a level of training.",
    "Die Kompetenz in {area} muss 1 bis 5 sein.": "The competence in {area} must be 1 to 5.",
    "Die Examensnote muss zwischen 0 und 18 Punkten liegen.": "The exam grade must be between 0 and 18 points.",
    "Die Anmeldung ist gerade überlastet; bitte erneut versuchen.": "Enrolment is busy right now; please try again.",
    "Aufgabe {task} ist Ihnen nicht zugeordnet.": "Task {task} is not assigned to you.",
    "Aufgabe {task} ist nicht in Bearbeitung ({status}).": "Task {task} is not in progress ({status}).",
    "Aufgabe {task} ist bereits abgegeben.": "Task {task} is submitted already.",
    "Aufgabe {task} ist bereits {status}.": "Task {task} is {status} already.",
    "Aufgabe {task} wurde noch nicht gestartet.": "Task {task} has not been started.",
    "Aufgabe {task} ist bereits {status} und kann nicht mehr übersprungen werden.":
        "Task {task} is {status} already and can no longer be skipped.",
    "Die Studie {study} gibt es nicht.": "Study {study} does not exist.",
    "Das ist im Zustand „{state}“ der Studie nicht möglich (erlaubt: {allowed}).":
        "This is not possible while the study is “{state}” (allowed: {allowed}).",
    "Die Studie hat bereits Picks und kann nicht wieder geöffnet werden.":
        "The study has picks already and cannot be reopened.",
    "Die Bewertungen haben begonnen; Picks und Zuweisungen können nicht mehr geändert werden.":
        "Reviews have started; picks and assignments can no longer change.",
    "Die Studie hat keine abgegebene Lösung; Picks brauchen mindestens eine Abgabe mit Text "
    "(eine geschlossene Studie ohne Picks kann wieder geöffnet werden; nur LLM-Lösungen: --llm-only).":
        "The study has no submitted solution; picks need at least one submission with text "
        "(a closed study without picks can be opened again; LLM solutions only: --llm-only).",
    "Die Picks wurden gerade gleichzeitig ausgewählt; bitte neu laden.":
        "The picks were just selected at the same time; please reload.",
    "Die Bewertungen wurden gerade gleichzeitig zugewiesen; bitte neu laden.":
        "The reviews were just assigned at the same time; please reload.",
    "Es gibt keine Picks; bitte zuerst die Picks auswählen.": "There are no picks; please select the picks first.",
    "{label}: Punkte fehlen": "{label}: points missing",
    "{label}: {value} ist keine Zahl": "{label}: {value} is not a number",
    "{label}: Punkte müssen zwischen 0 und {max} in Schritten von {step} liegen":
        "{label}: points must lie between 0 and {max} in steps of {step}",
    "Begründung fehlt für: {dimensions}": "Justification missing for: {dimensions}",
    "Diese Bewertung wurde inzwischen abgegeben.": "This review has been submitted meanwhile.",
    "Diese Bewertung ist abgegeben; für Änderungen bitte eine Korrektur anlegen.":
        "This review is submitted; open a correction to change it.",
    "Diese Bewertung wurde gleichzeitig gespeichert; bitte die Seite neu laden.":
        "This review was saved at the same time; please reload the page.",
    "Die beiden neuen Passwörter stimmen nicht überein.": "The two new passwords differ.",
    "Bitte Zahlen angeben (Kompetenz 1 bis 5, Note 0 bis 18).":
        "Please enter numbers (competence 1 to 5, grade 0 to 18).",
    "Diese Aufgabe gibt es nicht.": "This task does not exist.",
    "Bitte bestätigen Sie die Einwilligung und den Datenschutzhinweis.":
        "Please confirm the consent and the privacy notice.",
    "Bitte geben Sie einen Grund für das Überspringen an.": "Please give a reason for skipping.",
    "Das eigene Konto kann nicht deaktiviert werden.": "You cannot deactivate your own account.",
    "Die eigene Admin-Rolle kann nicht entzogen werden.": "You cannot remove your own admin role.",
    "Unbekannter Schritt {action}.": "Unknown step {action}.",
    "Aufgabe {task} hat keine Autorin / keinen Autor, also fehlt die Ersteller-Bewertung von Pick {pick}.":
        "Task {task} has no author, so pick {pick} has no creator review.",
    "Pick {pick} ({area}) hat {n} mögliche Blindbewerter/innen, braucht {needed}.":
        "Pick {pick} ({area}) has {n} eligible blind graders, needs {needed}.",
    "Ungültige Angabe in: {fields}": "Invalid value in: {fields}",
    "Diese Seite gibt es nicht.": "This page does not exist.",
    "Diese Aktion ist hier nicht möglich.": "This action is not possible here.",
    "Die Anfrage ist fehlgeschlagen.": "The request failed.",
    "Die Anfrage ist zu groß: höchstens {mib} MiB.": "The request is too large: at most {mib} MiB.",
    # states and progress
    "geöffnet": "open",
    "geschlossen": "closed",
    "Picks ausgewählt": "picks selected",
    "in Bewertung": "in review",
    "abgeschlossen": "done",
    "gestartet": "started",
    # pages added with the lifecycle, accounts, consent and progress
    "Noch 15 Minuten.": "15 minutes left.",
    "Noch 5 Minuten – bitte zum Ende kommen.": "5 minutes left – please finish.",
    "Kopiert": "Copied",
    "Kopieren": "Copy",
    "Zum Inhalt springen": "Skip to content",
    "Hauptnavigation": "Main navigation",
    "Konto": "Account",
    "Das Passwort wurde geändert. Andere Sitzungen wurden beendet.":
        "The password was changed. Other sessions were ended.",
    "Passwort ändern": "Change password",
    "Bisheriges Passwort": "Current password",
    "Neues Passwort (mindestens 8 Zeichen)": "New password (at least 8 characters)",
    "Neues Passwort wiederholen": "Repeat the new password",
    "Worum es geht": "What this is about",
    "Aufgaben": "Tasks",
    "Falllösungen": "case solutions",
    "Die Uhr läuft ab dem Start auf dem Server; bei Ablauf wird Ihr letzter Entwurf abgegeben.":
        "The clock runs on the server from the start; when it runs out, your last draft is submitted.",
    "Jede Aufgabe hat eine Arbeitsweise: klassisch (ohne KI) oder Ko-Kreation (mit einem KI-Werkzeug Ihrer Wahl). "
    "Die Arbeitsweise wird zufällig und ausgewogen zugeteilt.":
        "Each task has a working mode: traditional (without AI) or co-creation (with an AI tool of your choice). "
        "Modes are assigned at random and balanced.",
    "Sie können eine Aufgabe vor dem Start mit Begründung überspringen. Übersprungene Aufgaben werden mit ihrer "
    "Arbeitsweise erfasst und ausgewertet.":
        "You may skip a task before starting it, giving a reason. Skipped tasks are recorded and analysed with "
        "their working mode.",
    "Danach: Einige Lösungen werden ausgewählt und von Fachleuten blind (ohne Ihren Namen) nach einem "
    "Bewertungsschema bewertet.":
        "Afterwards, some solutions are selected and graded blind (without your name) by experts along a rubric.",
    "Einwilligung und Datenschutz": "Consent and privacy",
    "Gespeichert werden Ihre Lösungen, Entwürfe, Zeiten, übersprungene Aufgaben mit Grund, die angegebenen "
    "KI-Werkzeuge und Ihre Angaben zu Vorkenntnissen. Ausgewertet und weitergegeben werden sie nur unter einem "
    "Pseudonym, nie mit Ihrem Benutzernamen. Die Teilnahme ist freiwillig; Sie können jederzeit aufhören.":
        "We store your solutions, drafts, times, skipped tasks with their reason, the AI tools you name and your "
        "background. They are analysed and shared only under a pseudonym, never with your user name. Taking "
        "part is voluntary; you may stop at any time.",
    "Ich habe die Hinweise gelesen und willige in die Teilnahme und die beschriebene Verarbeitung meiner Daten ein.":
        "I have read the notes and consent to taking part and to the processing of my data described above.",
    "Einwilligen und teilnehmen": "Consent and take part",
    "Zur Studie und Einwilligung": "Study details and consent",
    "Die Studie ist geschlossen; Abgaben sind nicht mehr möglich.": "The study is closed; no more submissions.",
    "Ihre Aufgaben": "Your tasks",
    "Aktion": "Action",
    "Grund (Pflichtangabe)": "Reason (required)",
    "Endgültig überspringen": "Skip for good",
    "Verwendete KI-Werkzeuge (freiwillig; mehrere mit Komma trennen)":
        "AI tools used (optional; separate several with commas)",
    "von": "of",
    "Nächste Bewertung": "Next review",
    "Zustand": "State",
    "Aktiv": "Active",
    "Aktionen": "Actions",
    "Rollen von": "Roles of",
    "Rollen speichern": "Save roles",
    "ja": "yes",
    "nein": "no",
    "Deaktivieren": "Deactivate",
    "Aktivieren": "Activate",
    "Neues Passwort für": "New password for",
    "Passwort zurücksetzen": "Reset password",
    "Ablauf": "Lifecycle",
    "Studie öffnen": "Open the study",
    "Abgaben beenden (schließen)": "End submissions (close)",
    "Bewertung abschließen": "Finish the reviews",
    "Fortschritt der Teilnehmenden": "Participants' progress",
    "Restzeit": "Time left",
    "davon automatisch": "of which automatic",
    "Noch niemand angemeldet.": "Nobody has enrolled yet.",
    "Fortschritt der Bewertenden": "Graders' progress",
    "Noch keine Zuweisungen.": "No assignments yet.",
    "Autor/in von": "Author of",
    "Picks neu auswählen": "Select the picks again",
    "Gruppe": "Group",
    "Downloads": "Downloads",
    "Abgaben (CSV): Dauer, Überspringen, Vorkenntnisse, Picks": "Submissions (CSV): durations, skips, expertise, picks",
    "Bewertungen (CSV): Zuweisungen und letzte Versionen": "Reviews (CSV): assignments and latest versions",
    "Alles (JSON)": "Everything (JSON)",
    "Übereinstimmung der Blindbewertungen": "Agreement of the blind reviews",
    "Krippendorffs Alpha (intervall)": "Krippendorff's alpha (interval)",
    "Slots A/B/C als Bewertende": "slots A/B/C as raters",
    "Grundlage: abgegebene Blindbewertungen (letzte Version), Rohpunkte 0–100; Alpha und ICC aus benger.stats; "
    "„–“ = nicht definiert (zu wenige Bewertungen).":
        "Basis: submitted blind reviews (latest version), raw points 0–100; alpha and ICC from benger.stats; "
        "“–” = undefined (too few reviews).",
    "Summen": "Totals",
    "Mittelwert": "Mean",
    "SD": "SD",
    "Spannweite": "Range",
    "Noch keine Picks.": "No picks yet.",
    "Bitte beschreiben Sie das Problem.": "Please describe the problem.",
    "Danke, das Problem wurde gemeldet.": "Thank you, the problem was reported.",
    "Problem mit dieser Lösung melden": "Report a problem with this solution",
    "Was stimmt nicht? (z. B. leer, unleserlich, falsche Aufgabe)": "What is wrong? (e.g. blank, garbled, wrong task)",
    "Melden": "Report",
    "Gemeldete Probleme": "Reported problems",
    "Meldung": "Report",
    "Expertise": "Expertise",
    "Median": "median",
    "LLM": "LLM",
    "Ungültiger Gruppenname {name} (Buchstaben, Ziffern, _ und -; bis 40 Zeichen).":
        "Invalid group name {name} (letters, digits, _ and -; up to 40 characters).",
    "Zu viele Gruppen (höchstens 200 Zeichen).": "Too many groups (200 characters at most).",
    "Gruppen": "Groups",
    "Sichtbar für Gruppen (leer = alle; mehrere mit Leerzeichen)":
        "Visible to groups (empty = everyone; separate with spaces)",
    "Gruppen speichern": "Save groups",
    "Gruppen von": "Groups of",
    "Randbemerkungen: höchstens {n}, Stelle bis {quote} und Bemerkung bis {note} Zeichen.":
        "Margin notes: at most {n}, passage up to {quote} and note up to {note} characters.",
    "Randbemerkungen zu Stellen der Lösung": "Margin notes on passages of the solution",
    "Stelle": "Passage",
    "Bemerkung": "Note",
    "Stelle (in der Lösung markieren, dann übernehmen)": "Passage (select it in the solution, then take it over)",
    "Markierte Stelle übernehmen": "Take over the selected passage",
    "Gespeichert": "Saved",
    "gespeichert": "saved",
    "Nicht gespeichert – wird erneut versucht": "Not saved – retrying",
    "In einem anderen Fenster (oder Gerät) wurde neuerer Text gespeichert":
        "Newer text was saved in another window (or device)",
    "Zeichen": "characters",
    "Ihr Text hier wurde nicht gespeichert. Welcher Text soll gelten?":
        "Your text here was not saved. Which text should count?",
    "Nicht gespeichert – anderer Text liegt vor, bitte entscheiden": "Not saved – there is other text, please decide",
    "Anderer Text übernommen": "Other text taken over",
    "Zeit abgelaufen. Gewertet wird der zuletzt vom Server bestätigte Text":
        "Time is up. What counts is the text the server last confirmed",
    "später Geschriebenes zählt nicht.": "anything written later does not count.",
    "Nicht gespeichert – bitte in einem anderen Fenster neu anmelden; wird erneut versucht":
        "Not saved – please log in again in another window; retrying",
    "Änderungen werden gespeichert …": "Saving changes …",
    "Keine Verbindung – Abgabe erst wieder mit Verbindung möglich; Ihr Text bleibt in diesem Browser erhalten":
        "No connection – you can submit once the connection is back; your text is kept in this browser",
    "Nicht gespeicherter Text aus diesem Browser wiederhergestellt – wird gespeichert …":
        "Unsaved text restored from this browser – saving …",
    "Dieser Browser hatte Text, den der Server vor Ablauf der Zeit nicht mehr bestätigt hat; er zählt nicht":
        "This browser had text that the server did not confirm before the time ran out; it does not count",
    "Neuerer Text in einem anderen Fenster": "Newer text in another window",
    "– bitte wählen –": "– please choose –",
    "Ein Konto kann nicht zugleich admin und grader sein: die Verwaltung zeigt die Herkunft jeder Lösung, die "
    "Blindbewertung darf sie nicht kennen. Bitte ein zweites Konto anlegen.":
        "An account cannot be both admin and grader: the administration shows every solution's provenance, which "
        "blind grading must not know. Please create a second account.",
    "Dieses Passwort ist zu leicht zu erraten (häufiges Passwort, Tastaturfolge, Name oder Datum); bitte ein längeres "
    "oder ungewöhnlicheres wählen.":
        "This password is too easy to guess (a common password, keyboard walk, name or date); please choose a longer "
        "or more unusual one.",
    "Der andere gespeicherte Text": "The other saved text",
    "Den anderen Text übernehmen": "Take the other text",
    "Meinen Text behalten und speichern": "Keep my text and save it",
    "Gewertet wird der Text, den der Server zuletzt bestätigt hat": "What counts is the text the server last confirmed",
    "In einem anderen Fenster wurde zu Aufgabe {task} neuerer Text gespeichert; bitte die Seite neu laden und "
    "entscheiden, welcher Text gilt.":
        "Newer text for task {task} was saved in another window; please reload the page and decide which text counts.",
}
# fmt: on
