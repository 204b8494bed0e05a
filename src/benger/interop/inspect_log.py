"""``benger import inspect LOG``: an inspect_ai log of a benger task as a recorded system and judge in a store.

Each sample of a log written by :mod:`benger.interop.inspect_tasks` becomes one generation of the model under test
(system ``--as NAME`` or the inspect model name; provider ``inspect``; the unit key of the pipeline: corpus, task,
config hash = system hash + prompt hash, run index = epoch - 1) and its ``rubric_judge`` score one judgement of
the judge the log names (judge config hash and rubric id as the scorer recorded them; ``meta.recorded``). So the
run ranks on ``benger leaderboard`` beside the paper's systems (when the store holds the release and the same
tasks) and its judge is an ordinary stored judge. The log is read with inspect's own reader
(``inspect_ai.log.read_eval_log``: ``.eval`` and ``.json``); nothing is written until every sample has been read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from benger.errors import InputError
from benger.interop.inspect_tasks import KEY
from benger.pipeline import generation_id, judgement_id, pipeline_config_hash
from benger.schema import Corpus, Generation, Judgement, SystemConfig
from benger.store import RecordBundle, Store
from benger.store._convert import TASK_ADAPTER


def _read_log(path: Path) -> Any:
    from inspect_ai.log import read_eval_log

    if not path.is_file():
        raise InputError("no such log file" if not path.exists() else "not a file", file=path)
    try:
        return read_eval_log(str(path))
    except Exception as exc:  # inspect raises ValueError, zipfile.BadZipFile, pydantic errors, ...
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InputError(f"not a readable inspect log (.eval or .json): {reason}", file=path) from None


def _system(log: Any, name: str | None) -> SystemConfig:
    config = log.eval.model_generate_config
    return SystemConfig(
        name=name or log.eval.model,
        provider="inspect",
        model=log.eval.model,
        base_url=log.eval.model_base_url,
        temperature=config.temperature,
        max_output_tokens=config.max_tokens or SystemConfig.model_fields["max_output_tokens"].default,
        seed=config.seed,
    )


def _judge_record(sample: Any) -> dict[str, Any] | None:
    for score in (sample.scores or {}).values():
        record = (score.metadata or {}).get(KEY)
        if isinstance(record, dict) and "rubric_id" in record:
            return record
    return None


def read_inspect_log(path: str | Path, *, system_name: str | None = None) -> RecordBundle:
    """The generations, judgements and systems of a benger inspect log; ``corpora``: the logged tasks per corpus.

    InputError naming the log (and the sample) for a file inspect cannot read, a log of another task, a sample
    without benger's metadata or with a record that does not validate."""
    path = Path(path)
    log = _read_log(path)
    if not log.samples:
        raise InputError(f"the log holds no samples (status {log.status})", file=path)
    system = _system(log, system_name)
    bundle = RecordBundle(corpora=[], systems=[system])
    tasks: dict[str, dict[str, Any]] = {}
    judges: dict[str, SystemConfig] = {}
    for number, sample in enumerate(log.samples, start=1):
        meta = (sample.metadata or {}).get(KEY)
        if not isinstance(meta, dict) or "task" not in meta:
            raise InputError(
                f"sample {sample.id!r} has no benger metadata: not a log of a benger task (task {log.eval.task!r})",
                file=path,
                record=number,
            )
        if "pick" in meta:
            raise InputError(
                "a log of benger/validation_picks judges the released picks, not a system: give it to "
                "`benger validate-judge --recorded LOG --release DIR`",
                file=path,
            )
        try:
            item = TASK_ADAPTER.validate_python(meta["task"])
            produced = (sample.store or {}).get(KEY) or {}
            corpus = str(meta["corpus"])
            config_hash = pipeline_config_hash(system, str(meta["prompt_hash"]))
            run_index = max(int(sample.epoch) - 1, 0)
            status = "failed" if sample.error else produced.get("status", "failed")
            usage = sample.output.usage if sample.output is not None else None
            gen = Generation(
                generation_id=generation_id(item.task_id, config_hash, run_index, corpus),
                task_id=item.task_id,
                corpus=corpus,
                system=system.name,
                config_hash=config_hash,
                run_index=run_index,
                status=status,
                text=produced.get("text") or "",
                answer=produced.get("answer"),
                reason=(sample.error.message if sample.error else produced.get("reason")),
                finish_reason=produced.get("finish_reason"),
                truncated=bool(produced.get("truncated")),
                input_tokens=usage.input_tokens if usage is not None else None,
                output_tokens=usage.output_tokens if usage is not None else None,
                latency_s=sample.total_time,
                meta={
                    "source": "inspect",
                    "inspect_log": path.name,
                    "inspect_eval_id": log.eval.eval_id,
                    "inspect_sample_id": sample.id,
                    "system_config_hash": system.config_hash(),
                    "prompt_hash": meta["prompt_hash"],
                },
            )
        except (ValidationError, KeyError, TypeError, ValueError) as exc:
            raise InputError(f"sample {sample.id!r}: {str(exc).splitlines()[0]}", file=path, record=number) from None
        tasks.setdefault(corpus, {})[item.task_id] = item
        bundle.generations.append(gen)
        record = _judge_record(sample)
        if record is None or gen.status != "ok":
            continue
        try:
            judges.setdefault(record["judge_config_hash"], SystemConfig.model_validate(record["judge_config"]))
            scored = record["status"] == "scored"
            bundle.judgements.append(
                Judgement(
                    judgement_id=judgement_id(
                        "generation", gen.generation_id, record["judge_config_hash"], record["rubric_id"], 0
                    ),
                    target_kind="generation",
                    target_id=gen.generation_id,
                    judge=record["judge"],
                    judge_config_hash=record["judge_config_hash"],
                    rubric_id=record["rubric_id"],
                    status="scored" if scored else "unscored",
                    reason=None if scored else record.get("reason"),
                    dimensions=record.get("dimensions") if scored else None,
                    justifications=record.get("justifications") or {},
                    total=record.get("total"),
                    grade_points=record.get("grade_points"),
                    passed=record.get("passed"),
                    model_total=record.get("model_total"),
                    answer=record.get("answer"),
                    meta={
                        "source": "inspect",
                        "recorded": True,
                        "inspect_log": path.name,
                        "inspect_eval_id": log.eval.eval_id,
                        "task_id": item.task_id,
                        "template_hash": record.get("template_hash"),
                    },
                )
            )
        except (ValidationError, KeyError, TypeError) as exc:
            raise InputError(
                f"sample {sample.id!r}, the rubric_judge score: {str(exc).splitlines()[0]}", file=path, record=number
            ) from None
    bundle.systems += list(judges.values())
    bundle.corpora = [Corpus(name=name, tasks=list(items.values())) for name, items in tasks.items()]
    return bundle


def against_store(bundle: RecordBundle, store: Store, source: str | Path) -> RecordBundle:
    """``bundle`` with the corpora the store already holds left out, after checking that every logged task is
    stored with the same content (a log of other task texts would be judged against the wrong Musterlösung)."""
    stored = set(store.corpus_names())
    keep = []
    for corpus in bundle.corpora:
        if corpus.name not in stored:
            keep.append(corpus)  # a new corpus made of the logged tasks
            continue
        for item in corpus.tasks:
            held = store.get_task(item.task_id, corpus.name)
            if held is None or held.model_dump() != item.model_dump():
                what = "is not in" if held is None else "differs from the task in"
                raise InputError(
                    f"task {item.task_id!r} of the log {what} the stored corpus {corpus.name!r}",
                    file=source,
                    field="task_id",
                )
    bundle.corpora = keep
    return bundle
