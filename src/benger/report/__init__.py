"""benger.report: results.json, Markdown/LaTeX tables, matplotlib figures and the self-contained HTML report."""

from benger.outputs import atomic_write_bytes, atomic_write_text
from benger.report._build import build_sections, describe_inputs, render_html, results_json, sha256_file, write_report
from benger.report._heatmap import task_labels, task_system_from_study, task_system_matrix
from benger.report._model import Figure, Missing, Section, Table
from benger.report._render import latex_escape, render_latex, render_markdown
from benger.report._run import analyze, reproduce

__all__ = [
    "Figure",
    "Missing",
    "Section",
    "Table",
    "analyze",
    "atomic_write_bytes",
    "atomic_write_text",
    "build_sections",
    "describe_inputs",
    "latex_escape",
    "render_html",
    "render_latex",
    "render_markdown",
    "reproduce",
    "results_json",
    "sha256_file",
    "task_labels",
    "task_system_from_study",
    "task_system_matrix",
    "write_report",
]
