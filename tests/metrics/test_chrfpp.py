"""chrF++ equals sacrebleu's ``sentence_chrf(word_order=2)`` (table of known values)."""

import pytest
import sacrebleu

from benger.metrics import compute

# (hypothesis, reference, chrF++ 0-100 or None: then only sacrebleu equality)
TABLE = [
    ("Der Anspruch besteht.", "Der Anspruch besteht.", 100.0),
    ("abc", "xyz", 0.0),
    ("Der Käufer zahlt den Preis.", "Der Käufer schuldet den Kaufpreis.", None),
]


@pytest.mark.parametrize(("hyp", "ref", "expected"), TABLE)
def test_chrfpp_known_values(hyp: str, ref: str, expected: float | None) -> None:
    row = compute([hyp], [ref], ["chrfpp"])[0]
    assert row.value * 100 == pytest.approx(sacrebleu.sentence_chrf(hyp, [ref], word_order=2).score)
    if expected is not None:
        assert row.value * 100 == pytest.approx(expected)
    assert row.signature.startswith("chrfpp|nc:6|nw:2|beta:2|norm:")
