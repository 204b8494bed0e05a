"""Text normalisation (issue 11, item 6): invisible differences never change a metric value.

Observed before the fix: BLEU and chrF of an NFD copy of the reference were 0.654 / 0.879 instead of 1.0, and
soft hyphens / zero-width characters lowered every metric. Each row below is one kind of invisible difference.
"""

from __future__ import annotations

import unicodedata

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.metrics import compute, sentence_bleu, sentence_chrf, tokenize
from benger.text import TEXT_NORMALISATION_ID, normalise_text

REF = (
    "Der Käufer schuldet dem Verkäufer nach § 433 Abs. 2 BGB die Zahlung des Kaufpreises. "
    "Fraglich ist, ob die Übergabe der Sache „ordnungsgemäß“ erfolgte – das ist zu bejahen."
)
LEXICAL = ["bleu", "chrf", "rouge1", "rouge2", "rougeL", "meteor"]

# (name, function making the invisible variant, expected normalised form of a short probe)
VARIANTS = [
    ("nfd", lambda t: unicodedata.normalize("NFD", t)),
    (
        "soft hyphens",
        lambda t: t.replace("Verkäufer", "Ver\u00adkäu\u00adfer").replace("Kaufpreises", "Kauf\u00adpreises"),
    ),
    ("zero-width space", lambda t: t.replace("Käufer", "Käu\u200bfer")),
    ("zero-width joiner/non-joiner", lambda t: t.replace("Sache", "Sa\u200dch\u200ce")),
    ("word joiner", lambda t: t.replace("Übergabe", "Über\u2060gabe")),
    ("bom", lambda t: "\ufeff" + t),
    ("no-break spaces", lambda t: t.replace("§ 433", "§\u00a0433").replace("Abs. 2", "Abs.\u202f2")),
    ("typographic quotes as ascii", lambda t: t.replace("„", '"').replace("“", '"')),
    ("guillemets", lambda t: t.replace("„", "»").replace("“", "«")),
    ("dash as hyphen", lambda t: t.replace("–", "-")),
    ("dash as em dash", lambda t: t.replace("–", "—")),
    ("windows line ends and tabs", lambda t: t.replace(". ", ".\r\n\t", 1)),
    ("soft hyphen inside nfd umlaut", lambda t: unicodedata.normalize("NFD", t).replace("a\u0308", "a\u00ad\u0308")),
]


@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_invisible_variant_of_reference_scores_like_the_reference(name: str, variant) -> None:
    changed = variant(REF)
    assert changed != REF, name  # the row really changes the code points
    values = {r.metric: r.value for r in compute([changed], [REF], LEXICAL)}
    same = {r.metric: r.value for r in compute([REF], [REF], LEXICAL)}
    assert values == same, name
    # identical texts: BLEU, chrF and ROUGE are exactly 1; METEOR keeps nltk's one-chunk penalty 0.5 * (1/m)^3
    assert {m: v for m, v in values.items() if m != "meteor"} == pytest.approx(
        {m: 1.0 for m in LEXICAL if m != "meteor"}
    )


def test_nfd_reference_observation() -> None:
    # the observation: before, BLEU 0.654 and chrF 0.879 for an NFD-encoded copy of the reference
    nfd = unicodedata.normalize("NFD", REF)
    assert sentence_bleu(REF, nfd).value == pytest.approx(1.0)
    assert sentence_chrf(REF, nfd).value == pytest.approx(1.0)


def test_every_signature_names_the_normalisation() -> None:
    rows = compute(["a"], ["a"], LEXICAL)
    assert all(f"norm:{TEXT_NORMALISATION_ID}" in r.signature for r in rows)


# (input, normalised) - the documented mapping, one row per rule
TABLE = [
    ("a\u0308", "ä"),
    ("Stra\u00adße", "Straße"),
    ("a\u200bb\u200cc\u200dd\u2060e", "abcde"),
    ("\ufeffText", "Text"),
    ("„Anspruch“ ‚aus‘ »Vertrag« ‹x› ‟y”", '"Anspruch" \'aus\' "Vertrag" \'x\' "y"'),
    ("1–2 — 3−4 ‐ 5‑6 ‒ 7―8", "1-2 - 3-4 - 5-6 - 7-8"),
    ("§\u00a0433\u202fAbs.\u2009 2\t\tBGB", "§ 433 Abs. 2 BGB"),
    ("Satz eins.\r\n\r\n\r\n  Satz zwei.  \r Drei", "Satz eins.\n\nSatz zwei.\nDrei"),
    ("  \n x \n  ", "x"),
    ("plain ASCII text, unchanged.", "plain ASCII text, unchanged."),
]


@pytest.mark.parametrize(("raw", "expected"), TABLE)
def test_normalise_text_table(raw: str, expected: str) -> None:
    assert normalise_text(raw) == expected


def test_non_string_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expects a str"):
        normalise_text(None)  # type: ignore[arg-type]


INVISIBLE = st.sampled_from(["\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"])
GERMAN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüßÄÖÜ§ .,;:-123", min_size=1, max_size=80)


@st.composite
def disguised(draw: st.DrawFn) -> tuple[str, str]:
    """A normal German-looking text and a copy with invisible characters, NFD and odd spaces mixed in."""
    text = normalise_text(draw(GERMAN))
    out = []
    for ch in text:
        if draw(st.booleans()):
            out.append(draw(INVISIBLE))
        out.append("\u00a0" if ch == " " and draw(st.booleans()) else ch)
    variant = "".join(out)
    if draw(st.booleans()):
        variant = unicodedata.normalize("NFD", variant)
    return text, variant


@settings(max_examples=150, deadline=None)
@given(disguised())
def test_property_normalisation_removes_disguise_and_is_idempotent(pair: tuple[str, str]) -> None:
    text, variant = pair
    assert normalise_text(variant) == text
    assert normalise_text(text) == text
    assert tokenize(variant) == tokenize(text)


@settings(max_examples=40, deadline=None)
@given(disguised(), disguised())
def test_property_lexical_metrics_see_through_disguise(a: tuple[str, str], b: tuple[str, str]) -> None:
    (cand, cand_v), (ref, ref_v) = a, b
    if not cand or not ref:
        return
    plain = {r.metric: r.value for r in compute([cand], [ref], LEXICAL)}
    disguise = {r.metric: r.value for r in compute([cand_v], [ref_v], LEXICAL)}
    assert disguise == plain


# sacrebleu-style known values on already-normal text: (hypothesis, reference, BLEU 0-100, chrF 0-100 or None)
# BLEU row 2 by hand: p1 = 3/4, p2 = 2/3, p3 = 1/2, p4 = 0/1 -> exp smoothing 100 / (2 * 1) %; BP = 1
# -> 100 * (0.75 * 2/3 * 0.5 * 0.5) ** 0.25 = 59.4604
KNOWN = [
    ("Der Anspruch besteht.", "Der Anspruch besteht.", 100.0, 100.0),
    ("a b c d", "a b c e", 100 * (0.75 * (2 / 3) * 0.5 * 0.5) ** 0.25, None),
    ("Müller haftet.", "Möller haftet.", None, None),
    ("§ 823 Abs. 1 BGB greift nicht.", "Ein Anspruch aus § 823 Abs. 1 BGB besteht.", None, None),
    ("Die Übergabe erfolgte - so K - am 3. Mai.", 'Die Übergabe erfolgte am 3. Mai "ordnungsgemäß".', None, None),
]


@pytest.mark.parametrize(("hyp", "ref", "bleu", "chrf"), KNOWN)
def test_known_values_equal_sacrebleu_on_normal_text(
    hyp: str, ref: str, bleu: float | None, chrf: float | None
) -> None:
    assert normalise_text(hyp) == hyp and normalise_text(ref) == ref
    expected_bleu = sacrebleu.sentence_bleu(hyp, [ref]).score
    expected_chrf = sacrebleu.sentence_chrf(hyp, [ref]).score
    if bleu is not None:
        assert expected_bleu == pytest.approx(bleu, abs=1e-4)
    if chrf is not None:
        assert expected_chrf == pytest.approx(chrf, abs=1e-4)
    assert sentence_bleu(hyp, ref).value * 100 == pytest.approx(expected_bleu, abs=1e-9)
    assert sentence_chrf(hyp, ref).value * 100 == pytest.approx(expected_chrf, abs=1e-9)
