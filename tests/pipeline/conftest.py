"""Fixtures for pipeline tests: a small corpus with markers the stub's fault scripts can match."""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.schema import Corpus, FalloesungTask, PrincipleItem


def make_corpora(n_fall: int = 8, n_gp: int = 4) -> list[Corpus]:
    """Falllösung tasks FALL-01.. and Grundprinzip items PRINZIP-01.. (markers are unique substrings)."""
    fall = [
        FalloesungTask(task_id=f"t-fall-{i:02d}", corpus="e2e-fall", area="Zivilrecht",
                       facts=f"Sachverhalt FALL-{i:02d}: K kauft von V ein Fahrrad; V liefert nicht.",
                       reference=f"Musterlösung zu FALL-{i:02d}: Anspruch aus § 433 Abs. 1 BGB besteht.")
        for i in range(1, n_fall + 1)
    ]  # fmt: skip
    gp = [
        PrincipleItem(task_id=f"t-gp-{i:02d}", corpus="e2e-gp", area="Strafrecht",
                      case=f"Fall PRINZIP-{i:02d}: A nimmt B das Handy weg.", question="Ist A strafbar?",
                      gold_answer="Ja" if i % 2 else "Nein", gold_reasoning="§ 242 Abs. 1 StGB.")
        for i in range(1, n_gp + 1)
    ]  # fmt: skip
    return [Corpus(name="e2e-fall", tasks=fall), Corpus(name="e2e-gp", tasks=gp)]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "pipeline.db"
