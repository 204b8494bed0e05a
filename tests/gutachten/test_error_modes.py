"""The §6.6 error modes: hand-computed classifications, and the command on the imported release."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.analysis._error_modes import ErrorModeParams, classify, classify_generations, error_modes_markdown
from benger.cli import app
from benger.cli._app import _register_commands
from benger.errors import InputError
from benger.judge import falloesung_rubric
from benger.schema import FalloesungTask, Generation, Judgement

_register_commands()
runner = CliRunner()
MAXIMA = {"ergebnisrichtigkeit": falloesung_rubric().maxima()}
FULL = {k: 1.0 for k in falloesung_rubric().maxima()}


def test_long_but_shallow_needs_length_and_both_low_dimensions() -> None:
    # Ergebnisrichtigkeit 0.6: 0.1 from Subsumtion, so no divergence
    shallow = FULL | {"subsumtion": 7.5 / 15, "schwerpunktsetzung": 5 / 10, "ergebnisrichtigkeit": 0.6}
    assert classify(shallow, 2001, ErrorModeParams()) == ["long_but_shallow"]
    assert classify(shallow, 2000, ErrorModeParams()) == []  # "over 2,000 words"
    assert classify(shallow, None, ErrorModeParams()) == []
    assert classify(shallow | {"subsumtion": 8 / 15}, 5000, ErrorModeParams()) == []
    assert classify(shallow, 1500, ErrorModeParams(long_words=1000)) == ["long_but_shallow"]


def test_wrong_norm_framing_and_divergence() -> None:
    framing = FULL | {"methodischer_stil": 0.7, "gliederung": 0.8, "rechtsgrundlagen": 0.5, "rechtskenntnis": 0.4}
    assert classify(framing, 100, ErrorModeParams()) == ["wrong_norm_framing"]
    assert classify(framing | {"gliederung": 0.6}, 100, ErrorModeParams()) == []
    diverge = FULL | {"subsumtion": 0.9, "ergebnisrichtigkeit": 0.5}
    assert classify(diverge, 100, ErrorModeParams()) == ["reasoning_outcome_divergence"]
    assert classify(diverge, 100, ErrorModeParams(divergence_gap=0.41)) == []
    principles = {"subsumption": 0.2, "result_correctness": 1.0}
    assert classify(principles, 50, ErrorModeParams()) == ["reasoning_outcome_divergence"]


def _judgement(gid: str, dims: dict[str, float], judge: str = "j") -> Judgement:
    return Judgement(
        judgement_id=f"{gid}:{judge}",
        target_kind="generation",
        target_id=gid,
        judge=judge,
        judge_config_hash="h",
        rubric_id="falloesung@1",
        status="scored",
        dimensions=dims,
        total=sum(dims.values()),
    )


def test_counts_overlaps_and_analyser_evidence() -> None:
    maxima = falloesung_rubric().maxima()
    shallow_and_framed = {k: v for k, v in maxima.items()} | {
        "subsumtion": 5.0,
        "schwerpunktsetzung": 3.0,
        "rechtsgrundlagen": 4.0,
        "rechtskenntnis": 6.0,
        "ergebnisrichtigkeit": 8.0,  # 0.40 vs Subsumtion 0.33: no divergence
    }
    long_text = "Hier prüft A den § 433 BGB. " * 400  # 2,800 whitespace tokens, 2,400 analyser words (no "§")
    gens = {
        "g1": Generation(generation_id="g1", task_id="t1", system="big", config_hash="c1", text=long_text),
        "g2": Generation(generation_id="g2", task_id="t1", system="small", config_hash="c2", text=""),
    }
    task = FalloesungTask(task_id="t1", corpus="c", area="Zivilrecht", facts="F", reference="§ 433 BGB und § 280 BGB")
    report = classify_generations(
        gens,
        [_judgement("g1", shallow_and_framed), _judgement("g2", dict(maxima))],
        MAXIMA,
        tiers={"big": "flagship", "small": "open_reference"},
        tasks={"t1": task},
        words={"g2": 2500},
    )
    assert report.n_judged == 2 and report.n_without_length == 0
    assert report.counts == {"long_but_shallow": 1, "wrong_norm_framing": 1, "reasoning_outcome_divergence": 0}
    assert report.overlaps["long_but_shallow+wrong_norm_framing"] == 1
    assert report.by_tier["flagship"] == {
        "n": 1,
        "long_but_shallow": 1,
        "wrong_norm_framing": 1,
        "reasoning_outcome_divergence": 0,
    }
    flagged = report.items[0]
    assert flagged.words == 2800 and flagged.norm_recall == 0.5
    assert flagged.subsumtion_per_1000_words == pytest.approx(1000 * 400 / 2400)
    assert report.items[1].excerpt.startswith("(text not stored")
    assert report.provenance["judge"] == "j"
    md = error_modes_markdown(report)
    assert "| flagship | 1 | 1 (100%) | 1 (100%) | 0 (0%) |" in md
    assert "long_but_shallow & wrong_norm_framing: 1" in md


def test_mixed_judges_are_refused() -> None:
    gens = {"g1": Generation(generation_id="g1", task_id="t1", system="s", config_hash="c", text="x")}
    dims = dict(falloesung_rubric().maxima())
    with pytest.raises(InputError, match="several judges"):
        classify_generations(
            gens, [_judgement("g1", dims, "a"), _judgement("g1", dims, "b")], MAXIMA, tiers={}, tasks={}
        )


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(
    request: pytest.FixtureRequest, tmp_path: Path, pg_database: Callable[[str], AbstractContextManager[str]]
) -> Iterator[str]:
    """An empty store: an SQLite file, or a fresh PostgreSQL database (the store is read by public methods)."""
    if request.param == "sqlite":
        yield str(tmp_path / "release.db")
    else:
        with pg_database("benger_gutachten") as url:
            yield url


@pytest.mark.release
def test_errors_command_on_the_imported_release(release_dir: Path, store_url: str) -> None:
    db = store_url
    imported = runner.invoke(app, ["import", f"release:{release_dir}", "--db", db])
    assert imported.exit_code == 0, imported.output
    result = runner.invoke(app, ["errors", "--db", db, "--release", str(release_dir), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    # the 180 final-campaign generations (superseded ones are excluded), all with a length
    assert report["n_judged"] == 180 and report["n_without_length"] == 0
    assert sum(row["n"] for row in report["by_tier"].values()) == 180
    assert report["provenance"]["judge"] == "gpt-5.4-mini"
    counts = report["counts"]
    assert 0 < counts["long_but_shallow"] < 180
    # the paper: long-but-shallow generations concentrate in the flagship tier
    tiers = report["by_tier"]
    assert tiers["flagship"]["long_but_shallow"] / 60 > tiers["open_reference"]["long_but_shallow"] / 90
    # without the release's word counts only the 14 final-campaign LLM picks have a text (P33 is superseded)
    bare = runner.invoke(app, ["errors", "--db", db, "--format", "json"])
    assert json.loads(bare.output)["n_without_length"] == 166
    assert json.loads(bare.output)["counts"]["long_but_shallow"] <= counts["long_but_shallow"]
    # a stored LLM pick (P45) is analysed against its task's reference; a withheld text is bad input
    pick = runner.invoke(
        app,
        ["inspect-solution", "--generation", "dee799c9-9a82-4c0c-8ae3-0116fcd50b28", "--db", db, "--format", "json"],
    )
    assert pick.exit_code == 0, pick.output
    data = json.loads(pick.output)
    assert data["source"] == "generation dee799c9-9a82-4c0c-8ae3-0116fcd50b28"
    assert data["comparison"]["norms_paragraph"]["reference"] > 5
    withheld = next(i for i in report["items"] if i["excerpt"].startswith("(text not stored"))
    missing = runner.invoke(app, ["inspect-solution", "--generation", withheld["generation_id"], "--db", db])
    assert missing.exit_code == 2 and "no stored text" in missing.output
