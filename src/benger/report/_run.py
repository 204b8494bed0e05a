"""End-to-end runs: recompute the results from the release or a store and write every output."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benger.errors import InputError
from benger.report._build import describe_inputs, write_report
from benger.report._heatmap import task_system_from_study


def _compute(data: Any, seed: int, n_boot: int, include_superseded: bool = False) -> dict[str, Any]:
    from benger.analysis import compute_all

    results: dict[str, Any] = compute_all(data, seed=seed, n_boot=n_boot, include_superseded=include_superseded)
    rq1 = results.setdefault("rq1", {})
    if isinstance(rq1, dict) and not rq1.get("task_system"):
        rq1["task_system"] = task_system_from_study(data)
    return results


def _gutachten_validity(root: Path, seed: int, n_boot: int) -> dict[str, Any]:
    """The Gutachtenstil analyser's features against judge and blind human scores on the released picks
    (issue 16 §3; ``benger gutachten-validity`` prints the full matrices). At most 1,000 resamples keep
    ``benger reproduce`` inside its time budget."""
    from benger.analysis._gutachten_validity import validity_table
    from benger.corpora import load_release

    n_resamples = min(n_boot, 1000)
    table = validity_table(load_release(root), n_resamples=n_resamples, seed=seed)
    return {
        "method": "Spearman rho of each analyser feature with the primary judge's and the blind human pool's raw "
        f"score per pick, 95% paired percentile bootstrap CI ({n_resamples} resamples); partial rho controls "
        "for the word count",
        "inputs": table.provenance,
        **table.model_dump(mode="json", exclude={"provenance"}),
    }


def reproduce(
    release: str | Path, out: str | Path, *, seed: int = 7, n_boot: int = 2000, include_superseded: bool = False
) -> dict[str, Any]:
    """Recompute every reported number from the release folder and write results, tables, figures and HTML.

    ``include_superseded`` counts the 28 superseded April Benchathon generations as final, as the paper prints."""
    root = Path(release)
    if not (root / "data").is_dir():
        raise InputError("not a BenGER release folder (expected a data/ folder inside)", file=root)
    from benger.analysis import StudyData

    results = _compute(StudyData.from_release(root), seed, n_boot, include_superseded)
    results["gutachten_validity"] = _gutachten_validity(root, seed, n_boot)
    files = [p for p in (root / "data").rglob("*") if p.is_file()]
    flag = " --include-superseded" if include_superseded else ""
    results["provenance"] = {
        "source": "release",
        "location": str(root.resolve()),
        "command": f"benger reproduce --release {release} --out {out} --seed {seed} --n-boot {n_boot}{flag}",
        "files": describe_inputs(root, files),
    }
    write_report(results, out)
    return results


def _redact(url: str) -> str:
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


def analyze(db: str | None, out: str | Path, *, seed: int = 7, n_boot: int = 2000) -> dict[str, Any]:
    """The same outputs as :func:`reproduce` for a study run with benger, read from its store."""
    from benger.analysis import StudyData
    from benger.config import require_existing_store
    from benger.store import open_store
    from benger.store._aggregate import refresh_statistics

    url = require_existing_store(db)
    files = []
    if url.startswith("sqlite:///"):
        # the leaderboard's one-off planner statistics are written first, so the hash is of the store as read
        store = open_store(db)
        try:
            refresh_statistics(store)
        finally:
            store.close()
        path = Path(url[len("sqlite:///") :])
        files = describe_inputs(path.parent, [path])
    store = open_store(db)
    try:
        results = _compute(StudyData.from_store(store), seed, n_boot)
    finally:
        store.close()
    results["provenance"] = {
        "source": "store",
        "location": _redact(url),
        "command": f"benger analyze --db {_redact(db or url)} --out {out} --seed {seed} --n-boot {n_boot}",
        "files": files,
    }
    write_report(results, out)
    return results
