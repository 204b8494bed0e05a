"""Table test of the norm-citation parser: hand-written snippets (our own wording), expected standard
forms and well-formedness problems worked out by hand."""

from __future__ import annotations

import pytest

from benger.gutachten import parse_citations

# (snippet, expected norms in standard form, expected problem codes in text order)
CASES: list[tuple[str, list[str], list[str]]] = [
    # plain forms
    ("Der Anspruch folgt aus § 823 Abs. 1 BGB.", ["§ 823 Abs. 1 BGB"], []),
    ("Anspruchsgrundlage ist § 433 Abs. 2 BGB.", ["§ 433 Abs. 2 BGB"], []),
    ("Er ist nach § 242 StGB strafbar.", ["§ 242 StGB"], []),
    ("Die Klage ist nach § 42 Abs. 1 Alt. 1 VwGO statthaft.", ["§ 42 Abs. 1 Alt. 1 VwGO"], []),
    ("Maßstab ist Art. 3 Abs. 1 GG.", ["Art. 3 Abs. 1 GG"], []),
    ("Art. 5 Abs. 3 S. 1 GG schützt die Kunst.", ["Art. 5 Abs. 3 S. 1 GG"], []),
    # Roman Absatz, Arabic Satz
    ("Der Käufer schuldet nach § 433 II 1 BGB den Preis.", ["§ 433 Abs. 2 S. 1 BGB"], []),
    ("Gemäß § 812 I 1 Alt. 1 BGB ist herauszugeben.", ["§ 812 Abs. 1 S. 1 Alt. 1 BGB"], []),
    ("Ein Fall des § 280 I BGB liegt vor.", ["§ 280 Abs. 1 BGB"], []),
    ("Nach Art. 20 III GG ist die Verwaltung gebunden.", ["Art. 20 Abs. 3 GG"], []),
    ("Es gilt § 113 V 1 VwGO.", ["§ 113 Abs. 5 S. 1 VwGO"], []),
    ("Die Frist des § 74 I 2 VwGO läuft.", ["§ 74 Abs. 1 S. 2 VwGO"], []),
    # spelled-out parts
    ("Nach § 40 Absatz 1 Satz 1 VwGO ist der Rechtsweg eröffnet.", ["§ 40 Abs. 1 S. 1 VwGO"], []),
    ("Artikel 2 Absatz 2 Satz 1 GG schützt das Leben.", ["Art. 2 Abs. 2 S. 1 GG"], []),
    ("Gemäß § 3 Abs. 1 S. 2 Nr. 3 lit. a VwVfG gilt das.", ["§ 3 Abs. 1 S. 2 Nr. 3 lit. a VwVfG"], []),
    ("Dies regelt § 224 Abs. 1 Nr. 2 Var. 2 StGB.", ["§ 224 Abs. 1 Nr. 2 Var. 2 StGB"], []),
    ("Siehe § 315c Abs. 1 Nr. 1 Buchst. a StGB.", ["§ 315c Abs. 1 Nr. 1 lit. a StGB"], []),
    ("Siehe § 315c I Nr. 1 a StGB.", ["§ 315c Abs. 1 Nr. 1 lit. a StGB"], []),
    ("Er handelte nach § 211 Abs. 2 Gr. 1 Var. 4 StGB.", ["§ 211 Abs. 2 Gr. 1 Var. 4 StGB"], []),
    ("Einschlägig ist § 812 Abs. 1 S. 1 1. Alt. BGB.", ["§ 812 Abs. 1 S. 1 Alt. 1 BGB"], []),
    ("Hier greift § 41 Abs. 2 S. 1 Hs. 2 VwVfG.", ["§ 41 Abs. 2 S. 1 Hs. 2 VwVfG"], []),
    # letters in the number
    ("Ein Verbrauchervertrag nach § 312a BGB liegt vor.", ["§ 312a BGB"], []),
    ("Geprüft wird § 327 k II BGB.", ["§ 327k Abs. 2 BGB"], []),
    ("Dies folgt aus Art. 49a S. 1 BayVwVfG.", ["Art. 49a S. 1 BayVwVfG"], []),
    # i.V.m. chains
    (
        "Das allgemeine Persönlichkeitsrecht aus Art. 2 Abs. 1 i.V.m. Art. 1 Abs. 1 GG ist betroffen.",
        ["Art. 2 Abs. 1 GG", "Art. 1 Abs. 1 GG"],
        [],
    ),
    ("Er haftet aus § 280 Abs. 1 iVm § 241 Abs. 2 BGB.", ["§ 280 Abs. 1 BGB", "§ 241 Abs. 2 BGB"], []),
    (
        "Prüfe § 68 Abs. 1 VwGO i. V. m. Art. 12 Abs. 2 AGVwGO.",
        ["§ 68 Abs. 1 VwGO", "Art. 12 Abs. 2 AGVwGO"],
        ["unknown_statute"],
    ),
    ("Strafbar nach § 316 Abs. 1 i.V.m. Abs. 2 StGB.", ["§ 316 Abs. 1 StGB", "§ 316 Abs. 2 StGB"], []),
    ("Er handelte nach § 242 I iVm § 243 I 2 Nr. 1 StGB.", ["§ 242 Abs. 1 StGB", "§ 243 Abs. 1 S. 2 Nr. 1 StGB"], []),
    # plural lists
    ("Strafbar ist er nach §§ 242, 249 StGB.", ["§ 242 StGB", "§ 249 StGB"], []),
    ("Die Auslegung erfolgt nach §§ 133, 157 BGB.", ["§ 133 BGB", "§ 157 BGB"], []),
    (
        "Er ist nach §§ 223 Abs. 1, 224 Abs. 1 Nr. 2, 5 StGB strafbar.",
        ["§ 223 Abs. 1 StGB", "§ 224 Abs. 1 Nr. 2 StGB", "§ 224 Abs. 1 Nr. 5 StGB"],
        [],
    ),
    ("Versuch nach §§ 212 Abs. 1, 22, 23 Abs. 1 StGB.", ["§ 212 Abs. 1 StGB", "§ 22 StGB", "§ 23 Abs. 1 StGB"], []),
    # a small number with its own Absatz is a new §, not Abs. 12 of the § before
    (
        "Versuchter Mord, §§ 211, 23 Abs. 1, 12 Abs. 1 StGB.",
        ["§ 211 StGB", "§ 23 Abs. 1 StGB", "§ 12 Abs. 1 StGB"],
        [],
    ),
    # ... but a lower subdivision after it keeps the same § ("Nr. 2 Var. 2")
    (
        "In Betracht kommt § 224 I Nr. 1, 2 Var. 2 StGB.",
        ["§ 224 Abs. 1 Nr. 1 StGB", "§ 224 Abs. 1 Nr. 2 Var. 2 StGB"],
        [],
    ),
    (
        "Er ist nach §§ 223 I, 224 I Nr. 2, Nr. 5 StGB strafbar.",
        ["§ 223 Abs. 1 StGB", "§ 224 Abs. 1 Nr. 2 StGB", "§ 224 Abs. 1 Nr. 5 StGB"],
        [],
    ),
    (
        "Fristberechnung: §§ 57 II VwGO, 222 I ZPO i.V.m. § 188 II BGB.",
        ["§ 57 Abs. 2 VwGO", "§ 222 Abs. 1 ZPO", "§ 188 Abs. 2 BGB"],
        [],
    ),
    ("Die Vorschriften §§ 327o, § 327p BGB regeln das.", ["§ 327o BGB", "§ 327p BGB"], []),
    ("Der Rücktritt folgt aus §§ 437 Nr. 2, 323 Abs. 1 BGB.", ["§ 437 Nr. 2 BGB", "§ 323 Abs. 1 BGB"], []),
    ("Beide, §§ 20 und 21 StGB, sind zu prüfen.", ["§ 20 StGB", "§ 21 StGB"], []),
    ("Der Anspruch aus § 823 Abs. 1 und 2 BGB.", ["§ 823 Abs. 1 BGB", "§ 823 Abs. 2 BGB"], []),
    ("Nach § 126 Abs. 1 und Abs. 2 BGB gilt Schriftform.", ["§ 126 Abs. 1 BGB", "§ 126 Abs. 2 BGB"], []),
    ("Geprüft werden Art. 18 und 22 BayStrWG.", ["Art. 18 BayStrWG", "Art. 22 BayStrWG"], []),
    # ranges
    ("Die Regeln der §§ 145 ff. BGB gelten.", ["§§ 145 ff. BGB"], []),
    ("Die Vorschriften §§ 104 bis 113 BGB betreffen die Geschäftsfähigkeit.", ["§§ 104–113 BGB"], []),
    ("Verträge nach Art. 54 bis 62 BayVwVfG sind gemeint.", ["Art. 54–62 BayVwVfG"], []),
    ("Inhaltskontrolle, §§ 307ff. BGB, ist vorzunehmen.", ["§§ 307 ff. BGB"], []),
    ("Zu beachten sind §§ 987 f. BGB.", ["§§ 987 f. BGB"], []),
    ("Die Untersuchungshaft setzt §§ 112 ff. StPO voraus.", ["§§ 112 ff. StPO"], []),
    # Bavarian and European statutes (Articles)
    ("Die Sondernutzung regelt Art. 18 Abs. 1 S. 1 BayStrWG.", ["Art. 18 Abs. 1 S. 1 BayStrWG"], []),
    ("Der Anwendungsvorrang folgt aus Art. 288 AEUV.", ["Art. 288 AEUV"], []),
    ("Die Verarbeitung muss Art. 6 Abs. 1 lit. f DSGVO genügen.", ["Art. 6 Abs. 1 lit. f DSGVO"], []),
    ("Das Recht aus Art. 8 EMRK ist berührt.", ["Art. 8 EMRK"], []),
    ("Nach Art. 6 Abs. 1 UAbs. 2 EUV gilt das.", ["Art. 6 Abs. 1 UAbs. 2 EUV"], []),
    ("Aliase: Art. 17 DS-GVO und § 22 KunstUrhG.", ["Art. 17 DSGVO", "§ 22 KUG"], []),
    # literature references are not norms
    ("So MüKoBGB/Wagner, § 823 Rn. 12, mit Nachweisen.", [], []),
    ("Vgl. Maunz/Dürig, Art. 5 Rn. 128.", [], []),
    # well-formedness problems
    ("Er könnte sich nach § 184m Abs. 1 strafbar gemacht haben.", ["§ 184m Abs. 1"], ["missing_statute"]),
    ("Auch Art. 3. Die Prüfung folgt.", ["Art. 3"], ["missing_statute"]),
    ("Ein Anspruch aus § 13 AVB scheidet aus.", ["§ 13 AVB"], ["unknown_statute"]),
    ("Die Menschenwürde aus § 1 GG ist verletzt.", ["Art. 1 GG"], ["wrong_unit"]),
    ("Der Anspruch folgt aus Art. 823 BGB.", ["§ 823 BGB"], ["wrong_unit"]),
    ("Anhörung nach Art. 28 Abs. 1 VwVfG.", ["§ 28 Abs. 1 VwVfG"], ["wrong_unit"]),
    ("Ein Anspruch aus §§ 823 BGB besteht.", ["§ 823 BGB"], ["plural_single"]),
    ("Herausgabe nach §§ 861 I BGB.", ["§ 861 Abs. 1 BGB"], ["plural_single"]),
    (
        "Strafbarkeit nach §§ 201a I Nr. 1, Nr. 2 StGB.",
        ["§ 201a Abs. 1 Nr. 1 StGB", "§ 201a Abs. 1 Nr. 2 StGB"],
        ["plural_single"],
    ),
    ("Die Nichtigkeit nach § 104, 105 BGB.", ["§ 104 BGB", "§ 105 BGB"], ["singular_multiple"]),
    (
        "Versuchter Totschlag, §§ 212, 22, 23 StGB, scheidet aus, ebenso § 211.",
        ["§ 212 StGB", "§ 22 StGB", "§ 23 StGB", "§ 211"],
        ["missing_statute"],
    ),
    # several citations and stop conditions
    ("§ 985 BGB und § 1007 BGB kommen in Betracht.", ["§ 985 BGB", "§ 1007 BGB"], []),
    ("Verbraucher ist K nach § 13 BGB, 5 Tage später widerrief er.", ["§ 13 BGB"], []),
    ("**§ 767 Abs. 1 S. 1 BGB**", ["§ 767 Abs. 1 S. 1 BGB"], []),
    ("Wegen § 310 Abs. 4** BGB gilt das.", ["§ 310 Abs. 4 BGB"], []),
    ("Die Zuständigkeit folgt aus §\u00a045\u00a0VwGO.", ["§ 45 VwGO"], []),
    ("Er muss nach § 69 des GVG entscheiden.", ["§ 69 GVG"], []),
    ("Das ist eine Sache dieser Art. Die Prüfung folgt.", [], []),
    ("In Art und Weise ohne Norm.", [], []),
]


@pytest.mark.parametrize(("snippet", "norms", "problems"), CASES, ids=[c[0][:40] for c in CASES])
def test_citation_table(snippet: str, norms: list[str], problems: list[str]) -> None:
    citations, found = parse_citations(snippet)
    assert [n.standard for c in citations for n in c.norms] == norms
    assert [p.code for p in found] == problems


def test_offsets_point_at_the_citation_text() -> None:
    text = "Zunächst ist fraglich, ob § 433 II 1 BGB oder Art. 2 Abs. 1 i.V.m. Art. 1 Abs. 1 GG greift."
    citations, _ = parse_citations(text)
    assert [c.text for c in citations] == ["§ 433 II 1 BGB", "Art. 2 Abs. 1 i.V.m. Art. 1 Abs. 1 GG"]
    second = citations[1]
    assert second.linked
    assert [text[n.start : n.end] for n in second.norms] == ["Art. 2 Abs. 1", "Art. 1 Abs. 1"]
    assert [n.key for n in second.norms] == ["Art. 2 GG", "Art. 1 GG"]


def test_problem_offsets_and_messages_name_the_statute() -> None:
    text = "Hilfsweise § 2 GG."
    _, problems = parse_citations(text)
    assert len(problems) == 1
    p = problems[0]
    assert (p.code, text[p.start : p.end], p.text) == ("wrong_unit", "§ 2", "§ 2")
    assert "GG" in p.message and "Art." in p.message


def test_parts_are_split_into_fields() -> None:
    citations, _ = parse_citations("§ 3 Abs. 1 S. 2 Hs. 1 Nr. 3 lit. b VwVfG")
    norm = citations[0].norms[0]
    assert (norm.unit, norm.number, norm.absatz, norm.satz, norm.halbsatz, norm.nummer, norm.buchstabe) == (
        "§",
        "3",
        "1",
        "2",
        "1",
        "3",
        "b",
    )
    assert (norm.statute, norm.statute_known) == ("VwVfG", True)
