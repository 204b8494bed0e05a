"""Assemble the report from a results dict and write every output (results.json, tables, figures, HTML).

The results are validated into :class:`benger.analysis.results.Results` once (:func:`parse_results`); each table
and figure builder receives the typed blocks it reads."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import math
import threading
from collections.abc import Callable, Mapping
from dataclasses import asdict
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from pydantic import ValidationError

from benger.analysis.results import Results
from benger.errors import InputError
from benger.outputs import output_folder
from benger.report import _fig_rq4 as fig4
from benger.report import _figures as figs
from benger.report import _tables as t14
from benger.report import _tables_agreement as tag
from benger.report import _tables_calibration as tcal
from benger.report import _tables_extras as tex
from benger.report import _tables_release as trel
from benger.report._fmt import display_names, judge_label, judge_note, pool_label
from benger.report._model import Figure, Item, Missing, Section, Table
from benger.report._render import cell_text, render_latex, render_markdown

TableFn = Callable[[Results], Table | Missing]
FigureFn = Callable[[Results, Path], Figure | Missing]


def _names(r: Results) -> dict[str, str]:
    return display_names(r.rq1.leaderboard)


def _judged(fn: TableFn) -> TableFn:
    """A table of judge scores: its notes end with :func:`judge_note` (the judge and its validation status)."""

    def build(r: Results) -> Table | Missing:
        table = fn(r)
        if isinstance(table, Table):
            table.notes.append(judge_note(r.meta))
        return table

    return build


#: The tables of the report that show no judge scores of generations or solutions, with the reason; every other
#: table is built through :func:`_judged` (tests/report/test_judge_note.py checks both against the registry).
NOT_JUDGE_BASED: dict[str, str] = {
    "rq1_operational": "token counts, words and costs of the generations",
    "rq5_irr": "agreement among the human reviewers",
    "gutachten_validity": "the Gutachtenstil analyser against human reviews",
    "departures": "differences from the printed paper",
    **{
        tid: "RQ5 measures the judges' validity itself"
        for tid in (
            *("rq5_agreement", "rq5_judges", "rq5_alt_human", "rq5_alt_llm", "rq5_calibration"),
            *("rq5_dimensions", "rq5_creator", "rq5_judge_swap", "rq5_checks"),
        )
    },
}


# (section id, title, intro, [table builders], [figure builders]) in reading order; each builder hands its
# function the typed blocks it reads.
_SECTIONS: list[tuple[str, str, str, list[TableFn], list[FigureFn]]] = [
    (
        "rq1",
        "RQ1: Leaderboard",
        "How well do LLM systems and humans solve the cases, scored by the rubric judge?",
        [
            _judged(lambda r: t14.leaderboard_table(r.rq1.leaderboard)),
            _judged(lambda r: trel.appendix_table2(r.rq1.appendix_a.get("with_superseded"), _names(r))),
            _judged(lambda r: trel.appendix_table5(r.rq1.appendix_a.get("with_superseded"), _names(r))),
            lambda r: trel.operational_table(r.rq1.operational, _names(r)),
        ],
        [
            lambda r, out: figs.leaderboard_figure(r.rq1.leaderboard, out),
            lambda r, out: figs.heatmap_figure(r.rq1.task_system, out),
        ],
    ),
    (
        "rq2",
        "RQ2: Tier, provider and weights",
        "Do flagship, efficiency and open-weight systems differ?",
        [_judged(lambda r: t14.rq2_table(r.rq2))],
        [],
    ),
    (
        "rq3",
        "RQ3: Automatic metrics vs judge",
        "How well do surface and embedding metrics track the judge?",
        [_judged(lambda r: t14.rq3_table(r.rq3))],
        [lambda r, out: figs.metric_figure(r.rq3, out)],
    ),
    (
        "rq4",
        "RQ4: Co-creation",
        "Do humans working with an AI assistant score higher than those working alone?",
        [_judged(lambda r: t14.rq4_table(r.rq4)), _judged(lambda r: t14.rq4_area_table(r.rq4))],
        [lambda r, out: fig4.rq4_groups_figure(r.rq4, out)],
    ),
    (
        "rq5",
        "RQ5: Judge validity",
        "Does the judge deviate from human graders no more than they deviate from each other?",
        [
            lambda r: tag.agreement_table(r.rq5, r.meta),
            lambda r: tag.judge_pool_table(r.rq5.judge_vs_pool, r.meta),
            lambda r: tag.irr_table(r.rq5.irr),
            lambda r: tag.alt_test_table(r.rq5.alt_test, "human", r.meta),
            lambda r: tag.alt_test_table(r.rq5.alt_test, "llm", r.meta),
            lambda r: tcal.calibration_table(r.rq5.calibration, r.meta),
            lambda r: tcal.per_dimension_table(r.rq5.per_dimension),
            lambda r: tcal.creator_calibration_table(r.rq5.creator_calibration, r.meta),
            lambda r: trel.judge_swap_table(r.rq5.judge_swap, _names(r)),
            lambda r: tex.checks_table(r.rq5, r.meta),
        ],
        [
            lambda r, out: figs.calibration_figure(r.rq5.calibration, r.meta, out),
            lambda r, out: figs.dimension_figure(r.rq5.per_dimension, out),
        ],
    ),
    (
        "extras",
        "Extras",
        "Further comparisons.",
        [
            _judged(lambda r: tex.paired_systems_table(r.extras.paired_systems, _names(r))),
            lambda r: trel.gutachten_validity_table(r.gutachten_validity),
        ],
        [],
    ),
    (
        "departures",
        "Departures",
        "Where the numbers differ from the printed paper, and what the inputs cannot give, with the cause.",
        [lambda r: trel.departures_table(r.departures)],
        [],
    ),
]

_SUBTITLE = {"release": "Recomputed from the released BenGER data", "store": "Computed from a study run (benger store)"}


_PLAIN = (str, int, bool, type(None))  # leaves returned as they are (most of a large study's nodes)


def _json_safe(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return _json_safe(value.item())
    return value


def results_json(results: Mapping[str, Any]) -> str:
    """results.json text: sorted keys are not imposed (the schema order is kept); NaN/inf become null."""
    # json.dumps with an indent lists every chunk before joining (~1.5 M strings at 256k generations): written
    # into one buffer as encoded instead, the same text
    buffer = io.StringIO()
    for chunk in json.JSONEncoder(ensure_ascii=False, indent=2, allow_nan=False).iterencode(_json_safe(results)):
        buffer.write(chunk)
    buffer.write("\n")
    return buffer.getvalue()


def parse_results(text: str | bytes, *, file: str | Path = "results.json") -> Results:
    """results.json text validated into the typed :class:`Results` (docs/results-schema.md): the one place the
    report turns JSON into models. A value that does not fit raises :class:`InputError` naming ``file`` and the
    dotted path of the first bad field (``rq1.leaderboard.rows.0.bench.n``), the reason and how many more
    fields are bad."""
    try:
        return Results.model_validate_json(text)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        first = errors[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        got = "" if first["type"] == "missing" else f" (got {_short(first.get('input'))})"
        more = f"; {len(errors) - 1} more field(s) do not fit either" if len(errors) > 1 else ""
        raise InputError(
            f"does not fit the results schema (docs/results-schema.md): {first['msg']}{got}{more}",
            file=file,
            field=where,
        ) from None


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, str | int | float | bool) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _guard(fn: Callable[[], Table | Figure | Missing], name: str) -> Item:
    # A table whose free-form rows (``Row`` dicts in the models) hold something unexpected must not sink the whole
    # report: the item becomes a visible "not available" entry that names the error (tests on the real release
    # forbid these). Typed fields are checked once, by :func:`parse_results`.
    try:
        return fn()
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        return Missing(
            f"broken_{name}",
            name.replace("_", " "),
            f"could not be built from results.json ({type(exc).__name__}: {exc})",
        )


def build_sections(results: Results, out_dir: Path) -> list[Section]:
    """Build every table (in memory) and figure (written under ``out_dir/figures``), grouped by section, from the
    validated results (:func:`parse_results`)."""
    sections = []
    for sid, title, intro, tables, figures in _SECTIONS:
        items: list[Item] = [_guard(partial(t, results), f"{sid}_table_{i}") for i, t in enumerate(tables)]
        items += [_guard(partial(g, results, out_dir), f"{sid}_figure_{i}") for i, g in enumerate(figures)]
        sections.append(Section(sid, title, intro, items))
    return sections


def sha256_file(path: Path, stop: threading.Event | None = None) -> str:
    """Hex SHA-256 of a file's bytes; ``stop`` set: stops after the current MiB (``InterruptedError``)."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            if stop is not None and stop.is_set():
                raise InterruptedError(f"hashing {path} stopped")
            h.update(chunk)
    return h.hexdigest()


def describe_inputs(
    root: Path,
    files: list[Path],
    stop: threading.Event | None = None,
    digest: Callable[[Path, threading.Event | None], str] = sha256_file,
) -> list[dict[str, Any]]:
    """``[{"path", "bytes", "sha256"}]`` for each input file, paths relative to ``root`` (``stop``: as
    :func:`sha256_file`; ``digest``: how a file is hashed, ``benger.store.store_file_sha256`` for a store)."""
    return [
        {
            "path": p.relative_to(root).as_posix() if p.is_relative_to(root) else str(p),
            "bytes": p.stat().st_size,
            "sha256": digest(p, stop),
        }
        for p in sorted(files)
    ]


def _item_view(item: Item, out_dir: Path) -> dict[str, Any]:
    if isinstance(item, Missing):
        return {"kind": "missing", **asdict(item)}
    if isinstance(item, Figure):
        svg = (out_dir / item.path_svg).read_bytes()
        return {"kind": "figure", **asdict(item), "svg_b64": base64.b64encode(svg).decode("ascii")}
    view = asdict(item)
    view["rows"] = [[cell_text(c) for c in row] for row in item.rows]
    return {"kind": "table", **view}


def render_html(results: Results, sections: list[Section], out_dir: Path) -> str:
    """The self-contained report.html (inline CSS, figures as base64 SVG data URIs, no scripts)."""
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(resources.files("benger.report").joinpath("templates/report.html.j2").read_text("utf-8"))
    meta, prov = results.meta, results.provenance
    facts: list[tuple[str, str]] = []
    if prov is not None:
        for value, label in ((prov.source, "Source"), (prov.location, "Location"), (prov.command, "Command")):
            if value:
                facts.append((label, value))
    for setting, label in (
        (meta.benger_version, "benger version"),
        (meta.primary_judge, "Primary judge"),
        (meta.seed, "Seed"),
        (meta.n_boot, "Bootstrap resamples"),
    ):
        facts.append((label, str(setting)))
    if meta.judges:
        facts.append(("Judges", ", ".join(f"{j} ({judge_label(j, meta.judge_labels)})" for j in meta.judges)))
    if meta.pools:
        facts.append(("Pools", ", ".join(f"{p} ({pool_label(p)})" for p in meta.pools)))
    if meta.inputs:
        facts.append(("Input counts", ", ".join(f"{k}={v}" for k, v in meta.inputs.items())))
    notes = [
        "Scores are the rubric judge's raw points (0-100) unless stated; grade points are the German 0-18 scale, "
        "pass means at least 4 grade points.",
        "Every table and figure names the inputs and the method that produced it; a statistic that cannot be "
        "computed from the inputs is shown as '—', never as 0. All numbers are also in results.json.",
    ]
    return template.render(
        title="BenGER results report",
        subtitle=_SUBTITLE.get(prov.source if prov else "", "Computed from the given results")
        + (f" · benger {meta.benger_version}" if meta.benger_version else ""),
        facts=facts,
        method_notes=notes,
        files=(prov.files if prov else None) or [],
        sections=[
            {"id": s.id, "title": s.title, "intro": s.intro, "entries": [_item_view(i, out_dir) for i in s.items]}
            for s in sections
        ],
    )


def write_report(results: Mapping[str, Any], out_dir: str | Path, *, command: str = "report") -> list[Section]:
    """Write results.json, tables/*.md|.tex, figures/*.png|.svg and report.html under ``out_dir``, through
    :func:`benger.outputs.output_folder` (the folder appears complete, with its manifest, or not at all) as
    ``command`` (``reproduce``, ``analyze``; the manifest names it: a rerun of the same command replaces the files).

    The tables, figures and HTML read the typed models of what results.json holds (:func:`parse_results`); a
    results dict that does not fit them raises :class:`InputError` naming the field, before anything is written."""
    text = results_json(results)
    typed = parse_results(text)
    with output_folder(out_dir, command) as folder:
        out = folder.staging
        folder.write_text("results.json", text)
        sections = build_sections(typed, out)
        for s in sections:
            for item in s.items:
                if isinstance(item, Table):
                    folder.write_text(f"tables/{item.id}.md", render_markdown(item))
                    folder.write_text(f"tables/{item.id}.tex", render_latex(item))
                elif isinstance(item, Missing):  # drop what an earlier run wrote for an item now unavailable
                    stale = (
                        [f"figures/{item.id[4:]}.{e}" for e in ("png", "svg")]
                        if item.id.startswith("fig_")
                        else [f"tables/{item.id}.{e}" for e in ("md", "tex")]
                    )
                    for rel in stale:
                        folder.discard(rel)
        folder.write_text("report.html", render_html(typed, sections, out))
    return sections
