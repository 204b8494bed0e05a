"""norm_f1: F1 of the paragraph-level norm sets of candidate and reference (hand-counted table)."""

import pytest

from benger.metrics import compute

# (candidate, reference, F1, precision, recall)
TABLE = [
    ("Anspruch aus § 433 Abs. 2 BGB.", "Der Anspruch folgt aus § 433 II BGB.", 1.0, 1.0, 1.0),
    # candidate: {433 BGB, 280 BGB}; reference: {433 BGB}: P 1/2, R 1, F1 2/3
    ("§ 433 Abs. 2 BGB und § 280 Abs. 1 BGB.", "§ 433 Abs. 2 BGB.", 2 / 3, 0.5, 1.0),
    # candidate {823 BGB}; reference {823 BGB, 249 BGB, 242 StGB}: P 1, R 1/3, F1 1/2
    ("Nach § 823 Abs. 1 BGB haftet A.", "§ 823 Abs. 1 BGB, § 249 BGB; ferner § 242 StGB.", 0.5, 1.0, 1 / 3),
    ("Ohne Normangabe.", "Art. 2 Abs. 1 GG ist verletzt.", 0.0, None, 0.0),
    ("Ohne Normangabe.", "Auch hier keine.", 1.0, None, None),
]


@pytest.mark.parametrize(("cand", "ref", "f1", "precision", "recall"), TABLE)
def test_norm_f1_known_values(cand: str, ref: str, f1: float, precision: float | None, recall: float | None) -> None:
    row = compute([cand], [ref], ["norm_f1"])[0]
    assert row.value == pytest.approx(f1)
    assert row.details is not None
    assert row.details["precision"] == (None if precision is None else pytest.approx(precision))
    assert row.details["recall"] == (None if recall is None else pytest.approx(recall))
    assert row.signature.startswith("norm_f1|level:paragraph|analyser:gutachten@")
