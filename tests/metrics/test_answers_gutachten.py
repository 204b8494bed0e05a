"""Ja/Nein as German legal texts state a result (issue 32, item 2): the last decision that is not a question,
a hypothesis, a quoted or a rejected view.

A Gutachten raises the question first (Obersatz: "Fraglich ist, ob …", "A könnte …") and answers it last;
views it reports ("Man könnte meinen …", "Nach einer Mindermeinung …", "B meint, … sei …") and then rejects
("Das überzeugt nicht.") decide nothing. Every row is our own phrasing: (text, decision or None).
"""

from __future__ import annotations

import pytest

from benger.metrics import parse_answer

ROWS: list[tuple[str, str | None]] = [
    # --- the observations of issue 32 ---------------------------------------------------------------------------
    ("Fraglich ist, ob die Frage zu bejahen ist. Dafür müsste ein wirksamer Vertrag vorliegen. Daran fehlt es. "
     "Nein.", "Nein"),
    ("Man könnte meinen, die Frage sei zu verneinen. Das überzeugt nicht, weil der Zugang bewiesen ist. Ja.", "Ja"),
    ("Eine Mindermeinung bejaht die Frage. Die herrschende Meinung verneint sie zu Recht.", "Nein"),
    ("Klares Nein.", "Nein"),
    ("Jawohl.", "Ja"),
    ("Im Ergebnis: nein", "Nein"),
    # --- Obersatz first, result last --------------------------------------------------------------------------
    ("Zu prüfen ist, ob die Frage zu bejahen ist. Die Einwilligung war unwirksam. Die Frage ist daher zu verneinen.",
     "Nein"),
    ("Es stellt sich die Frage, ob die Ausgangsfrage zu verneinen ist. Der Vorsatz liegt vor. Ergebnis: Ja.", "Ja"),
    ("Problematisch ist, ob die Frage zu bejahen ist. Der Schaden ist nicht kausal. Somit: Nein.", "Nein"),
    ("Zweifelhaft ist, ob die Frage zu verneinen ist. Die Frist wurde gewahrt. Im Ergebnis ja.", "Ja"),
    ("Es fragt sich, ob die Frage zu bejahen ist. Das ist nicht der Fall. Nein.", "Nein"),
    ("Zu klären ist, ob die Frage mit Ja zu beantworten ist. Die Anfechtung greift. Antwort: Nein.", "Nein"),
    ("Ob die Frage zu bejahen ist, hängt vom Zugang ab. Der Brief ging nie zu. Die Frage ist zu verneinen.", "Nein"),
    ("Ob die Frage zu verneinen ist, ist zweifelhaft. Der Täter handelte vorsätzlich. Ja.", "Ja"),
    ("A könnte gegen B einen Anspruch haben. Dann müsste die Frage zu bejahen sein. B hat erfüllt. Nein.", "Nein"),
    ("Die Frage könnte zu bejahen sein. Dafür müsste A Eigentümer sein. A ist nicht Eigentümer. Nein.", "Nein"),
    ("Die Frage müsste verneint werden, wenn die Willenserklärung widerrufen wurde. Ein Widerruf fehlt. Ja.", "Ja"),
    ("Die Frage ist zu bejahen, wenn ein Mangel vorliegt. Ein Mangel liegt nicht vor. Daher nein.", "Nein"),
    ("Die Frage ist nur dann zu bejahen, wenn die Form gewahrt ist. Die Form fehlt. Ergebnis: Nein.", "Nein"),
    ("Die Frage wäre zu verneinen, falls die Frist abgelaufen wäre. Sie lief erst später ab. Ja.", "Ja"),
    ("Die Frage ist zu verneinen, sofern keine Genehmigung vorliegt. Die Genehmigung wurde erteilt. "
     "Die Frage ist zu bejahen.", "Ja"),
    ("Wenn der Vertrag nichtig wäre, wäre die Frage zu verneinen. Der Vertrag ist wirksam. Ergebnis: Ja.", "Ja"),
    ("Angenommen, die Frage ist zu bejahen, so müsste B haften. B haftet nicht. Nein.", "Nein"),
    ("Unterstellt man einen Irrtum, wäre die Frage zu bejahen. Ein Irrtum liegt nicht vor. Die Frage ist zu "
     "verneinen.", "Nein"),
    ("Fraglich ist, ob die Frage zu bejahen ist. Dies ist der Fall. Ergebnis: Ja.", "Ja"),
    ("Fraglich ist, ob die Frage zu verneinen ist. Dies ist nicht der Fall. Somit ja.", "Ja"),
    ("Fraglich ist, ob die Frage zu bejahen ist.", None),
    ("Zu prüfen ist, ob die Frage zu verneinen ist.", None),
    ("Die Frage könnte zu bejahen sein.", None),
    ("Die Frage ist zu bejahen, wenn A Kaufmann ist.", None),
    ("Die Frage wäre zu verneinen.", None),
    # --- questions are not decisions -------------------------------------------------------------------------
    ("Ist die Frage zu bejahen? Nein.", "Nein"),
    ("Ist die Frage zu verneinen? Keineswegs: Die Frage ist zu bejahen.", "Ja"),
    ("Ja? Bei näherer Betrachtung: Nein.", "Nein"),
    ("Nein? Doch. Ergebnis: Ja.", "Ja"),
    ("Ist das Ergebnis Ja? Der Vertrag ist nichtig. Ergebnis: Nein.", "Nein"),
    ("Ist die Frage mit Ja zu beantworten?", None),
    ("Ist die Frage zu bejahen?", None),
    ("Kann man die Frage verneinen? Die Frage ist zu bejahen.", "Ja"),
    ("Lautet die Antwort Ja? Antwort: Nein.", "Nein"),
    ("Bejaht man die Frage? Ja.", "Ja"),
    # --- rejected views ("Man könnte meinen … Das überzeugt nicht") -----------------------------------------
    ("Man könnte meinen, die Frage ist zu bejahen. Das überzeugt nicht. Nein.", "Nein"),
    ("Man könnte meinen: Ja. Das überzeugt nicht, denn der Zugang fehlt. Nein.", "Nein"),
    ("Man könnte argumentieren, die Frage sei zu verneinen. Dagegen spricht der Wortlaut. Ja.", "Ja"),
    ("Man könnte einwenden, die Frage sei zu bejahen. Dieser Einwand greift nicht. Die Frage ist zu verneinen.",
     "Nein"),
    ("Es ließe sich vertreten, die Frage zu bejahen. Dem ist nicht zu folgen. Ergebnis: Nein.", "Nein"),
    ("Zwar könnte man meinen, die Frage sei zu bejahen, doch ist sie im Ergebnis zu verneinen.", "Nein"),
    ("Zwar könnte man die Frage verneinen, im Ergebnis ist sie aber zu bejahen.", "Ja"),
    ("Man könnte meinen, die Antwort lautet Ja. Dies verkennt § 125 BGB. Die Antwort lautet Nein.", "Nein"),
    ("Die Frage ist zu bejahen. Das überzeugt nicht. Die Frage ist zu verneinen.", "Nein"),
    ("Man könnte meinen, die Frage sei zu verneinen. Dem kann nicht gefolgt werden. Die Frage ist zu bejahen.",
     "Ja"),
    ("Man könnte meinen, die Frage sei zu bejahen. Diese Ansicht ist abzulehnen. Nein.", "Nein"),
    ("Man könnte die Frage bejahen wollen. Das wäre aber falsch. Nein.", "Nein"),
    ("Man könnte meinen, die Frage sei zu bejahen.", None),
    ("Man könnte meinen ja. Das trifft nicht zu. Im Ergebnis nein.", "Nein"),
    ("Es könnte vertreten werden, die Frage sei zu verneinen. Das geht fehl. Ergebnis: Ja.", "Ja"),
    # --- minority opinions and quoted views ------------------------------------------------------------------
    ("Nach einer Mindermeinung ist die Frage zu bejahen. Nach h.M. ist sie zu verneinen.", "Nein"),
    ("Nach einer Mindermeinung ist die Frage zu verneinen. Die Rechtsprechung bejaht sie. Dem ist zu folgen. Ja.",
     "Ja"),
    ("Nach a.A. ist die Frage zu bejahen. Die h.M. verneint sie.", "Nein"),
    ("Teilweise wird vertreten, die Frage sei zu bejahen. Die überwiegende Ansicht verneint sie zu Recht. Nein.",
     "Nein"),
    ("Vereinzelt wird die Frage verneint. Überzeugender ist es, sie zu bejahen. Ja.", "Ja"),
    ("Eine andere Ansicht verneint die Frage. Diese Ansicht überzeugt nicht. Die Frage ist zu bejahen.", "Ja"),
    ("Die Gegenansicht bejaht die Frage. Ihr ist nicht zu folgen. Nein.", "Nein"),
    ("Nach der Gegenauffassung ist die Frage zu verneinen. Ergebnis: Ja.", "Ja"),
    ("Einige Stimmen in der Literatur bejahen die Frage. Das überzeugt nicht. Nein.", "Nein"),
    ("Manche meinen, die Frage sei zu verneinen. Richtigerweise ist sie zu bejahen.", "Ja"),
    ("B meint, die Frage sei zu bejahen. Er irrt. Nein.", "Nein"),
    ("Der Kläger trägt vor, die Frage sei zu verneinen. Das Gericht bejaht sie. Ja.", "Ja"),
    ("A behauptet, die Antwort sei Ja. Tatsächlich fehlt die Einigung. Nein.", "Nein"),
    ("Die Beklagte macht geltend, die Frage sei zu bejahen. Die Frage ist zu verneinen.", "Nein"),
    ("Der BGH formulierte: „Die Frage ist zu bejahen.“ Der Fall liegt anders. Nein.", "Nein"),
    ("In der Literatur heißt es: \"Die Frage ist zu verneinen.\" Hier greift das nicht. Ja.", "Ja"),
    ("Der Satz „die Antwort lautet Ja“ stammt aus dem Sachverhalt. Die Frage ist zu verneinen.", "Nein"),
    ("Nach einer Mindermeinung ist die Frage zu bejahen.", None),
    ("Eine Mindermeinung bejaht die Frage; die h.M. verneint sie zu Recht.", "Nein"),
    ("Die Mindermeinung, die die Frage bejaht, überzeugt nicht. Nein.", "Nein"),
    ("Nach h.M. ist die Frage zu verneinen.", "Nein"),  # a held view that nothing rejects decides
    ("Nach ständiger Rechtsprechung ist die Frage zu bejahen. Dem ist zu folgen.", "Ja"),
    ("Nach h.M. ist die Frage zu bejahen. Dem ist nicht zu folgen. Die Frage ist zu verneinen.", "Nein"),
    # --- intensified and colloquial decisions ----------------------------------------------------------------
    ("Klares Ja.", "Ja"),
    ("Ein klares Nein.", "Nein"),
    ("Eindeutig nein.", "Nein"),
    ("Eindeutig: Ja.", "Ja"),
    ("Definitiv ja.", "Ja"),
    ("Ganz klar: Nein.", "Nein"),
    ("Jawohl, der Anspruch besteht.", "Ja"),
    ("jawohl", "Ja"),
    ("Die Antwort ist ein klares Nein.", "Nein"),
    ("Die Antwort lautet: ein eindeutiges Ja.", "Ja"),
    ("Das Ergebnis ist ein deutliches Nein.", "Nein"),
    ("Im Ergebnis: Ja, der Vertrag ist wirksam.", "Ja"),
    ("Im Ergebnis nein.", "Nein"),
    ("im ergebnis: NEIN", "Nein"),
    ("Im Ergebnis also: Ja.", "Ja"),
    ("Ergebnis – nein.", "Nein"),
    ("Ergebnis: Nein (§ 142 Abs. 1 BGB).", "Nein"),
    ("Fazit: ein klares Ja.", "Ja"),
    ("Nein, keinesfalls.", "Nein"),
    ("Ja, ohne jeden Zweifel.", "Ja"),
    # --- negated decisions ---------------------------------------------------------------------------------
    ("Die Frage ist nicht zu bejahen.", "Nein"),
    ("Die Frage ist nicht zu verneinen.", "Ja"),
    ("Die Frage kann nicht bejaht werden.", "Nein"),
    ("Die Frage lässt sich nicht verneinen.", "Ja"),
    ("Die Frage ist keinesfalls zu bejahen.", "Nein"),
    ("Die Frage ist keineswegs zu verneinen.", "Ja"),
    ("Die Frage ist im Ergebnis nicht zu bejahen, weil die Frist verstrichen ist.", "Nein"),
    ("Die Frage wird nicht verneint.", "Ja"),
    ("Die Antwort ist nicht Ja, sondern Nein.", "Nein"),
    ("Nicht Ja, sondern Nein.", "Nein"),
    ("Die Antwort lautet nicht Nein, sondern Ja.", "Ja"),
    ("Die Antwort ist nicht Ja.", "Nein"),
    ("Das Ergebnis lautet nicht Nein.", "Ja"),
    ("Die Fallfrage ist mithin nicht zu bejahen.", "Nein"),
    ("Die Ausgangsfrage kann nicht verneint werden.", "Ja"),
    ("Eine Haftung ist nicht zu bejahen.", "Nein"),
    ("Der Anspruch ist nicht zu verneinen.", "Ja"),
    ("Fraglich ist, ob die Frage nicht zu bejahen ist. Sie ist nicht zu bejahen.", "Nein"),
    ("Die Frage ist nicht zu bejahen? Doch, die Frage ist zu bejahen.", "Ja"),
    ("Man könnte meinen, die Frage sei nicht zu bejahen. Das überzeugt nicht. Die Frage ist zu bejahen.", "Ja"),
    # --- whole Gutachten ------------------------------------------------------------------------------------
    ("A könnte einen Anspruch auf Zahlung aus § 433 Abs. 2 BGB haben. Dazu müsste ein Kaufvertrag geschlossen "
     "worden sein. Ein Angebot liegt vor. Die Annahme erfolgte rechtzeitig. Ein Kaufvertrag ist geschlossen. "
     "Ergebnis: Ja.", "Ja"),
    ("Fraglich ist, ob A sich nach § 242 StGB strafbar gemacht hat. Die Sache war nicht fremd. Die Frage ist "
     "somit zu verneinen.", "Nein"),
    ("Obersatz: Die Frage könnte zu bejahen sein.\nDefinition: Eine Sache ist fremd, wenn sie im Eigentum eines "
     "anderen steht.\nSubsumtion: Das Rad gehörte A selbst.\nErgebnis: Nein.", "Nein"),
    ("I. Obersatz\nEs ist zu prüfen, ob die Frage zu bejahen ist.\nII. Subsumtion\nDie Frist ist gewahrt.\n"
     "III. Ergebnis\nDie Frage ist zu bejahen.", "Ja"),
    ("1. Fraglich ist, ob die Frage zu verneinen ist.\n2. Der Mangel war bei Gefahrübergang vorhanden.\n"
     "3. Somit: Ja.", "Ja"),
    ("Die Frage könnte zu verneinen sein, wenn § 134 BGB eingreift. Ein Verbotsgesetz ist nicht ersichtlich. "
     "Die Frage ist daher zu bejahen.", "Ja"),
    ("Zunächst könnte man die Frage bejahen. Bei genauerer Prüfung fehlt jedoch die Kausalität. Nein.", "Nein"),
    ("Nach dem Wortlaut könnte die Frage zu verneinen sein. Sinn und Zweck sprechen aber dagegen. Ja.", "Ja"),
    ("Fraglich ist, ob die Frage zu bejahen ist. Man könnte meinen, ja. Das überzeugt nicht. Die Frage ist zu "
     "verneinen.", "Nein"),
    ("Es ist zu prüfen, ob die Frage zu verneinen ist. Nach einer Ansicht ist sie zu verneinen. Diese Ansicht ist "
     "abzulehnen. Ergebnis: Ja.", "Ja"),
    ("Die Frage ist zu bejahen, wenn ein Rechtsgrund fehlt. Ein Rechtsgrund fehlt. Die Frage ist zu bejahen.", "Ja"),
    ("Antwort: Nein. Begründung: Man könnte meinen, die Frage sei zu bejahen. Das überzeugt nicht.", "Nein"),
    ("Antwort: Ja\nBegründung: Fraglich ist, ob die Frage zu verneinen ist. Das ist nicht der Fall.", "Ja"),
    ("Ergebnis: Nein\nZwar könnte man die Frage bejahen; der Wortlaut von § 929 BGB spricht aber dagegen.", "Nein"),
    ("Kurzantwort: Ja. Der Anspruch besteht aus § 823 Abs. 1 BGB.", "Ja"),
    ("Die Frage ist zu bejahen. Fraglich ist allein, ob die Frage zu verneinen ist, wenn B zahlt. B zahlte nicht.",
     "Ja"),
    # --- clauses: dashes and semicolons end a hypothesis -----------------------------------------------------
    ("Man könnte meinen ja – im Ergebnis nein.", "Nein"),
    ("Man könnte meinen nein; die Frage ist jedoch zu bejahen.", "Ja"),
    ("Wäre der Vertrag nichtig, wäre die Frage zu verneinen – er ist aber wirksam, die Frage ist also zu bejahen.",
     "Ja"),
    ("Ob die Frage zu bejahen ist, kann offenbleiben; jedenfalls ist sie im Ergebnis zu verneinen.", "Nein"),
    # --- decisions that stay (no false exclusion) -----------------------------------------------------------
    ("Nein, weil der Vertrag wirksam angefochten wurde.", "Nein"),
    ("Ja. Es wäre unbillig, den Anspruch zu versagen.", "Ja"),
    ("Ergebnis: Nein, es wäre sonst widersprüchlich.", "Nein"),
    ("Die Frage ist zu bejahen, weil die Frist gewahrt ist.", "Ja"),
    ("Die Frage ist zu verneinen, da die Willenserklärung nicht zuging.", "Nein"),
    ("Die Frage ist zu bejahen; man könnte zwar anders argumentieren, das überzeugt aber nicht.", "Ja"),
    ("Die Frage ist zu verneinen. Eine abweichende Meinung ist nicht ersichtlich.", "Nein"),
    ("Antwort: Ja.", "Ja"),
    ("Die Antwort lautet Nein.", "Nein"),
    ("Somit ja.", "Ja"),
    ("Folglich nein.", "Nein"),
    ("Mithin: Ja.", "Ja"),
    ("Demnach ist die Frage zu verneinen.", "Nein"),
    ("Die Frage ist daher mit Nein zu beantworten.", "Nein"),
    ("Die Frage ist mit „Ja“ zu beantworten.", "Ja"),
    ("Ich bejahe die Frage, weil der Schaden kausal ist.", "Ja"),
    ("Wir verneinen die Ausgangsfrage.", "Nein"),
    ("Nein. Zwar liegt ein Angebot vor, es wurde aber nicht angenommen.", "Nein"),
    ("Ja – § 280 Abs. 1 BGB ist erfüllt.", "Ja"),
    ("Die Frage ist, wie gezeigt, zu bejahen.", "Ja"),
    ("Die Frage ist nach alledem zu verneinen.", "Nein"),
    ("Im Ergebnis ist die Frage daher zu bejahen.", "Ja"),
    ("Die Frage ist aus den genannten Gründen zu bejahen.", "Ja"),
    ("Im Ergebnis ist die Frage zu verneinen, auch wenn man die Gegenansicht vertreten könnte.", "Nein"),
    # --- undecided ------------------------------------------------------------------------------------------
    ("Die Frage kann offenbleiben.", None),
    ("Es kommt darauf an, ob die Frage zu bejahen ist.", None),
    ("Man könnte meinen ja, man könnte meinen nein.", None),
    ("Ob die Frage zu bejahen oder zu verneinen ist, ist umstritten.", None),
    ("Nach einer Ansicht ja, nach anderer Ansicht nein.", None),
    ("Jein.", None),
    ("Vielleicht.", None),
    ("Das hängt vom Einzelfall ab.", None),
    ("Die Frage ist zu bejahen. Die Frage ist zu verneinen.", None),  # two final statements contradict
    ("Der Vorsatz ist zu bejahen. Die Schuld ist zu verneinen.", "Nein"),  # conclusions: the last one
    ("Antwort: Ja. Ergebnis: Nein.", None),  # two final statements that contradict each other
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), ROWS)
def test_gutachten_decision(text: str, expected: str | None) -> None:
    assert parse_answer(text) == expected


def test_table_size_and_balance() -> None:
    assert len(ROWS) >= 150
    assert len({t for t, _ in ROWS}) == len(ROWS)  # no duplicated phrasing
    decided = [e for _, e in ROWS if e is not None]
    assert decided.count("Ja") >= 50 and decided.count("Nein") >= 50 and len(ROWS) - len(decided) >= 15
