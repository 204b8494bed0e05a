"""Text renderers for tables: Markdown (GitHub pipes) and LaTeX (booktabs)."""

from __future__ import annotations

import re

from benger.report._model import Cell, Table

DASH = "—"

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "§": r"\S{}",
    "±": r"$\pm$",
    "Δ": r"$\Delta$",
    "ω": r"$\omega$",
    "ρ": r"$\rho$",
    "ε": r"$\varepsilon$",
    "κ": r"$\kappa$",
    "α": r"$\alpha$",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "×": r"$\times$",
    "−": r"$-$",
    "★": r"$\star$",
    "≈": r"$\approx$",
    "τ": r"$\tau$",
    "σ": r"$\sigma$",
    "μ": r"$\mu$",
    "β": r"$\beta$",
    "χ": r"$\chi$",
    "≠": r"$\neq$",
    "→": r"$\rightarrow$",
    "²": r"$^{2}$",
    "…": r"\dots{}",
    "’": "'",
    "‘": "`",
    "“": r"\textquotedblleft{}",
    "”": r"\textquotedblright{}",
    "„": r"\quotedblbase{}",
    "·": r"$\cdot$",
    "√": r"$\surd$",
    "\u0304": "",
    "—": "---",
    "–": "--",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


def cell_text(value: Cell) -> str:
    """The printed form of a cell: ``None`` (a value that is missing) becomes a dash; ``""`` stays blank."""
    if value is None:
        return DASH
    return str(value)


# multi-character symbols (d with a combining macron, ρ with a super-script letter) before single characters
_LATEX_SPECIAL.update({"d\u0304": r"$\bar{d}$", "ρf": r"$\rho^{f}$", "ρh": r"$\rho^{h}$"})
_LATEX_RE = re.compile("|".join(re.escape(k) for k in sorted(_LATEX_SPECIAL, key=len, reverse=True)))


def latex_escape(text: str) -> str:
    """Escape ``text`` for LaTeX text mode (special characters, §, Greek letters and ± used in the tables)."""
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group()], text)


def _md_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _provenance(table: Table) -> str:
    parts = []
    if table.inputs:
        parts.append(f"Inputs: {table.inputs}.")
    if table.method:
        parts.append(f"Method: {table.method}")
    return " ".join(parts)


def render_markdown(table: Table) -> str:
    """Render ``table`` as a GitHub Markdown pipe table with title, caption, notes and its inputs/method line."""
    out = [f"### {_md_escape(table.title)}", ""]
    if table.caption:
        out += [_md_escape(table.caption), ""]
    out.append("| " + " | ".join(_md_escape(c) for c in table.columns) + " |")
    out.append("|" + "|".join("---" for _ in table.columns) + "|")
    width = len(table.columns)
    for i, row in enumerate(table.rows):
        if i in table.group_rows:
            head = [f"**{_md_escape(table.group_rows[i])}**"] + [""] * (width - 1)
            out.append("| " + " | ".join(head) + " |")
        out.append("| " + " | ".join(_md_escape(cell_text(c)) for c in row) + " |")
    out.append("")
    for note in table.notes:
        out += [f"*Note:* {_md_escape(note)}", ""]
    prov = _provenance(table)
    if prov:
        out += [f"*{_md_escape(prov)}*", ""]
    return "\n".join(out)


def render_latex(table: Table) -> str:
    """Render ``table`` as a booktabs ``table`` environment; every text cell is escaped."""
    width = len(table.columns)
    spec = "l" + "r" * (width - 1)
    caption = " ".join(x for x in (table.title + ".", table.caption, _provenance(table)) if x.strip("."))
    out = [
        f"% {table.id} -- written by benger; needs \\usepackage{{booktabs}}",
        "\\begin{table}[t]",
        "\\centering",
        "\\small",
        f"\\caption{{{latex_escape(caption)}}}",
        f"\\label{{tab:{table.id}}}",
        f"\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        " & ".join(latex_escape(c) for c in table.columns) + " \\\\",
        "\\midrule",
    ]
    for i, row in enumerate(table.rows):
        if i in table.group_rows:
            if i:
                out.append("\\midrule")
            out.append(f"\\multicolumn{{{width}}}{{l}}{{\\textit{{{latex_escape(table.group_rows[i])}}}}} \\\\")
        out.append(" & ".join(latex_escape(cell_text(c)) for c in row) + " \\\\")
    out += ["\\bottomrule", "\\end{tabular}"]
    for note in table.notes:
        out.append(f"\\par\\smallskip\\footnotesize {latex_escape(note)}")
    out += ["\\end{table}", ""]
    return "\n".join(out)
