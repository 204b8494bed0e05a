"""Gliederung tree, its problems, sections and the comparison with a reference (hand-built texts)."""

from __future__ import annotations

from benger.gutachten import analyse, compare
from benger.gutachten._structure import parse_structure

SOLUTION = """# Gutachten

A. Anspruch des K gegen V aus § 433 Abs. 1 S. 1 BGB

K könnte gegen V einen Anspruch auf Übergabe aus § 433 Abs. 1 S. 1 BGB haben.
Ein Kaufvertrag liegt vor, wenn zwei übereinstimmende Willenserklärungen vorliegen.
Hier einigten sich K und V am Montag über Rad und Preis.
Somit ist der Anspruch entstanden.

B. Anspruch aus § 985 BGB

I. Eigentum des K

1. Einigung

Vorliegend fehlt es an einer Einigung.

1. Übergabe

Die Übergabe ist erfolgt.

III. Besitz des V

Folglich besteht kein Anspruch.
"""


def test_tree_depth_and_problems() -> None:
    s = parse_structure(SOLUTION)
    assert [h.marker for h in s.headings] == ["#", "A.", "B.", "I.", "1.", "1.", "III."]
    assert [h.depth for h in s.headings] == [1, 2, 2, 3, 4, 4, 3]
    assert s.depth == 4 and not s.flat_text
    assert s.headings[3].parent == 2 and s.headings[2].children == [3, 6]
    codes = [(p.code, p.text.split("\n")[0]) for p in s.problems]
    assert ("sequence_repeat", "1. Übergabe") in codes
    assert ("sequence_gap", "III. Besitz des V") in codes
    assert ("single_child", "# Gutachten") not in codes
    for p in s.problems:
        assert SOLUTION[p.start : p.end] == p.text


def test_skipped_level_and_single_child() -> None:
    text = (
        "A. Zulässigkeit\n\n1. Rechtsweg\n\nDer Rechtsweg ist eröffnet.\n\n"
        "B. Begründetheit\n\nDie Klage ist begründet.\n"
    )
    s = parse_structure(text)
    by_start = {h.start: h.marker for h in s.headings}
    codes = [(p.code, by_start[p.start]) for p in s.problems]
    assert ("skipped_level", "1.") in codes
    assert ("single_child", "1.") in codes


def test_flat_text_headings_are_found_inline() -> None:
    text = (
        "Lösung: A. Anspruch aus § 985 BGB K könnte ... haben. I. Eigentum Das Eigentum liegt vor. "
        "II. Besitz V besitzt. B. Ergebnis Somit ja."
    )
    s = parse_structure(text)
    assert s.flat_text
    assert [h.marker for h in s.headings] == ["A.", "I.", "II.", "B."]
    assert [h.depth for h in s.headings] == [1, 2, 2, 1]


def test_flat_text_first_points_after_a_title() -> None:
    # flattened like the released references: a first point may follow a heading title without a full stop
    text = (
        "Lösung Kurzfall Tatkomplex 1: Im Hof A. § 242 StGB T könnte sich wegen Diebstahls strafbar gemacht haben. "
        "I. Tatbestand 1. Objektiver Tatbestand Das Rad ist fremd. 2. Subjektiver Tatbestand T wollte es. "
        "II. Ergebnis T ist strafbar. B. § 303 StGB Eine Sachbeschädigung liegt nicht vor."
    )
    s = parse_structure(text)
    assert [(h.marker, h.depth) for h in s.headings] == [
        ("Tatkomplex 1:", 1),
        ("A.", 2),
        ("I.", 3),
        ("1.", 4),
        ("2.", 4),
        ("II.", 3),
        ("B.", 2),
    ]
    assert s.headings[0].title == "Im Hof"
    assert s.headings[2].title == "Tatbestand"


def test_sections_steps_order_and_result_first() -> None:
    a = analyse(SOLUTION)
    first = next(sec for sec in a.sections if sec.title.startswith("Anspruch des K"))
    assert first.present == ["obersatz", "definition", "subsumtion", "ergebnis"]
    assert first.complete and first.in_order and not first.result_first
    urteil = analyse(
        "A. Zulässigkeit\n\nDie Klage ist zulässig. "
        "Denn der Rechtsweg ist eröffnet, weil der Streit öffentlich-rechtlich ist.\n"
    )
    sec = urteil.sections[0]
    assert sec.steps[0].step == "ergebnis" and sec.result_first
    assert urteil.share_result_first == 1.0


def test_compare_with_reference() -> None:
    cand = analyse("A könnte aus § 433 II BGB zahlen müssen. Auch § 280 I BGB.")
    ref = analyse("K könnte gegen V einen Anspruch aus § 433 Abs. 2 BGB haben. Dazu § 437 Nr. 2 BGB.")
    cmp = compare(cand, ref)
    p = cmp.norms_paragraph
    assert (p.reference, p.candidate, p.common) == (2, 2, 1)
    assert (p.precision, p.recall, p.f1) == (0.5, 0.5, 0.5)
    assert p.missing == ["§ 437 BGB"] and p.extra == ["§ 280 BGB"]
    assert cmp.norms_full.common == 1  # § 433 Abs. 2 BGB in both spellings
    assert cmp.claims.missing == [] and cmp.claims.recall == 1.0


def test_empty_text_has_undefined_shares() -> None:
    a = analyse("")
    assert a.words == 0 and a.share_complete is None and a.subsumtion_per_1000_words is None
    empty = compare(a, a).norms_paragraph
    assert empty.precision is None and empty.recall is None and empty.f1 is None


def test_claims_and_their_steps() -> None:
    a = analyse(SOLUTION)
    assert [(c.keys, c.complete) for c in a.claims] == [
        (["§ 433 BGB"], True),  # heading A.: its section has all four steps
        (["§ 433 BGB"], True),  # the Obersatz opening section A.
        (["§ 985 BGB"], False),  # heading B.: only Subsumtion and Ergebnis below it
    ]
    assert a.claims[2].present == ["subsumtion", "ergebnis"]
    assert a.share_claims_complete == 2 / 3
