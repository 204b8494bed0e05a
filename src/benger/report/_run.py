"""End-to-end runs: recompute the results from the release or a store and write every output."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
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
    write_report(results, out, command="reproduce")
    return results


def _redact(url: str) -> str:
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


def analyze(
    db: str | None,
    out: str | Path,
    *,
    seed: int = 7,
    n_boot: int = 2000,
    corpora: Sequence[str] | None = None,
    on_corpus: Callable[[str, Path, dict[str, Any]], None] | None = None,
    rubrics: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The same outputs as :func:`reproduce` for a study run with benger, read from its store.

    ``corpora``: the corpora to analyse, each on its own (its generations, judgements, metric values and the
    human reviews of its solutions; the ZJS/Grundprinzipien columns of Table 1 only where the store holds
    those corpora). One corpus writes into ``out``, several into ``out/<corpus>/``. None: the Falllösung
    corpus of the store with the most generations. The returned results (of the last corpus) carry
    ``skipped``: every block that could not be computed, with the reason. InputError for a corpus that is
    not in the store or has no generation. ``on_corpus(name, folder, results)`` is called after each corpus's
    report is written. ``rubrics``: corpus -> Rubric of its tasks without their own Bewertungsbogen (RQ5
    compares judge and reviewers on percent of each reviewed solution's rubric total under an own rubric);
    without it a corpus's rubric is the one the store keeps for its judgements (``corpus_rubrics``)."""
    from benger.config import database_url
    from benger.pipeline._corpus_rubrics import corpus_rubrics
    from benger.store import open_store, store_file_sha256
    from benger.store._aggregate import refresh_statistics

    files: Future[list[dict[str, Any]]] | None = None
    store = open_store(db, create=False)
    url = database_url(db)
    hashing, stop = ThreadPoolExecutor(1, thread_name_prefix="benger-hash"), threading.Event()
    try:
        names = _chosen_corpora(store, corpora)
        for name in names:  # every corpus before the first is written: a judge's scores are what analyze reads
            _require_scores(store, name, str(db) if db is not None else _redact(url))
        if url.startswith("sqlite:///"):
            # the leaderboard's one-off planner statistics are written first, so the hash is of the store as read;
            # hashed alongside the analysis (hashlib releases the GIL: a 3.6 GB store's 4 CPU-s off the wall time)
            refresh_statistics(store)
            path = Path(url[len("sqlite:///") :])
            files = hashing.submit(describe_inputs, path.parent, [path], stop, store_file_sha256)
        results: dict[str, Any] = {}
        found = corpus_rubrics(store, names, rubrics)  # the rubrics the store keeps; --rubric wins if it agrees
        for name in names:
            target = Path(out) if len(names) == 1 else Path(out) / name
            results = _analyze_corpus(store, name, target, seed=seed, n_boot=n_boot, rubrics=found)
            flags = "".join(f" --corpus {n}" for n in corpora or ())
            flags += "".join(f" --rubric {c}={r.id}" for c, r in sorted((rubrics or {}).items()))
            results["provenance"] = {
                "source": "store",
                "location": _redact(url),
                "corpus": name,
                "command": f"benger analyze --db {_redact(db or url)}{flags} --out {out} --seed {seed} "
                f"--n-boot {n_boot}",
                "files": [] if files is None else files.result(),
            }
            write_report(results, target, command="analyze")
            if on_corpus is not None:
                on_corpus(name, target, results)
    finally:
        stop.set()  # an error or Ctrl-C: the hash stops within a MiB
        hashing.shutdown()
        store.close()
    return results


def _chosen_corpora(store: Any, corpora: Sequence[str] | None) -> list[str]:
    """The corpora to analyse (each must be in the store and hold generations), or the default one."""
    from sqlalchemy import func, select

    from benger.store._aggregate import corpus_tasks
    from benger.store._tables import GENERATIONS

    def n_generations(name: str) -> int:  # counted in SQL on the (corpus, ...) key's index: no table row read
        stmt = select(func.count()).select_from(GENERATIONS).where(GENERATIONS.c.corpus == name)
        with store.engine.connect() as connection:
            return int(connection.execute(stmt).scalar_one())

    stored = store.corpus_names()
    if corpora:
        for name in corpora:
            if name not in stored:
                raise InputError(
                    f"no corpus named {name!r} in the store (its corpora: {', '.join(stored) or 'none'})",
                    field="--corpus",
                )
            if not n_generations(name):
                raise InputError(f"corpus {name!r} has no generations yet (run `benger run` first)", field="--corpus")
        return list(dict.fromkeys(corpora))
    counts = {}
    for name in stored:
        tasks = corpus_tasks(store, name)  # kinds only, no task texts
        if tasks and tasks[0].kind == "falloesung":
            counts[name] = n_generations(name)
    best = [n for n in sorted(counts, key=lambda n: (-counts[n], n)) if counts[n]]
    if not best:
        raise InputError("the store holds no generations of a Falllösung corpus; name one with --corpus")
    return best[:1]


def _require_scores(store: Any, corpus: str, location: str) -> None:
    """Refuse (InputError, exit 2) a corpus none of whose generations has a scored judgement: its results would
    have no judge, no rubric and no score (analyze named the judge "primary" and the rubric "0-100" of nothing)."""
    from sqlalchemy import and_, case, func, select

    from benger.store._tables import GENERATIONS, JUDGEMENTS

    g, j = GENERATIONS.c, JUDGEMENTS.c
    scored = and_(j.status == "scored", j.total.is_not(None))
    stmt = (
        select(func.count(func.distinct(g.generation_id)), func.count(case((scored, 1))), func.count(j.judgement_id))
        .select_from(GENERATIONS)
        .outerjoin(JUDGEMENTS, and_(j.target_kind == "generation", j.target_id == g.generation_id))
        .where(g.corpus == corpus)
    )
    with store.engine.connect() as connection:
        n_generations, n_scored, n_judgements = connection.execute(stmt).one()
    if n_scored:
        return
    judged = f"all {n_judgements} of its judgements are unscored" if n_judgements else "it has no judgements"
    raise InputError(
        f"nothing to analyse in corpus {corpus!r} of the store {location}: none of its {n_generations} "
        f"generations is scored ({judged}); judge them first (`benger judge CONFIG --db {location}`, or "
        "`benger run`), then analyze"
    )


def _analyze_corpus(
    store: Any, corpus: str, out: Path, *, seed: int, n_boot: int, rubrics: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    from benger.analysis import StudyData

    # the board rq1.leaderboard asks for (table1_from_study) is computed before the study's rows are read
    board = {"ci": "auto", "seed": seed, "n_resamples": n_boot}
    data = StudyData.from_store(store, corpus=corpus, rubrics=rubrics or {}, leaderboard_options=board)
    results = _compute(data, seed, n_boot)
    results["skipped"] = skipped_blocks(results)
    return results


def skipped_blocks(results: dict[str, Any]) -> list[dict[str, str]]:
    """Every registered block of ``results`` that could not be computed: ``{"block": path, "reason": ...}``
    (a null value: its inputs are absent from the data; a block marked ``source: unavailable``: its reason)."""
    from benger.analysis.results import all_statistics

    skipped: list[dict[str, str]] = []
    for defn in all_statistics():
        value: Any = results
        for part in defn.path.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        for path, leaf in _blocks(defn.path, value, len(defn.keys)):
            if leaf is None:
                skipped.append({"block": path, "reason": "its inputs are not in the data"})
            elif isinstance(leaf, dict) and (leaf.get("source") == "unavailable" or leaf.get("reason")):
                skipped.append({"block": path, "reason": str(leaf.get("reason") or "unavailable")})
    return skipped


def _blocks(path: str, value: Any, depth: int) -> list[tuple[str, Any]]:
    if depth == 0 or not isinstance(value, dict):
        return [(path, value)]
    if not value:
        return [(path, None)]
    return [item for key, sub in value.items() for item in _blocks(f"{path}.{key}", sub, depth - 1)]
