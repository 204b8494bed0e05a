"""Markdown and LaTeX rendering of the report's tables."""

from __future__ import annotations

from benger.report import Table, latex_escape, render_latex, render_markdown
from benger.report._fmt import ci, f, pct, pm, pval, signed


def _table() -> Table:
    return Table(
        id="t1",
        title="Scores & ranks",
        columns=["System", "Raw", "Pass"],
        rows=[["A_1 | x", "69.3 ± 5.6", "93%"], ["B#2 §3", None, ""]],
        caption="Half-width 95% CI",
        inputs="generations",
        method="bootstrap.",
        notes=["note_1"],
        group_rows={1: "Open weights"},
    )


def test_latex_escapes_specials_and_symbols() -> None:
    assert latex_escape("50% & A_b #1 §3 ± {x}") == r"50\% \& A\_b \#1 \S{}3 $\pm$ \{x\}"
    assert latex_escape("Δ ω ρ ε ≥") == r"$\Delta$ $\omega$ $\rho$ $\varepsilon$ $\geq$"
    assert latex_escape(r"a\b") == r"a\textbackslash{}b"
    assert latex_escape("ρf / ρh, d̄") == r"$\rho^{f}$ / $\rho^{h}$, $\bar{d}$"


def test_render_latex_is_booktabs_with_escaped_cells() -> None:
    tex = render_latex(_table())
    assert r"\begin{tabular}{lrr}" in tex and r"\toprule" in tex and r"\bottomrule" in tex
    assert r"A\_1 \textbar{} x & 69.3 $\pm$ 5.6 & 93\% \\" in tex
    # None prints as a dash (--- in LaTeX), "" stays blank; the group heading spans all 3 columns
    assert r"B\#2 \S{}3 & --- &  \\" in tex
    assert r"\multicolumn{3}{l}{\textit{Open weights}} \\" in tex
    assert r"\caption{Scores \& ranks. Half-width 95\% CI Inputs: generations. Method: bootstrap.}" in tex
    assert tex.count("&") - tex.count(r"\&") == 2 * 3  # 3 data/header rows x 2 column separators


def test_render_markdown_pipes_escaped_and_provenance_line() -> None:
    md = render_markdown(_table())
    lines = md.splitlines()
    assert "| System | Raw | Pass |" in lines
    assert "|---|---|---|" in lines
    assert r"| A_1 \| x | 69.3 ± 5.6 | 93% |" in lines
    assert "| **Open weights** |  |  |" in lines
    assert "| B#2 §3 | — |  |" in lines
    assert "*Inputs: generations. Method: bootstrap.*" in lines


def test_number_formatting_rounds_half_up_and_keeps_missing_as_none() -> None:
    assert f(69.25) == "69.3"  # banker's rounding would give 69.2
    assert f(2.675, 2) == "2.68"  # repr 2.675 rounds up, though the binary value is 2.67499...
    assert signed(15.65) == "+15.7" and signed(-0.47, 2) == "-0.47"
    assert pct(14 / 15) == "93%"  # 93.33 %
    assert pm(41.3, 4.31) == "41.3 ± 4.3" and pm(41.3, None) == "41.3"
    assert ci(9.2, 22.2, sign=True) == "[+9.2, +22.2]"
    assert pval(0.00008) == "<0.0001" and pval(0.0247) == "0.0247"
    for fn in (f, signed, pct, pval):
        assert fn(None) is None and fn(float("nan")) is None and fn(True) is None
