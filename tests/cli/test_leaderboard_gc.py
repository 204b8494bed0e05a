"""``benger leaderboard`` runs with Python's cyclic garbage collector paused (issue 26: its imports built ~75k
long-lived objects that ~200 collections traversed again, 0.07 CPU-s on an 8k store, collecting ~1,000) and
enabled again after it, also when it fails; a collector the caller had turned off stays off."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import benger.analysis
from benger.cli import app
from benger.cli._app import _register_commands
from benger.cli._leaderboard import gc_paused

from .test_lazy_imports import _small_store

_register_commands()
runner = CliRunner()


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_the_block_and_restored(collector_on: None) -> None:
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError), gc_paused():
        raise KeyError("x")
    assert gc.isenabled()
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()  # the caller's choice


def test_the_command_builds_the_board_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, collector_on: None
) -> None:
    db = tmp_path / "small.db"
    _small_store(db)
    seen: list[bool] = []
    real = benger.analysis.leaderboard_from_store

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(benger.analysis, "leaderboard_from_store", spy)
    result = runner.invoke(app, ["leaderboard", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "sys-a" in result.output and seen == [False]
    assert gc.isenabled()
    missing = runner.invoke(app, ["leaderboard", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 2, missing.output
    assert gc.isenabled()
