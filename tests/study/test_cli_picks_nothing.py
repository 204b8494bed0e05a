"""``benger study picks`` on a study with nothing human to pick (new-user report, 2026-12-04): it stored six LLM
picks and moved the closed study to ``picked``, so the study could no longer be reopened. Picks need at least one
submission with text (``benger.study._draw._run_picks``); without one the step is refused with one message, exit 2,
and the store is left as it was (its whole content compared), for every way a study can end up without one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from study_helpers import user
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import Store
from benger.study import close_study, create_study, enrol, open_study, run_picks, skip, start, submit

_register_commands()
runner = CliRunner()
COMPETENCE = {"Zivilrecht": 3, "Strafrecht": 3, "Öffentliches Recht": 3}
MESSAGE = "The study has no submitted solution; picks need at least one submission with text"


def _nobody(store: Store, study: int) -> None:
    """Nobody enrolled."""


def _enrolled_only(store: Store, study: int) -> None:
    enrol(store, study, user(store, "anna", "participant"))


def _skipped(store: Store, study: int) -> None:
    anna = user(store, "anna", "participant")
    enrol(store, study, anna)
    skip(store, study, anna, "mini-t1", "keine Zeit")


def _empty_draft_closed(store: Store, study: int) -> None:
    """A started task with no text: the close submits the empty draft automatically."""
    anna = user(store, "anna", "participant")
    enrol(store, study, anna)
    start(store, study, anna, "mini-t1")


def _blank_submission(store: Store, study: int) -> None:
    anna = user(store, "anna", "participant")
    enrol(store, study, anna)
    start(store, study, anna, "mini-t1")
    submit(store, study, anna, "mini-t1", "  \n\t ")


CASES: dict[str, Callable[[Store, int], None]] = {
    "nobody-enrolled": _nobody,
    "enrolled-only": _enrolled_only,
    "skipped": _skipped,
    "empty-draft-closed": _empty_draft_closed,
    "blank-submission": _blank_submission,
}


def _content(store: Store) -> list[str]:
    """The store's whole content as SQL text (rows of every table)."""
    import sqlite3

    connection = sqlite3.connect(f"file:{store.engine.url.database}?mode=ro", uri=True)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


@pytest.mark.parametrize("case", list(CASES), ids=str)
def test_picks_without_a_submission_is_refused_and_changes_nothing(case: str, store: Store) -> None:
    study = create_study(store, "Leer", "mini", seed=1)
    open_study(store, study)
    CASES[case](store, study)
    close_study(store, study)
    before = _content(store)
    result = runner.invoke(app, ["study", "picks", "--study", "Leer", "--db", str(store.engine.url.database)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and MESSAGE in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert _content(store) == before
    open_study(store, study)  # still closed without picks: it may be reopened


def test_one_submission_with_text_is_enough(store: Store) -> None:
    study = create_study(store, "Eine", "mini", seed=1)
    open_study(store, study)
    anna = user(store, "anna", "participant")
    enrol(store, study, anna)
    start(store, study, anna, "mini-t1")
    submit(store, study, anna, "mini-t1", "Anna fertig")
    close_study(store, study)
    assert run_picks(store, study) == 7  # Anna's solution and one generation per task


@pytest.mark.parametrize("case", list(CASES), ids=str)
def test_llm_only_picks_one_generation_per_task_without_a_submission(case: str, store: Store) -> None:
    """A study that validates the judge on LLM generations alone says so (``--llm-only``): one LLM pick per task
    of the mini corpus (six), the study moves to picked; the release test does the same on the imported release."""
    study = create_study(store, "Nur-LLM", "mini", seed=1)
    open_study(store, study)
    CASES[case](store, study)
    close_study(store, study)
    db = str(store.engine.url.database)
    result = runner.invoke(app, ["study", "picks", "--study", "Nur-LLM", "--llm-only", "--db", db])
    assert (result.exit_code, result.output) == (0, "6 picks\n"), result.output


def test_llm_only_leaves_a_submission_unpicked(store: Store) -> None:
    study = create_study(store, "Nur-LLM-mit", "mini", seed=1)
    open_study(store, study)
    anna = user(store, "anna", "participant")
    enrol(store, study, anna)
    start(store, study, anna, "mini-t1")
    submit(store, study, anna, "mini-t1", "Anna fertig")
    close_study(store, study)
    assert run_picks(store, study, llm_only=True) == 6  # the generations only; with Anna's solution it was 7
