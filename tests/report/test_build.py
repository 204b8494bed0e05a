"""write_report: every output file, results.json as strict JSON, a self-contained escaped HTML report."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from benger.report import write_report


def test_write_report_outputs(results: dict[str, Any], tmp_path: Path) -> None:
    results["rq1"]["leaderboard"]["rows"][0]["display"] = "<script>alert(1)</script>"
    results["rq5"]["creator_vs_blind"]["pearson"] = math.nan  # not computable: must become null
    results["rq1"]["task_system"] = {
        "method": "cell means",
        "inputs": ["generations:3"],
        "judge": "gpt54mini",
        "systems": [{"system": "a", "display": "A", "mean": 60.0}, {"system": "b", "display": "B", "mean": 50.0}],
        "tasks": [
            {"task_id": "t1", "label": "Civ 1", "area": "Zivilrecht"},
            {"task_id": "t2", "label": "Crim 2", "area": "Strafrecht"},
        ],
        "values": [[60.0, None], [50.0, 50.0]],
        "n": [[1, 0], [1, 1]],
    }
    sections = write_report(results, tmp_path)
    data = json.loads((tmp_path / "results.json").read_text("utf-8"))
    assert data["rq5"]["creator_vs_blind"]["pearson"] is None
    assert data["rq1"]["task_system"]["values"][0][1] is None
    for name in (
        "leaderboard",
        "rq2_groups",
        "rq3_metrics",
        "rq4_delta",
        "rq5_agreement",
        "rq5_alt_human",
        "rq5_calibration",
        "rq5_irr",
        "rq5_dimensions",
        "paired_systems",
    ):
        for ext in ("md", "tex"):
            assert (tmp_path / "tables" / f"{name}.{ext}").stat().st_size > 0
    for name in (
        "leaderboard",
        "task_system_heatmap",
        "metric_judge_correlation",
        "judge_calibration",
        "per_dimension_agreement",
    ):
        assert (tmp_path / "figures" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"<svg" in (tmp_path / "figures" / f"{name}.svg").read_bytes()[:2000]
    assert not list(tmp_path.rglob("*.tmp"))  # atomic writes leave no temporaries
    html = (tmp_path / "report.html").read_text("utf-8")
    assert "<script" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html)  # no external resources
    assert html.count("data:image/svg+xml;base64,") == 5
    # the absent per-area RQ4 table is reported, not silently dropped
    assert "Not available: per-annotation judge scores are not released" in html
    ids = [i.id for s in sections for i in s.items]
    assert len(ids) == len(set(ids))
    for i in ids:
        assert f'id="{i}"' in html and f'href="#{i}"' in html


def test_rerun_with_fewer_inputs_removes_stale_outputs(results: dict[str, Any], tmp_path: Path) -> None:
    write_report(results, tmp_path)
    assert (tmp_path / "tables" / "rq5_dimensions.md").exists()
    assert (tmp_path / "figures" / "per_dimension_agreement.svg").exists()
    results["rq5"]["per_dimension"]["pools"] = {}  # no pool has judge dimension scores
    write_report(results, tmp_path)
    assert not (tmp_path / "tables" / "rq5_dimensions.md").exists()
    assert not (tmp_path / "tables" / "rq5_dimensions.tex").exists()
    assert not (tmp_path / "figures" / "per_dimension_agreement.png").exists()
    assert not (tmp_path / "figures" / "per_dimension_agreement.svg").exists()
    assert (tmp_path / "tables" / "leaderboard.md").exists()  # the rest is rewritten
    html = (tmp_path / "report.html").read_text("utf-8")
    assert "Not available: results.json has no rq5.per_dimension" in html


def test_unexpected_free_form_content_is_reported_not_fatal(results: dict[str, Any], tmp_path: Path) -> None:
    # the creator-calibration cells are free-form in the model (``dict[str, Any]``): one the builder cannot read
    # becomes a single "not available" item naming the error, and the rest of the report is written
    cell = {"omega": 0.5, "rho": 0.5, "ci_clopper": 5}  # an interval that is not a pair
    results["rq5"]["creator_calibration"]["pooled_loo"] = {"gpt54mini": {"human": {"raw": cell}}}
    sections = write_report(results, tmp_path)
    broken = [i for s in sections for i in s.items if i.id.startswith("broken_")]
    assert [b.id for b in broken] == ["broken_rq5_table_7"]
    html = (tmp_path / "report.html").read_text("utf-8")
    assert "could not be built from results.json (TypeError" in html
    assert (tmp_path / "tables" / "leaderboard.md").exists()


def test_store_url_password_is_masked_in_provenance() -> None:
    from benger.report._run import _redact

    assert _redact("postgresql+psycopg://bob:s3cret@127.0.0.1:5432/study") == (
        "postgresql+psycopg://bob:***@127.0.0.1:5432/study"
    )
    assert _redact("sqlite:////tmp/study.db") == "sqlite:////tmp/study.db"


def test_sha256_file_stops_when_asked(tmp_path: Path) -> None:
    """``benger analyze`` hashes the store alongside the analysis; an error or Ctrl-C stops the hash at once."""
    import hashlib
    import threading

    from benger.report._build import sha256_file

    path = tmp_path / "store.db"
    path.write_bytes(b"x" * (3 << 20))
    assert sha256_file(path) == hashlib.sha256(path.read_bytes()).hexdigest()
    stop = threading.Event()
    stop.set()
    with pytest.raises(InterruptedError):
        sha256_file(path, stop)
