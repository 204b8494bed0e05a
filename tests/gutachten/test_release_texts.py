"""The analyser over every released solution text (45 picks, 15 reference solutions) and the validity
table on the picks. Timing is measured by benchmarks/bench_gutachten.py, not here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from benger.analysis._gutachten_validity import validity_table
from benger.corpora import load_release
from benger.gutachten import analyse, compare

pytestmark = [pytest.mark.release]
BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_gutachten.py"


@pytest.fixture(scope="module")
def texts(release_dir: Path) -> tuple[list[tuple[str, str, int]], dict[int, str]]:
    spec = importlib.util.spec_from_file_location("bench_gutachten", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.load_texts(release_dir)  # type: ignore[no-any-return]


def test_every_released_text_gives_sane_output(texts: tuple[list[tuple[str, str, int]], dict[int, str]]) -> None:
    picks, refs = texts
    assert len(picks) == 45 and len(refs) == 15
    references = {k: analyse(v) for k, v in refs.items()}
    for ref_text, ref in zip(refs.values(), references.values(), strict=True):
        assert ref.structure.flat_text  # the released references have no line breaks
        assert len(ref.norm_keys) >= 5 and ref.structure.headings and ref.claims
        for c in ref.citations:
            assert ref_text[c.start : c.end] == c.text
    recalls = []
    for pick_id, text, inner in picks:
        a = analyse(text)
        assert a.words > 100, pick_id
        for h in a.structure.headings:
            assert text[h.start : h.start + len(h.marker)] == h.marker
            assert h.parent is None or a.structure.headings[h.parent].rank < h.rank
        for s in a.sections:
            for hit in s.steps:
                assert s.start <= hit.sentence_start <= hit.start < hit.end <= hit.sentence_end <= s.end
                assert text[hit.start : hit.end] == hit.marker
        for p in a.citation_problems + a.structure.problems:
            assert text[p.start : p.end] == p.text
        cmp = compare(a, references[inner])
        assert cmp.norms_paragraph.recall is not None and 0 <= cmp.norms_paragraph.recall <= 1
        recalls.append(cmp.norms_paragraph.recall)
    # a solution to the same case cites some of the reference's norms
    assert sum(r > 0 for r in recalls) >= 40


def test_validity_table_on_the_picks(release_dir: Path) -> None:
    table = validity_table(load_release(release_dir), n_resamples=300)
    rows = {(r.feature, r.target): r for r in table.rows}
    assert rows[("norm_recall", "human_raw")].n == 45
    assert rows[("norm_recall", "judge_raw")].n == 45
    assert rows[("norm_recall", "judge_subsumtion")].n == 15  # judge dimensions exist for the LLM picks only
    for r in table.rows:
        if r.rho is not None:
            assert -1 <= r.rho <= 1
        if r.low is not None and r.high is not None:
            assert r.low <= r.high
    assert "bootstrap" in table.provenance["ci"]
