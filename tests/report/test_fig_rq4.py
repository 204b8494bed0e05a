"""Figure 1 (RQ4 group means with 95% intervals): the analysis block that feeds it and the figure itself.

Hand-made inputs; the plotted bar heights and whisker ends are read back from the matplotlib Axes."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer
from tests.report.conftest import make_results

from benger.analysis._rq34 import _Obs, cocreation, cocreation_effect
from benger.analysis._study import GenScore, HumanAnnotation, StudyData, SystemMeta
from benger.analysis.results._models import CoCreation
from benger.report._build import write_report
from benger.report._fig_rq4 import draw_rq4_groups, rq4_group_bars, rq4_groups_figure
from benger.report._model import Figure, Missing

# (mean, low, high, n) per group; made up
GROUPS = {
    "traditional": (50.0, 44.0, 57.0, 15),
    "co_creation": (64.0, 57.5, 71.0, 15),
    "pooled": (55.0, 53.0, 57.5, 180),
    "flagship": (66.0, 62.5, 69.0, 60),
}


def _row(key: str) -> dict[str, Any]:
    mean, low, high, n = GROUPS[key]
    return {"n": n, "mean": mean, "low": low, "high": high}


def _rq4() -> dict[str, Any]:
    return {
        "method": "co-creation minus traditional; percentile bootstraps",
        "inputs": {"annotations_with_condition": 220, "with_judge_score": 30},
        "source": "unavailable",
        "reason": "judge scores for 30 of 220 human solutions",
        "judge": None,
        "judge_picks": {
            "n": {"traditional": 15, "co_creation": 15},
            "mean": {"traditional": 50.0, "co_creation": 64.0},
            "delta": 14.0,
            "arms": {"traditional": _row("traditional"), "co_creation": _row("co_creation")},
        },
        "blind_human": None,
        "ai": {"pooled": _row("pooled"), "flagship": _row("flagship")},
    }


def test_bars_and_whiskers_equal_the_input_means_and_intervals(tmp_path: Path) -> None:
    rq4 = CoCreation.model_validate(_rq4())
    bars, population, reason = rq4_group_bars(rq4)
    assert reason is None and "validation picks only" in population
    assert [b.key for b in bars] == ["traditional", "co_creation", "pooled", "flagship"]
    fig = draw_rq4_groups(bars)
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights == [GROUPS[k][0] for k in GROUPS]
    (eb,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    whiskers = eb.lines[2][0].get_segments()  # one vertical segment (low, high) per bar
    assert [(float(s[0][1]), float(s[1][1])) for s in whiskers] == [(GROUPS[k][1], GROUPS[k][2]) for k in GROUPS]
    assert [t.get_text() for t in ax.get_xticklabels()][2] == "AI (pooled)\nn=180"
    plt.close(fig)

    item = rq4_groups_figure(rq4, tmp_path)
    assert isinstance(item, Figure) and item.id == "fig_rq4_groups"
    for rel in (item.path_png, item.path_svg):
        assert (tmp_path / rel).stat().st_size > 5000
    assert "validation picks only" in item.caption and item.method.startswith("co-creation minus")


def test_all_human_solutions_win_over_the_picks() -> None:
    rq4 = _rq4()
    rq4["judge"] = copy.deepcopy(rq4["judge_picks"])
    rq4["judge"]["arms"]["traditional"]["mean"] = 51.0
    bars, population, _ = rq4_group_bars(CoCreation.model_validate(rq4))
    assert population == "all human solutions" and bars[0].mean == 51.0


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda b: b["ai"].pop("flagship"), "AI (flagship)"),
        (lambda b: b["ai"]["pooled"].update(low=None), "AI (pooled)"),
        (lambda b: b["judge_picks"].pop("arms"), "judge scores for 30 of 220"),
    ],
)
def test_missing_inputs_skip_the_figure_with_the_reason(tmp_path: Path, edit: Any, why: str) -> None:
    rq4 = _rq4()
    edit(rq4)
    item = rq4_groups_figure(CoCreation.model_validate(rq4), tmp_path)
    assert isinstance(item, Missing) and why in item.reason
    assert not (tmp_path / "figures").exists()  # nothing drawn, no empty bar


def test_report_lists_the_figure_or_its_reason(tmp_path: Path) -> None:
    results = make_results()
    results["rq4"] = _rq4()
    write_report(results, tmp_path)
    html = (tmp_path / "report.html").read_text("utf-8")
    assert (tmp_path / "figures" / "rq4_groups.svg").exists() and "fig_rq4_groups" in html
    results["rq4"]["ai"] = {}
    write_report(results, tmp_path)  # now unavailable: the stale files go, the reason is shown
    assert not (tmp_path / "figures" / "rq4_groups.svg").exists()
    assert "AI (pooled), AI (flagship)" in (tmp_path / "report.html").read_text("utf-8")


def _study(anns: list[HumanAnnotation], gens: list[GenScore]) -> StudyData:
    systems = {"a": SystemMeta("a", "A", "flagship", None, None), "b": SystemMeta("b", "B", "open", None, None)}
    return StudyData(
        systems=systems,
        task_areas={"t1": "Zivilrecht"},
        generations=gens,
        annotations=anns,
        solutions={},
        reviews=[],
        judge_scores={"j": {}},
        judge_labels={"j": "J"},
        primary_judge="j",
    )


def test_analysis_arms_and_ai_groups_by_hand() -> None:
    # traditional 40, 50, 30, 34 (mean 38.5); co-creation 60, 70, 80, 50, 52 (mean 62.4)
    # generations: a (flagship) 40, 80; b 50, 60; a superseded 0 is not counted: pooled 57.5, flagship 60
    values = [("traditional", v) for v in (40.0, 50.0, 30.0, 34.0)]
    values += [("co_creation", v) for v in (60.0, 70.0, 80.0, 50.0, 52.0)]
    anns = [HumanAnnotation(f"x{k}", c, f"p{k % 4}", f"t{k % 3}", "Zivilrecht", v) for k, (c, v) in enumerate(values)]
    gens = [GenScore(f"g{k}", s, "t1", r, {}) for k, (s, r) in enumerate([("a", 40.0), ("a", 80.0), ("b", 50.0)])]
    gens += [GenScore("g3", "b", "t1", 60.0, {}), GenScore("g4", "a", "t1", 0.0, {}, superseded=True)]
    out = cocreation(_study(anns, gens), n_boot=200)
    arms = out["judge"]["arms"]
    assert (arms["traditional"]["n"], arms["co_creation"]["n"]) == (4, 5)
    assert arms["traditional"]["mean"] == pytest.approx(38.5) and arms["co_creation"]["mean"] == pytest.approx(62.4)
    assert out["ai"]["pooled"]["n"] == 4 and out["ai"]["pooled"]["mean"] == pytest.approx(57.5)
    assert out["ai"]["flagship"]["n"] == 2 and out["ai"]["flagship"]["mean"] == pytest.approx(60.0)
    for row in [*arms.values(), *out["ai"].values()]:
        assert row["low"] <= row["mean"] <= row["high"]
    # the arm intervals draw from their own stream: the delta intervals are those computed without them
    obs = [_Obs(v, c, f"p{k % 4}", f"t{k % 3}", "Zivilrecht") for k, (c, v) in enumerate(values)]
    plain = cocreation_effect(obs, np.random.default_rng(4), 200)
    with_arms = cocreation_effect(obs, np.random.default_rng(4), 200, np.random.default_rng(41))
    assert plain is not None and with_arms is not None and "arms" not in plain
    assert {k: v for k, v in with_arms.items() if k != "arms"} == plain
