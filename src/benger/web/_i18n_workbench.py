"""English texts of the workbench (organisations, corpora, rubrics): German -> English, merged into the UI's
one table (``benger.web._i18n.EN``)."""

from __future__ import annotations

# fmt: off
WORKBENCH_EN: dict[str, str] = {
    # server messages
    "Der Korpusname {name} ist vergeben.": "The corpus name {name} is taken.",
    "Die Organisation {name} gibt es schon.": "The organisation {name} exists already.",
    "Dieses Objekt gehört einer anderen Organisation.": "This object belongs to another organisation.",
    "Ein Name braucht 1 bis 200 druckbare Zeichen.": "A name needs 1 to 200 printable characters.",
    "Eine Organisation braucht mindestens eine Eigentümerin.": "An organisation needs at least one owner.",
    "Sie sind bereits Mitglied dieser Organisation.": "You are a member of this organisation already.",
    "Unbekannte Rolle {role}.": "Unknown role {role}.",
    "Unbekannte Rubrik {choice}.": "Unknown rubric {choice}.",
    "Die Rubrik bewertet Aufgaben der Art {kind}, der Korpus enthält {kinds}.":
        "The rubric scores tasks of the kind {kind}; the corpus holds {kinds}.",
}
# fmt: on
