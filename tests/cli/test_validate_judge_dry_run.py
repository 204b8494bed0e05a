"""``validate-judge --dry-run`` writes nothing, as every dry run (``cli._budget.estimate_store``).

Before: ``benger validate-judge --judge gpt-5.4-mini --dry-run --release DIR --db STORE`` imported the release's
validation picks into the store it names (and created the store where there was none); the estimate of judging
the picks now reads them from the store only where it holds them already, else from a scratch store that is
removed afterwards. Each kind of store is left byte for byte: none, an empty benger store, one that holds the
release (whose judgements the estimate counts as done, as a rerun would).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.schema import Judgement
from benger.store import open_store

_register_commands()
runner = CliRunner()
NO_KEYS = {"OPENAI_API_KEY": None}


def _files(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` with its sha256 (the store and any -wal/-shm/-journal beside it)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _none(db: Path, release: Path) -> None:
    return None


def _empty(db: Path, release: Path) -> None:
    open_store(db).close()


def _with_release(db: Path, release: Path) -> None:
    store = open_store(db)
    try:
        store.import_release(release)
    finally:
        store.close()


STORES: dict[str, Callable[[Path, Path], None]] = {
    "no store": _none,
    "empty store": _empty,
    "store holding the release": _with_release,
}


@pytest.mark.parametrize("kind", STORES)
def test_a_dry_run_of_validate_judge_writes_nothing(kind: str, release_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "stores"
    folder.mkdir()
    db = folder / "v.db"
    STORES[kind](db, release_dir)
    before = _files(folder)
    args = ["validate-judge", "--judge", "gpt-5.4-mini", "--release", str(release_dir), "--db", str(db)]
    result = runner.invoke(app, [*args, "--dry-run", "--limit", "3"], env={**NO_KEYS, "COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "Dry run" in result.output and "│ 3 " in result.output, result.output  # 3 picks to judge
    assert _files(folder) == before, f"{kind}: the dry run wrote {sorted(_files(folder))}"
    if kind == "no store":
        assert not db.exists()


def test_a_dry_run_counts_the_picks_a_store_has_judged_already(release_dir: Path, tmp_path: Path) -> None:
    """On a store that holds the release and a judgement of one pick, the dry run plans the others only (it
    reads the store it leaves unchanged)."""
    from benger.analysis import StudyData
    from benger.analysis._validate_run import pick_targets, picks_judge_key
    from benger.cli._execute import _config

    db = tmp_path / "v.db"
    _with_release(db, release_dir)
    cfg = _config(None, judge=["gpt-5.4-mini"], need=("judges",), calls=("judge",), dry_run=True)
    judge = cfg.resolved_judges()[0]
    judge_hash, rubric_id = picks_judge_key(cfg, judge)
    first = sorted(pick_targets(StudyData.from_release(release_dir)), key=lambda t: t[1])[0]
    store = open_store(db)
    try:
        store.save_judgement(
            Judgement(judgement_id="done", target_kind=first[0], target_id=first[1], judge=judge.name,
                      judge_config_hash=judge_hash, rubric_id=rubric_id, repeat_index=0, status="scored",
                      total=50.0)
        )  # fmt: skip
    finally:
        store.close()
    before = _files(tmp_path)
    args = ["validate-judge", "--judge", "gpt-5.4-mini", "--release", str(release_dir), "--db", str(db)]
    result = runner.invoke(app, [*args, "--dry-run", "--limit", "3"], env={**NO_KEYS, "COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "│ 2 " in result.output, result.output  # the first of the 3 picks is judged already
    assert _files(tmp_path) == before
