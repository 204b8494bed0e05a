"""The store keeps the rubric of every judgement (issue 31, migration 0015_rubric_store): a store judged under an
own 3-dimension rubric is analysed (and its reviews imported) without `--rubric`; a given rubric file that is not
the kept one is refused, naming both; a store without the kept rubric (judged before 0015) still asks for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import delete
from typer.testing import CliRunner

from benger.analysis._percent import PERCENT_SCALE
from benger.cli import app
from benger.cli._app import _register_commands
from benger.errors import InputError
from benger.judge import load_rubric, rubric_data, rubric_from_data
from benger.pipeline import load_run_config, run_config
from benger.report import analyze
from benger.store import open_store
from benger.store._models import RubricRow
from benger.testing.stub_server import run_stub_server
from benger.web.access import Access
from benger.web.viewer._pages import validation_blocks
from benger.web.viewer._reader import ResultsReader

from .test_own_study import _factory, check_judgements, own_study

runner = CliRunner()
_register_commands()


def _reviews(store: Any, rubric: Any, path: Path) -> Path:
    """Two blind reviewers and a creator for each solution judged under the corpus rubric (not mm-03's Bogen)."""
    gens = [g for g in store.generations() if g.task_id != "mm-03"]
    lines = ["solution_id,reviewer,role," + ",".join(rubric.keys)]
    for n, gen in enumerate(sorted(gens, key=lambda g: g.generation_id)):
        for reviewer, role, score in (("R1", "blind", 4), ("R2", "blind", 6 + 2 * n), ("C", "creator", 8)):
            lines.append(f"{gen.generation_id},{reviewer},{role},{score},{score},{score}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _numbers(results: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in json.loads(json.dumps(results, default=str)).items() if k != "provenance"}


@pytest.mark.slow
async def test_analyze_finds_the_kept_rubric_without_a_flag(tmp_path: Path) -> None:
    with run_stub_server(latency_ms=5) as stub:
        path = own_study(tmp_path, stub.base_url)
        db = tmp_path / "study.db"
        store = open_store(db)
        result = await run_config(load_run_config(path), store, model_factory=_factory())
        assert result.complete
        check_judgements(store, path.parent)
    kurz3 = load_rubric(path.parent / "rubrics" / "kurz3.yaml")
    bogen = load_rubric(path.parent / "rubrics" / "bogen-mietminderung.yaml")
    kept = {r.rubric_id: r for r in store.stored_rubrics()}
    assert set(kept) == {kurz3.id, bogen.id}  # the corpus rubric and mm-03's Bewertungsbogen, by content
    assert kept[kurz3.id].content_hash == kurz3.content_hash and kept[kurz3.id].payload == rubric_data(kurz3)
    assert store.judged_rubric_ids("faelle") == {kurz3.id: 2, bogen.id: 1}
    reviews = _reviews(store, kurz3, tmp_path / "reviews.csv")
    store.close()
    # the reviews are checked against the kept rubric's three dimensions: no --rubric
    done = runner.invoke(app, ["import-reviews", str(reviews), "--db", str(db)])
    assert done.exit_code == 0, done.output
    assert "imported 6 reviews (4 blind, 2 creator) of 2 solutions by 3 reviewers" in done.output
    plain = analyze(str(db), tmp_path / "a", n_boot=200, corpora=["faelle"])  # failed before: "--rubric"
    named = analyze(str(db), tmp_path / "b", n_boot=200, corpora=["faelle"], rubrics={"faelle": kurz3})
    assert _numbers(plain) == _numbers(named)
    assert (tmp_path / "a" / "report.html").is_file()
    with open_store(db) as reopened:  # the viewer's judge validation: on percent of the kept rubric's total
        (block,) = validation_blocks(reopened, ResultsReader(Access(reopened, None)))
    assert block["corpus"] == "faelle" and "error" not in block, block.get("error")
    assert block["scale"] == PERCENT_SCALE
    # another rubric than the one judged with (same name and version, one descriptor edited): refused, both named
    data = rubric_data(kurz3)
    data["dimensions"][0]["bands"][0]["description"] += " (geändert)"
    other = rubric_from_data(data)
    with pytest.raises(InputError) as info:
        analyze(str(db), tmp_path / "c", n_boot=200, corpora=["faelle"], rubrics={"faelle": other})
    message = str(info.value)
    assert info.value.field == "--rubric" and other.id in message and kurz3.id in message
    assert other.content_hash[:8] in message and "leave --rubric out" in message
    other_file = tmp_path / "other.yaml"
    other_file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    refused = runner.invoke(app, ["analyze", "--db", str(db), "--corpus", "faelle", "--rubric",
                                  f"faelle={other_file}", "--out", str(tmp_path / "d")])  # fmt: skip
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert kurz3.id in " ".join(refused.output.split())


@pytest.mark.slow
async def test_a_store_without_the_kept_rubric_asks_for_it(tmp_path: Path) -> None:
    """Judgements stored before 0015 have no kept rubric: the rubric file is needed, as before, and named."""
    with run_stub_server(latency_ms=5) as stub:
        path = own_study(tmp_path, stub.base_url)
        db = tmp_path / "study.db"
        store = open_store(db)
        assert (await run_config(load_run_config(path), store, model_factory=_factory())).complete
    kurz3 = load_rubric(path.parent / "rubrics" / "kurz3.yaml")
    with store.session() as session:
        session.execute(delete(RubricRow))  # as a store judged before migration 0015_rubric_store
    store.close()
    with open_store(db) as reopened:
        reviews = _reviews(reopened, kurz3, tmp_path / "reviews.csv")
    done = runner.invoke(app, ["import-reviews", str(reviews), "--db", str(db), "--rubric", f"faelle={path.parent}"
                               "/rubrics/kurz3.yaml"])  # fmt: skip
    assert done.exit_code == 0, done.output
    with pytest.raises(InputError, match=r"name the corpus's rubric with --rubric faelle=FILE"):
        analyze(str(db), tmp_path / "a", n_boot=200, corpora=["faelle"])
    with open_store(db) as reopened:  # the viewer says why it cannot scale them, never raw points
        (block,) = validation_blocks(reopened, ResultsReader(Access(reopened, None)))
    assert "cannot put these scores on percent" in block["error"] and kurz3.id in block["error"]
    named = analyze(str(db), tmp_path / "b", n_boot=200, corpora=["faelle"], rubrics={"faelle": kurz3})
    assert named["provenance"]["corpus"] == "faelle"


def test_a_fault_in_an_inline_rubric_is_named_in_the_config(tmp_path: Path) -> None:
    """A run config may carry the rubric itself (how a browser run's uploaded rubric travels): it is checked as a
    rubric file is, and a fault is named by the config's file, line and the field under rubrics.CORPUS."""
    path = own_study(tmp_path, "http://127.0.0.1:9/v1")
    kurz3 = load_rubric(path.parent / "rubrics" / "kurz3.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["rubrics"] = {"faelle": rubric_data(kurz3)}
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert load_run_config(path).resolved_rubrics() == {"faelle": kurz3}
    data["rubrics"]["faelle"]["dimensions"][0]["bands"][0]["high"] = 9  # 8-9, then nothing up to the maximum 10
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_run_config(path)
    assert info.value.file == str(path) and info.value.field == "rubrics.faelle.dimensions[0].bands"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert info.value.line is not None and lines[info.value.line - 2].strip() == "bands:"  # the list's first line
