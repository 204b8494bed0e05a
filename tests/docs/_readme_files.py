"""The files that README lines name as placeholders (``CONFIG``, ``my-cases.jsonl``, ``loesung.md``, ...), written
into the copy of the repository before a line runs. Our own short German text."""

from __future__ import annotations

import json
from pathlib import Path

_CASES = [
    {
        "id": "mc-01",
        "bereich": "Zivilrecht",
        "titel": "Der verspätete Rasenmäher",
        "sachverhalt": "G bestellt bei H einen Rasenmäher für 300 Euro, Lieferung bis zum 1. Mai. H liefert nicht; "
        "G setzt ihm eine Frist von zwei Wochen, die fruchtlos verstreicht. G kauft anderswo für 350 Euro. "
        "Kann G von H 50 Euro verlangen?",
        "musterlösung": "G könnte gegen H einen Anspruch auf Schadensersatz statt der Leistung aus §§ 280 Abs. 1, "
        "3, 281 Abs. 1 BGB haben. Ein Kaufvertrag (§ 433 BGB) besteht. H hat trotz Fälligkeit nicht geleistet; "
        "die gesetzte Frist ist angemessen und fruchtlos abgelaufen. H hat die Pflichtverletzung nach § 280 "
        "Abs. 1 S. 2 BGB zu vertreten. Der Mehrpreis von 50 Euro ist ein ersatzfähiger Schaden. Ergebnis: Ja.",
    },
    {
        "id": "mc-02",
        "bereich": "Strafrecht",
        "titel": "Der mitgenommene Schirm",
        "sachverhalt": "S nimmt beim Verlassen eines Cafés den Schirm des T mit, um ihn zu behalten. "
        "Strafbarkeit des S?",
        "musterlösung": "S könnte sich wegen Diebstahls nach § 242 Abs. 1 StGB strafbar gemacht haben. Der Schirm "
        "ist für S eine fremde bewegliche Sache. S hat den Gewahrsam des T gebrochen und neuen eigenen Gewahrsam "
        "begründet. Er handelte vorsätzlich und in der Absicht, sich den Schirm rechtswidrig zuzueignen. "
        "Ergebnis: S ist nach § 242 Abs. 1 StGB strafbar.",
    },
]

_LOESUNG = """# Lösung

## A. Anspruch aus § 433 Abs. 2 BGB

K könnte gegen V einen Anspruch auf Zahlung des Kaufpreises aus § 433 Abs. 2 BGB haben.
Dazu müsste ein wirksamer Kaufvertrag vorliegen. Ein Vertrag kommt durch Angebot und Annahme zustande
(§§ 145 ff. BGB). V hat das Angebot des K angenommen. Somit liegt ein Kaufvertrag vor.

## B. Ergebnis

K hat gegen V einen Anspruch auf Zahlung aus § 433 Abs. 2 BGB.
"""

_MUSTER = (
    "K könnte gegen V einen Anspruch aus § 433 Abs. 2 BGB haben. Ein Kaufvertrag ist durch Angebot und Annahme "
    "nach §§ 145, 147 BGB geschlossen. Der Anspruch ist entstanden und nicht erloschen (§ 362 BGB). Ergebnis: Ja.\n"
)


def write_placeholders(folder: Path) -> None:
    """``CONFIG``: the stub run of examples/stub.yaml on the demo corpus and my-cases, writing to ``run.db``;
    ``my-cases.jsonl``: two own cases (corpus ``my-cases``); ``loesung.md``, ``muster.txt``: a Falllösung and
    its reference."""
    stub = (folder / "examples" / "stub.yaml").read_text(encoding="utf-8")
    assert "corpora: [demo]\n" in stub
    config = stub.replace("corpora: [demo]\n", "corpora: [demo, my-cases.jsonl]\n") + "db: run.db\n"
    (folder / "CONFIG").write_text(config, encoding="utf-8")
    cases = "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in _CASES)
    (folder / "my-cases.jsonl").write_text(cases, encoding="utf-8")
    (folder / "loesung.md").write_text(_LOESUNG, encoding="utf-8")
    (folder / "muster.txt").write_text(_MUSTER, encoding="utf-8")
