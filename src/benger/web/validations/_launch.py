"""Launching a validation: ``validate-judge``'s code (:mod:`benger.analysis._validate_run`) in a thread of the
server, with the server's run executor (``local``: the judge's calls made here; ``celery``: by ``benger worker``
processes) and the organisation's API keys, as a run is launched (:mod:`benger.web.runs._launch`).

The judge is one of the finished run's judges, taken from the run's config (its endpoint, rubrics, prompts
and retry budget), judging once per solution: the judgements the run already stored under the same judge,
rubric and prompts are reused, not paid again. Progress (judgements done of total) is written to the row as
the judging goes; the result table (``validate_judge``'s dict) when it ends. A refusal (too few reviewed
solutions or blind reviewers, a missing release) ends the validation ``failed`` with the message the CLI
prints.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select

from benger.errors import BengerError, ConfigError
from benger.llm._keys import supplied_keys
from benger.pipeline import RunConfig
from benger.pipeline._progress import ProgressReporter, RunStats
from benger.store import Store
from benger.store._base import utcnow
from benger.study._workbench_models import ACTIVE_STATES, WorkbenchRun, WorkbenchValidation
from benger.web.runs._keys import open_keys, sealed_keys
from benger.web.runs._setup import parse_web_config

_LOG = logging.getLogger(__name__)
#: Seconds between two progress writes of a validation's row.
PROGRESS_EVERY_S = 0.5


def release_dir() -> Path | None:
    """The release folder the server validates against (``BENGER_RELEASE``, as ``benger validate-judge``
    reads it); None when unset or not a folder."""
    name = os.environ.get("BENGER_RELEASE")
    return Path(name) if name and Path(name).is_dir() else None


def judge_config(config: RunConfig, judge: str, executor: str) -> RunConfig:
    """The run's config narrowed to its judge ``judge`` (one judgement per solution) on ``executor``;
    ConfigError when the run has no such judge."""
    names = [j.name for j in config.resolved_judges()]
    if judge not in names:
        raise ConfigError(f"the run has no judge {judge!r} (its judges: {', '.join(names) or 'none'})")
    entry = config.judges[names.index(judge)]
    return config.model_copy(update={"judges": [entry], "repeats": 1, "executor": executor})


class _RowProgress(ProgressReporter):
    """Writes the judging's done/total to the validation's row (at most every PROGRESS_EVERY_S)."""

    def __init__(self, launcher: ValidationLauncher, validation_id: int) -> None:
        super().__init__(enabled=False)
        self._launcher, self._id, self._last = launcher, validation_id, 0.0

    def start(self, stats: RunStats) -> None:
        self._stats = stats
        self._write(stats)

    @property
    def needs_heartbeat(self) -> bool:
        return False

    def update(self, *, heartbeat: bool = False) -> None:
        stats = self._stats
        if stats is not None and (time.monotonic() - self._last >= PROGRESS_EVERY_S or stats.done == stats.total):
            self._write(stats)

    def stop(self) -> None:
        if self._stats is not None:
            self._write(self._stats)

    def _write(self, stats: RunStats) -> None:
        self._last = time.monotonic()
        self._launcher.set(self._id, done=stats.done, total=stats.total)


class ValidationLauncher:
    """The server's validations in flight (one thread each), on the server's run executor."""

    def __init__(self, store: Store, executor: str = "local") -> None:
        self.store = store
        self.executor = executor
        self._threads: dict[int, threading.Thread] = {}
        self._lock = threading.Lock()

    def alive(self, validation_id: int) -> bool:
        thread = self._threads.get(validation_id)
        return thread is not None and thread.is_alive()

    def launch(self, validation_id: int) -> None:
        with self._lock:
            thread = threading.Thread(target=self._body, args=(validation_id,), daemon=True,
                                      name=f"benger-validation-{validation_id}")  # fmt: skip
            self._threads[validation_id] = thread
            thread.start()

    def join(self, validation_id: int, timeout: float | None = None) -> None:
        thread = self._threads.get(validation_id)
        if thread is not None:
            thread.join(timeout)

    def recover(self) -> None:
        """Validations left active by a server that stopped: ``interrupted`` (launching it again resumes)."""
        with self.store.session() as session:
            stmt = select(WorkbenchValidation).where(WorkbenchValidation.status.in_(ACTIVE_STATES))
            for row in session.scalars(stmt):
                if not self.alive(row.id):
                    row.status, row.finished_at = "interrupted", utcnow()
                    row.message = "the server stopped while this validation ran; launch it again to continue"

    def set(self, validation_id: int, **values: Any) -> None:
        with self.store.session() as session:
            row = session.get(WorkbenchValidation, validation_id)
            if row is not None:
                for key, value in values.items():
                    setattr(row, key, value)

    def _body(self, validation_id: int) -> None:
        status, message, result = "failed", None, None
        try:
            with self.store.session() as session:
                row = session.get(WorkbenchValidation, validation_id)
                run = session.get(WorkbenchRun, row.run_id) if row is not None else None
                if row is None or run is None:
                    return
                text, judge, source, corpus = run.config_yaml, row.judge, row.source, row.corpus
                sealed = sealed_keys(session, row.organisation_id)
            self.set(validation_id, status="running", started_at=utcnow(), message=None)
            config = judge_config(parse_web_config(text, f"run-{run.id}.yaml"), judge, self.executor)
            with supplied_keys(open_keys(sealed), sealed if self.executor == "celery" else None):
                done = asyncio.run(self._validate(validation_id, config, source, corpus))
            result = done.result
            status = "incomplete" if done.incomplete else "finished"
            if done.incomplete:
                reasons = "; ".join(f"{sid}: {why}" for sid, why in sorted(done.unscored.items())[:3])
                message = f"{len(done.unscored)} solution(s) unscored or failed; launch again to judge the rest" + (
                    f" ({reasons})" if reasons else "")  # fmt: skip
        except BengerError as exc:
            message = str(exc)
        except Exception as exc:  # a bug: the row says so, the log has the traceback
            _LOG.exception("workbench validation %s failed", validation_id)
            message = f"internal error: {type(exc).__name__}"
        finally:
            self.set(validation_id, status=status, message=message, result=result, finished_at=utcnow())

    async def _validate(self, validation_id: int, config: RunConfig, source: str, corpus: str | None) -> Any:
        from benger.analysis._validate_run import validate_on_corpus, validate_on_release

        if self.executor == "celery":
            import benger.workers  # noqa: F401  (registers the celery executor)
            from benger.workers._settings import check_settings

            check_settings()
        progress = _RowProgress(self, validation_id)
        if source == "corpus":
            assert corpus is not None
            return await validate_on_corpus(self.store, config, corpus, progress=progress)
        release = release_dir()
        if release is None:
            raise ConfigError("the server has no release to validate against: start it with BENGER_RELEASE=PATH")
        return await validate_on_release(self.store, config, release, progress=progress)
