"""``benger inspect-solution`` (the Gutachten analyser on one text) and ``benger errors`` (paper §6.6)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from benger.cli._options import DbOption, resamples_option, seed_option
from benger.errors import ConfigError, InputError

FormatOpt = Annotated[str, typer.Option("--format", help="text (for people) or json (for machines).")]


def _read_text(path: Path) -> str:
    """The UTF-8 text of ``path``; InputError naming the file when it is missing, unreadable or blank."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", file=path) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", file=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=path) from None
    if not text.strip():
        raise InputError("the file holds no text to analyse (it is empty or blank)", file=path)
    return text


def _check_format(fmt: str) -> None:
    if fmt not in ("text", "json"):
        raise ConfigError(f"--format must be 'text' or 'json', not {fmt!r}")


def _from_store(db: str | None, target_id: str) -> tuple[str, str | None]:
    """(text, reference text or None) of a generation or human solution in the store."""
    from benger.schema import FalloesungTask
    from benger.store import open_store

    store = open_store(db, create=False)
    try:
        item: Any = store.get_generation_by_id(target_id) or store.get_human_solution(target_id)
        if item is None:
            raise InputError(
                f"no generation or human solution with id {target_id!r} in the store", field="--generation"
            )
        if not item.text.strip():
            raise InputError(f"{target_id!r} has no stored text (released, text withheld)", field="--generation")
        task = store.get_task(item.task_id, item.corpus)
        reference = task.reference if isinstance(task, FalloesungTask) else None
        return item.text, reference
    finally:
        store.close()


def _print_report(report: Any) -> None:
    a = report.analysis
    echo = typer.echo
    echo(f"{report.source}  ({report.analyser_version})")
    echo(f"  {a.words} words, {len(a.sections)} sections, Gliederung depth {a.structure.depth}")
    for h in a.structure.headings[:60]:
        echo(f"    {'  ' * (h.depth - 1)}{h.marker} {h.title[:70]}")
    for p in a.structure.problems[:20]:
        echo(f"  structure  @{p.start}: {p.code}: {p.message}")
    counts = ", ".join(f"{k} {v}" for k, v in a.step_counts.items())
    echo(f"  Gutachtenstil sentences: {counts}")
    share = "–" if a.share_complete is None else f"{a.share_complete:.2f}"
    first = "–" if a.share_result_first is None else f"{a.share_result_first:.2f}"
    echo(f"  sections with all four steps: {share}; result-first sections: {first}")
    echo(f"  norms cited ({len(a.norms)}): {'; '.join(a.norms[:40])}{' …' if len(a.norms) > 40 else ''}")
    for p in a.citation_problems[:30]:
        echo(f"  citation   @{p.start}: {p.code}: {p.message} [{p.text}]")
    echo(f"  claims examined: {len(a.claims)}")
    if report.comparison is not None:
        for o in (report.comparison.norms_paragraph, report.comparison.norms_full, report.comparison.claims):
            fmt = lambda v: "–" if v is None else f"{v:.2f}"  # noqa: E731
            echo(
                f"  vs reference [{o.level}]: precision {fmt(o.precision)}, recall {fmt(o.recall)}, "
                f"F1 {fmt(o.f1)} ({o.common} of {o.reference} reference, {o.candidate} cited)"
            )
        missing = report.comparison.norms_paragraph.missing
        echo(f"  missing vs reference: {'; '.join(missing[:30])}{' …' if len(missing) > 30 else ''}")


def _rubric_name(rubric_id: str) -> str:
    """``falloesung`` of ``falloesung@1+3f2a9c01`` (a rubric id is ``name@version[+sha8]``)."""
    return rubric_id.split("@", 1)[0]


def choose_judgements(
    store: Any, *, judge: str | None, rubric: str | None, corpus: str | None
) -> tuple[str | None, str | None, str]:
    """The (judge, rubric id) whose judgements ``benger errors`` classifies, and a line saying why.

    Error modes are about Falllösungen: among the (judge, rubric) pairs of the scored judgements of ok
    generations (of ``corpus``), only pairs of the ``falloesung`` rubric are candidates when there are any
    (a store may also hold Grundprinzipien judgements); of those, the judge with the most judgements is taken
    (``--judge`` documents this default). Given both ``judge`` and ``rubric``, they are returned as they are
    (with an empty line). Raises InputError listing the pairs when none is of the Falllösung rubric and
    there is more than one, so the user chooses with ``--judge`` and ``--rubric``.
    """
    if judge is not None and rubric is not None:
        return judge, rubric, ""
    ok = {g.generation_id for g in store.generations(corpus=corpus, status="ok")}
    found = store.judgements(judge=judge, target_kind="generation", status="scored", rubric_id=rubric)
    pairs = Counter((j.judge, j.rubric_id) for j in found if j.target_id in ok)
    if not pairs:
        return judge, rubric, ""  # the analysis says what is missing
    listed = "; ".join(f"--judge {j} --rubric {r} ({n} judgements)" for (j, r), n in pairs.most_common())
    falloesung = Counter({pair: n for pair, n in pairs.items() if _rubric_name(pair[1]) == "falloesung"})
    if len(pairs) == 1:
        ((chosen, _),) = pairs.most_common(1)
    elif falloesung:
        ((chosen, _),) = falloesung.most_common(1)
    else:
        raise InputError(
            f"the store holds judgements of several judges/rubrics and none of the Falllösung rubric; choose one: "
            f"{listed}",
            field="--rubric",
        )
    why = "" if len(pairs) == 1 else f" (chosen among: {listed})"
    return chosen[0], chosen[1], f"judgements of judge {chosen[0]}, rubric {chosen[1]}{why}"


def _superseded(store: Any, corpus: str | None) -> int:
    """How many superseded generations (status ``excluded``, ``meta.superseded``) the store holds."""
    return sum(1 for g in store.generations(corpus=corpus, status="excluded") if g.meta.get("superseded"))


def _print_errors(report: Any) -> None:
    echo = typer.echo
    prov = report.provenance
    echo(f"error modes (paper §6.6) — judge {prov['judge']}, rubric {prov['rubric_id']}")
    echo(f"  thresholds: {json.dumps(prov['params'])}")
    echo(f"  judged generations: {report.n_judged} (length unknown: {report.n_without_length})")
    for mode, n in report.counts.items():
        echo(f"  {mode}: {n}")
    for title, table in (("per tier", report.by_tier), ("per system", report.by_system)):
        echo(f"  {title}: n / long_but_shallow / wrong_norm_framing / reasoning_outcome_divergence")
        for key, row in table.items():
            echo(f"    {key}: {row['n']} / " + " / ".join(str(row[m]) for m in report.counts))
    echo("  overlaps: " + ", ".join(f"{k} {v}" for k, v in report.overlaps.items()))
    for mode, items in report.examples.items():
        for it in items:
            extra = "" if it.norm_recall is None else f", norm recall {it.norm_recall:.2f}"
            echo(f"  example {mode}: {it.system} task {it.task_id[:8]} ({it.words} words{extra}): {it.excerpt[:160]}")


def register(app: typer.Typer) -> None:
    @app.command("inspect-solution")
    def inspect_solution(
        file: Annotated[Path | None, typer.Argument(help="A Falllösung as a UTF-8 text/markdown file.")] = None,
        generation: Annotated[
            str | None, typer.Option("--generation", help="Analyse a stored generation (or human solution) by id.")
        ] = None,
        reference: Annotated[
            Path | None,
            typer.Option("--reference", help="Reference solution file (default with --generation: the task's)."),
        ] = None,
        fmt: FormatOpt = "text",
        db: DbOption = None,
    ) -> None:
        """Analyse one German Falllösung without a model: Gliederung, Gutachtenstil steps, norm citations."""
        from benger.gutachten import Report, analyse, compare
        from benger.gutachten._analyse import ANALYSER_VERSION

        _check_format(fmt)
        if (file is None) == (generation is None):
            raise ConfigError("give either a FILE or --generation ID")
        ref_text: str | None = None
        if file is not None:
            text, source = _read_text(file), str(file)
        else:
            assert generation is not None
            text, ref_text = _from_store(db, generation)
            source = f"generation {generation}"
        if reference is not None:
            ref_text = _read_text(reference)
        analysis = analyse(text)
        comparison = compare(analysis, analyse(ref_text)) if ref_text else None
        report = Report(source=source, analyser_version=ANALYSER_VERSION, analysis=analysis, comparison=comparison)
        if fmt == "json":
            typer.echo(report.model_dump_json(indent=1))
        else:
            _print_report(report)

    @app.command("gutachten-validity")
    def gutachten_validity(
        release: Annotated[Path, typer.Option("--release", help="The release folder (holds data/).")],
        fmt: Annotated[str, typer.Option("--format", help="text (markdown table) or json.")] = "text",
        resamples: Annotated[int, resamples_option(help_text="Bootstrap resamples.")] = 2000,
        seed: Annotated[int, seed_option()] = 0,
    ) -> None:
        """Correlate the analyser's features with judge and blind human scores on the 45 released picks."""
        from benger.analysis._gutachten_validity import markdown_table, validity_table
        from benger.corpora import load_release

        _check_format(fmt)
        table = validity_table(load_release(release), n_resamples=resamples, seed=seed)
        if fmt == "json":
            typer.echo(table.model_dump_json(indent=1))
        else:
            typer.echo("; ".join(f"{k}: {v}" for k, v in table.provenance.items()))
            typer.echo(markdown_table(table))

    @app.command("errors")
    def errors_cmd(
        db: DbOption = None,
        judge: Annotated[
            str | None,
            typer.Option("--judge", help="Judge name (default: the most frequent of the Falllösung rubric)."),
        ] = None,
        rubric: Annotated[
            str | None, typer.Option("--rubric", help="Rubric id of the judgements (default: the Falllösung rubric's).")
        ] = None,
        corpus: Annotated[str | None, typer.Option("--corpus", help="Only generations of this corpus.")] = None,
        release: Annotated[
            Path | None,
            typer.Option("--release", help="Release folder: word counts of generations whose text is withheld."),
        ] = None,
        long_words: Annotated[int, typer.Option("--long-words", min=0, help="Long: more words than this.")] = 2000,
        shallow: Annotated[float, typer.Option("--shallow", min=0, max=1, help="Shallow: share at most.")] = 0.5,
        wellformed: Annotated[
            float, typer.Option("--wellformed", min=0, max=1, help="Well-formed: share at least.")
        ] = 0.7,
        grounding: Annotated[
            float, typer.Option("--grounding", min=0, max=1, help="Low grounding: share at most.")
        ] = 0.5,
        gap: Annotated[float, typer.Option("--gap", min=0, max=1, help="Divergence: share gap at least.")] = 0.4,
        fmt: Annotated[str, typer.Option("--format", help="text, json or markdown (a report section).")] = "text",
    ) -> None:
        """Classify judged generations by the paper's error modes (§6.6): counts per system and tier."""
        from benger.analysis._error_modes import (
            ErrorModeParams,
            error_modes_from_store,
            error_modes_markdown,
            release_word_counts,
        )
        from benger.store import open_store

        if fmt not in ("text", "json", "markdown"):
            raise ConfigError(f"--format must be 'text', 'json' or 'markdown', not {fmt!r}")
        params = ErrorModeParams(
            long_words=long_words,
            shallow_share=shallow,
            wellformed_share=wellformed,
            grounding_share=grounding,
            divergence_gap=gap,
        )
        words = None
        if release is not None:
            from benger.corpora import load_release

            words = release_word_counts(load_release(release))
        store = open_store(db, create=False)
        try:
            if judge is not None:  # as `benger leaderboard --judge`: a name the store does not hold is listed
                from benger.cli._checks import refuse_unknown_judges
                from benger.store._aggregate_items import judge_names

                refuse_unknown_judges([judge], judge_names(store))
            if rubric is not None:  # likewise a rubric id no judgement of the store was made under
                from benger.cli._checks import refuse_unknown
                from benger.store._aggregate_items import judged_rubric_ids

                stored = judged_rubric_ids(store)
                refuse_unknown(
                    [rubric], stored, "rubric", "--rubric", "--rubric takes a rubric id of the store's judgements"
                )
            judge, rubric, chosen = choose_judgements(store, judge=judge, rubric=rubric, corpus=corpus)
            report = error_modes_from_store(
                store, judge=judge, rubric_id=rubric, corpus=corpus, params=params, words=words
            )
            superseded = _superseded(store, corpus)
        finally:
            store.close()
        if fmt == "json":
            typer.echo(report.model_dump_json(indent=1))
        elif fmt == "markdown":
            typer.echo(error_modes_markdown(report), nl=False)
            typer.echo(f"\nOnly ok generations are classified: {superseded} superseded generations are left out.")
        else:
            _print_errors(report)
            if chosen:
                typer.echo(f"  {chosen}")
            typer.echo(f"  only ok generations are classified: {superseded} superseded generations are left out")
