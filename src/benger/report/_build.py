"""Assemble the report from a results dict and write every output (results.json, tables, figures, HTML)."""

from __future__ import annotations

import base64
import hashlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import asdict
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from benger.report import _fig_rq4 as fig4
from benger.report import _figures as figs
from benger.report import _tables as t14
from benger.report import _tables_release as trel
from benger.report import _tables_rq5 as t5
from benger.report._fmt import judge_label, pool_label
from benger.report._model import Figure, Item, Missing, Section, Table, atomic_write_text
from benger.report._render import cell_text, render_latex, render_markdown

TableFn = Callable[[Mapping[str, Any]], Table | Missing]
FigureFn = Callable[[Mapping[str, Any], Path], Figure | Missing]

# (section id, title, intro, [table builders], [figure builders]) in reading order.
_SECTIONS: list[tuple[str, str, str, list[TableFn], list[FigureFn]]] = [
    (
        "rq1",
        "RQ1: Leaderboard",
        "How well do LLM systems and humans solve the cases, scored by the rubric judge?",
        [t14.leaderboard_table, trel.appendix_table2, trel.appendix_table5, trel.operational_table],
        [figs.leaderboard_figure, figs.heatmap_figure],
    ),
    (
        "rq2",
        "RQ2: Tier, provider and weights",
        "Do flagship, efficiency and open-weight systems differ?",
        [t14.rq2_table],
        [],
    ),
    (
        "rq3",
        "RQ3: Automatic metrics vs judge",
        "How well do surface and embedding metrics track the judge?",
        [t14.rq3_table],
        [figs.metric_figure],
    ),
    (
        "rq4",
        "RQ4: Co-creation",
        "Do humans working with an AI assistant score higher than those working alone?",
        [t14.rq4_table, t14.rq4_area_table],
        [fig4.rq4_groups_figure],
    ),
    (
        "rq5",
        "RQ5: Judge validity",
        "Does the judge deviate from human graders no more than they deviate from each other?",
        [
            t5.agreement_table,
            t5.judge_pool_table,
            t5.irr_table,
            lambda r: t5.alt_test_table(r, "human"),
            lambda r: t5.alt_test_table(r, "llm"),
            t5.calibration_table,
            t5.per_dimension_table,
            t5.creator_calibration_table,
            trel.judge_swap_table,
            t5.checks_table,
        ],
        [figs.calibration_figure, figs.dimension_figure],
    ),
    ("extras", "Extras", "Further comparisons.", [t5.paired_systems_table, trel.gutachten_validity_table], []),
    (
        "departures",
        "Departures",
        "Where the numbers differ from the printed paper, and what the inputs cannot give, with the cause.",
        [trel.departures_table],
        [],
    ),
]

_SUBTITLE = {"release": "Recomputed from the released BenGER data", "store": "Computed from a study run (benger store)"}


def _json_safe(value: Any) -> Any:
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
    return json.dumps(_json_safe(results), ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _guard(fn: Callable[[], Table | Figure | Missing], name: str) -> Item:
    # A results block whose shape differs from docs/results-schema.md must not sink the whole report: the item
    # becomes a visible "not available" entry that names the error (tests on the real release forbid these).
    try:
        return fn()
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        return Missing(
            f"broken_{name}",
            name.replace("_", " "),
            f"could not be built from results.json ({type(exc).__name__}: {exc})",
        )


def build_sections(results: Mapping[str, Any], out_dir: Path) -> list[Section]:
    """Build every table (in memory) and figure (written under ``out_dir/figures``), grouped by section."""
    sections = []
    for sid, title, intro, tables, figures in _SECTIONS:
        items: list[Item] = [_guard(partial(t, results), f"{sid}_table_{i}") for i, t in enumerate(tables)]
        items += [_guard(partial(g, results, out_dir), f"{sid}_figure_{i}") for i, g in enumerate(figures)]
        sections.append(Section(sid, title, intro, items))
    return sections


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def describe_inputs(root: Path, files: list[Path]) -> list[dict[str, Any]]:
    """``[{"path", "bytes", "sha256"}]`` for each input file, paths relative to ``root``."""
    return [
        {
            "path": p.relative_to(root).as_posix() if p.is_relative_to(root) else str(p),
            "bytes": p.stat().st_size,
            "sha256": sha256_file(p),
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


def render_html(results: Mapping[str, Any], sections: list[Section], out_dir: Path) -> str:
    """The self-contained report.html (inline CSS, figures as base64 SVG data URIs, no scripts)."""
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(resources.files("benger.report").joinpath("templates/report.html.j2").read_text("utf-8"))
    meta: Mapping[str, Any] = results["meta"] if isinstance(results.get("meta"), Mapping) else {}
    prov: Mapping[str, Any] = results["provenance"] if isinstance(results.get("provenance"), Mapping) else {}
    facts: list[tuple[str, str]] = []
    for key, label in (("source", "Source"), ("location", "Location"), ("command", "Command")):
        if prov.get(key):
            facts.append((label, str(prov[key])))
    for key, label in (
        ("benger_version", "benger version"),
        ("primary_judge", "Primary judge"),
        ("seed", "Seed"),
        ("n_boot", "Bootstrap resamples"),
    ):
        if meta.get(key) is not None:
            facts.append((label, str(meta[key])))
    if meta.get("judges"):
        facts.append(("Judges", ", ".join(f"{j} ({judge_label(str(j), meta)})" for j in meta["judges"])))
    if meta.get("pools"):
        facts.append(("Pools", ", ".join(f"{p} ({pool_label(str(p))})" for p in meta["pools"])))
    counts = meta.get("inputs")
    if isinstance(counts, Mapping) and counts:
        facts.append(("Input counts", ", ".join(f"{k}={v}" for k, v in counts.items())))
    notes = [
        "Scores are the rubric judge's raw points (0-100) unless stated; grade points are the German 0-18 scale, "
        "pass means at least 4 grade points.",
        "Every table and figure names the inputs and the method that produced it; a statistic that cannot be "
        "computed from the inputs is shown as '—', never as 0. All numbers are also in results.json.",
    ]
    return template.render(
        title="BenGER results report",
        subtitle=_SUBTITLE.get(str(prov.get("source")), "Computed from the given results")
        + (f" · benger {meta['benger_version']}" if meta.get("benger_version") else ""),
        facts=facts,
        method_notes=notes,
        files=prov.get("files") or [],
        sections=[
            {"id": s.id, "title": s.title, "intro": s.intro, "entries": [_item_view(i, out_dir) for i in s.items]}
            for s in sections
        ],
    )


def write_report(results: Mapping[str, Any], out_dir: str | Path) -> list[Section]:
    """Write results.json, tables/*.md|.tex, figures/*.png|.svg and report.html under ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "results.json", results_json(results))
    sections = build_sections(results, out)
    for s in sections:
        for item in s.items:
            if isinstance(item, Table):
                atomic_write_text(out / "tables" / f"{item.id}.md", render_markdown(item))
                atomic_write_text(out / "tables" / f"{item.id}.tex", render_latex(item))
            elif isinstance(item, Missing):  # drop what an earlier run wrote for an item that is now unavailable
                stale = (
                    [out / "figures" / f"{item.id[4:]}.{e}" for e in ("png", "svg")]
                    if item.id.startswith("fig_")
                    else [out / "tables" / f"{item.id}.{e}" for e in ("md", "tex")]
                )
                for path in stale:
                    path.unlink(missing_ok=True)
    atomic_write_text(out / "report.html", render_html(results, sections, out))
    return sections
