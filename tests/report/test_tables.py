"""Tables built from the typed blocks of a hand-written results dict (tests/report/conftest.py)."""

from __future__ import annotations

from typing import Any

from tests.report.conftest import typed

from benger.analysis.results._models import AppendixA, Departures, Operational
from benger.analysis.results._models_rq5 import JudgeSwap
from benger.report import Missing, Table
from benger.report._tables import leaderboard_table, rq3_table, rq4_area_table, rq4_table
from benger.report._tables_agreement import agreement_table, alt_test_table, irr_table
from benger.report._tables_calibration import calibration_table


def test_leaderboard_rows_in_table1_layout(results: dict[str, Any]) -> None:
    t = leaderboard_table(typed(results).rq1.leaderboard)
    assert isinstance(t, Table)
    assert len(t.columns) == 11
    # raw 69.25 ± 5.6 -> "69.3 ± 5.6"; pass 14/15 = 93.3 % -> "93%"; GP acc 0.81 -> "81%"
    assert t.rows[0] == [
        "System A & Co",
        "15",
        "69.3 ± 5.6",
        "93%",
        "652",
        "58.0 ± 1.0",
        "74%",
        "531",
        "83.1 ± 2.0",
        "86%",
        "81%",
    ]
    # a system without ZJS/GP blocks gets None cells (printed as dashes), never 0
    assert t.rows[1][4:] == [None] * 7
    assert t.notes == [
        "Human (all): no judge scores (judge scores of human annotations not released); human "
        "graders' own mean 58.4 raw, pass 70%."
    ]
    assert t.inputs == "generations, judge_scores:gpt54mini"
    assert t.method.startswith("mean judge raw score")


def test_absent_sections_become_missing_items(results: dict[str, Any]) -> None:
    results["rq1"]["leaderboard"]["rows"] = []
    m = leaderboard_table(typed(results).rq1.leaderboard)
    assert isinstance(m, Missing) and "rq1.leaderboard" in m.reason
    # rq4.judge is null in the fixture (release only): the per-area table explains why
    area = rq4_area_table(typed(results).rq4)
    assert isinstance(area, Missing) and area.reason == "per-annotation judge scores are not released"


def test_rq3_cells_and_missing_statistics(results: dict[str, Any]) -> None:
    t = rq3_table(typed(results).rq3)
    assert isinstance(t, Table)
    assert t.columns == ["Metric", "Bench. per gen. r / ρ (n)", "Bench. per system r / ρ (n)"]
    assert t.rows[0] == ["rouge", "+0.68 / +0.66 (180)", "+0.90 / +0.89 (12)"]
    assert t.rows[1] == ["bleu", "+0.58 / — (180)", None]  # spearman null, no per-system value


def test_rq4_table_uses_blind_human_block_when_judge_is_null(results: dict[str, Any]) -> None:
    t = rq4_table(typed(results).rq4)
    assert isinstance(t, Table)
    # iid units = 15 + 15 annotations
    assert t.rows == [
        ["i.i.d. annotation (robustness)", "30", "+13.6", "[+2.1, +25.0]"],
        ["Participant cluster (headline)", None, "+13.6", "[-1.4, +30.5]"],
    ]
    assert t.group_rows == {0: "Blind human reviewers (validation picks)"}
    assert any(n.startswith("LLM judge (all human annotations): not available") for n in t.notes)
    assert "The headline row is the interval to quote" in t.caption


def test_rq4_table_without_a_named_headline_and_with_a_missing_one(results: dict[str, Any]) -> None:
    blind = results["rq4"]["blind_human"]
    del blind["headline"]  # a results.json from before the headline was named: plain labels, no role claimed
    t = rq4_table(typed(results).rq4)
    assert isinstance(t, Table) and [r[0] for r in t.rows] == ["i.i.d. annotation", "Participant cluster"]
    blind["headline"] = "task_cluster"  # named, but too few clusters to compute it: said, not papered over
    t = rq4_table(typed(results).rq4)
    assert isinstance(t, Table) and [r[0] for r in t.rows] == ["i.i.d. annotation (robustness)",
                                                               "Participant cluster (robustness)"]  # fmt: skip
    assert "Blind human reviewers (validation picks): no task cluster interval (fewer than 2 clusters in an arm), " \
        "so no headline interval." in t.notes  # fmt: skip


def test_rq5_tables(results: dict[str, Any]) -> None:
    res = typed(results)
    agree = agreement_table(res.rq5, res.meta)
    assert isinstance(agree, Table)
    labels = [r[0] for r in agree.rows]
    assert labels[:3] == [
        "Judge vs mean blind (Human-written picks)",
        "Judge vs mean blind (LLM-generated picks)",
        "Human IRR pooled",
    ]
    assert agree.rows[2][1:] == ["n=45×3", "ICC(2,1) raw 0.63", "ICC(2,k) raw 0.84", "ICC(2,k) gp 0.79"]
    assert [
        "Alt-test, blind pool (LLM-generated picks)",
        "m=2, 30 instances",
        "ω=0.00 (ε=0.15)",
        "ρ=0.41",
        "fails",
    ] in agree.rows
    alt = alt_test_table(res.rq5.alt_test, "human", res.meta)
    assert isinstance(alt, Table)
    assert len(alt.rows) == 4 and set(alt.group_rows) == {0, 2}  # 2 judges x 2 annotators
    assert alt.rows[1] == ["grader_02", "19", "0.68 / 0.32", "-0.368", "wilcoxon", "<0.0001", "★"]
    assert alt.group_rows[0].startswith("GPT-5.4-mini (primary): ω=0.60 passes, CP 95% CI [0.01, 0.99]")
    assert isinstance(alt_test_table(res.rq5.alt_test, "nope", res.meta), Missing)
    cal = calibration_table(res.rq5.calibration, res.meta)
    assert isinstance(cal, Table)
    assert cal.group_rows == {0: "Human-written picks", 1: "LLM-generated picks"}
    assert cal.rows[1] == [
        "Sonnet-4.6",
        "15",
        "+6.87 (sd 13.25)",
        "2.01 (0.0645)",
        "+3.28 (sd 6.62)",
        "0.85",
        "1.92 (0.0757)",
    ]
    irr = irr_table(res.rq5.irr)
    assert isinstance(irr, Table) and irr.rows[1][0] == "llm_system"


def test_operational_and_judge_swap_tables() -> None:
    from benger.report._tables_release import judge_swap_table, operational_table

    results: dict[str, Any] = {
        "rq1": {
            "operational": {
                "method": "m",
                "inputs": {"systems": 1},
                "rows": [
                    {
                        "system": "sys-a",
                        "provider": "P",
                        "tier": "flagship",
                        "weights": "closed",
                        "temperature": 0.5,
                        "max_output_tokens": 16000,
                        "generations": 30,
                        "truncated": 2,
                        "mean_latency_s": 70.04,
                        "mean_cost_usd": None,
                        "mean_words": 2190.47,
                    }
                ],
            },
        },
        "rq5": {
            "judge_swap": {
                "method": "m",
                "inputs": {"judges": 2},
                "reason": "aggregates only",
                "judges": {
                    "J1": {
                        "spearman": 1.0,
                        "kendall": 1.0,
                        "offset_raw": -0.4667,
                        "systems": {
                            "sys-a": {"mean_raw": 69.58, "pass_rate": 0.9667, "pass_rate_offset_corrected": 1.0}
                        },
                    },
                    "J2": {"spearman": 0.9720, "kendall": 0.8788, "offset_raw": None, "systems": {}},
                },
            }
        },
    }
    names = {"sys-a": "System A"}
    op = operational_table(Operational.model_validate(results["rq1"]["operational"]), {})
    assert isinstance(op, Table)
    assert op.rows == [["sys-a", "P", "flagship", "closed", "0.5", "16000", "30", "2/30", "70.0", None, "2190"]]
    js = judge_swap_table(JudgeSwap.model_validate(results["rq5"]["judge_swap"]), {})
    assert isinstance(js, Table) and js.columns == ["System", "J1", "J2"]
    assert js.rows[0] == ["sys-a", "69.6 / 97% / 100%", None]
    assert js.rows[1] == ["Spearman ρ / Kendall τ-b vs primary", "1.000 / 1.000", "0.972 / 0.879"]
    assert js.rows[2] == ["Offset Δ_dir (LLM picks)", "-0.47", None]
    assert js.notes == ["aggregates only"]
    unavailable = {"method": "m", "inputs": {"systems": 0}, "source": "unavailable", "reason": "no release"}
    missing = operational_table(Operational.model_validate(unavailable), names)
    assert isinstance(missing, Missing) and missing.reason == "no release"
    # the display names come from the leaderboard
    assert operational_table(Operational.model_validate(results["rq1"]["operational"]), names).rows[0][0] == (
        "System A"
    )


def test_appendix_tables_print_mean_and_half_width() -> None:
    from benger.report._tables_release import appendix_table2, appendix_table5

    cell = {"mean": 69.333, "low": 63.5, "high": 74.7, "halfwidth": 5.6, "n": 15}
    results: dict[str, Any] = {
        "rq1": {
            "appendix_a": {
                "with_superseded": {
                    "method": "m",
                    "inputs": {"metrics": ["bleu"]},
                    "table2": [
                        {
                            "row": "human_traditional",
                            "kind": "human",
                            "n": 65,
                            "n_h": 60,
                            "raw": None,
                            "h_pass_rate": {"mean": 0.6333, "halfwidth": 0.116},
                        },
                        {
                            "row": "sys-a",
                            "kind": "system",
                            "n": 15,
                            "n_h": 0,
                            "raw": cell,
                            "grade_points": {"mean": 9.4667, "halfwidth": None},
                        },
                    ],
                    "table5": [
                        {
                            "row": "sys-a",
                            "kind": "system",
                            "n": 15,
                            "metrics": {"bleu": {"mean": 0.0654, "halfwidth": 0.0171}},
                        }
                    ],
                }
            }
        }
    }
    a = AppendixA.model_validate(results["rq1"]["appendix_a"]["with_superseded"])
    t2 = appendix_table2(a, {})
    assert isinstance(t2, Table)
    assert t2.rows[0] == ["Human traditional", "65", "60", None, None, None, None, None, "63.3 ± 11.6"]
    assert t2.rows[1][:5] == ["sys-a", "15", "0", "69.3 ± 5.6", "9.47"]  # undefined half-width: mean only
    t5 = appendix_table5(a, {})
    assert isinstance(t5, Table) and t5.columns == ["System", "n", "bleu"]
    assert t5.rows == [["sys-a", "15", "0.065 ± 0.017"]]
    assert isinstance(appendix_table2(None, {}), Missing)


def test_departures_table() -> None:
    from benger.report._tables_release import departures_table

    results: dict[str, Any] = {
        "departures": {
            "method": "m",
            "inputs": {"zjs_systems_with_dropped": 1},
            "items": [
                {"kind": "superseded_not_released", "item": "rq1.x", "printed": 652, "benger": 581, "cause": "c1"},
                {"kind": "unavailable", "item": "rq4", "printed": None, "benger": None, "cause": "c2"},
            ],
        }
    }
    t = departures_table(Departures.model_validate(results["departures"]))
    assert isinstance(t, Table)
    assert t.rows == [
        ["superseded_not_released", "rq1.x", "652", "581", "c1"],
        ["unavailable", "rq4", None, None, "c2"],
    ]
    assert isinstance(departures_table(Departures(method="m", inputs={}, items=[])), Missing)


def test_leaderboard_names_each_judges_status_and_marks_a_failed_judge(results: dict[str, Any], tmp_path: Any) -> None:
    """Issue 24: results.json rows of a store carry judge_status / scores_meaningful; before, the report dropped
    them and a failed judge's scores looked as good as a validated one's."""
    from benger.report import write_report

    rows = results["rq1"]["leaderboard"]["rows"]
    rows[0].update(judge="gpt54mini", judge_status="validated on BenGER picks: ω = 0.60, passes",
                   scores_meaningful=True)  # fmt: skip
    rows[1].update(judge="local-0.5b", judge_status="failed on BenGER picks: r = −0.74, ω = 0.00",
                   scores_meaningful=False)  # fmt: skip
    t = leaderboard_table(typed(results).rq1.leaderboard)
    assert isinstance(t, Table)
    assert t.columns[-1] == "Judge status" and len(t.columns) == 12
    assert t.rows[0][-1] == "validated on BenGER picks: ω = 0.60, passes"
    assert t.rows[1][-1] == "failed on BenGER picks: r = −0.74, ω = 0.00 — scores not meaningful"
    assert any("judge local-0.5b failed its validation — scores not meaningful" in n for n in t.notes)
    write_report(results, tmp_path / "out")
    markdown = (tmp_path / "out" / "tables" / "leaderboard.md").read_text(encoding="utf-8")
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    for text in (markdown, html):
        assert "Judge status" in text and "ω = 0.60, passes" in text
        assert "ω = 0.00 — scores not meaningful" in text


def test_leaderboard_says_pass_unknown_with_its_reason(results: dict[str, Any]) -> None:
    """Issue 24: a row whose judgements carry no pass value (a user's own rubric) prints "unknown", not a dash
    that reads as "no score", and the reason travels from rq1.leaderboard into the table's notes."""
    gp = results["rq1"]["leaderboard"]["rows"][0]["gp"]
    gp.update(pass_rate=None, pass_note="pass unknown: no rule for rubric own@1")
    t = leaderboard_table(typed(results).rq1.leaderboard)
    assert isinstance(t, Table)
    assert t.rows[0][7:10] == ["531", "83.1 ± 2.0", "unknown"]
    assert "System A & Co, gp pass: pass unknown: no rule for rubric own@1." in t.notes
