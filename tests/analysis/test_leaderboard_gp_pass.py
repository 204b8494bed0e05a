"""Issue 24: a run's Grundprinzipien rows carry the paper's pass rate (raw >= 50 of 100, Section 4: the short-item
rubric is not mapped to grade points) with its Wilson interval; before, the judge left ``passed`` None and the
leaderboard printed "–"."""

from __future__ import annotations

import json

import pytest

from benger.analysis.leaderboard import leaderboard, render
from benger.judge import ParsedJudgement, grundprinzipien_rubric, parse_judgement
from benger.schema import FalloesungTask, Generation, Judgement, PrincipleItem

# 10 items; raw 49.5 fails and 50 passes (the paper's flat rule): 7 of 10 pass
TOTALS = [30.0, 49.5, 50.0, 62.0, 70.0, 81.0, 45.0, 90.0, 55.5, 77.0]


def _reply(total: float) -> str:
    # result_correctness/legal_knowledge/subsumption/clarity maxima 40/25/25/10; fill in that order
    left, dims = total, {}
    for key, top in (("result_correctness", 40), ("legal_knowledge", 25), ("subsumption", 25), ("clarity", 10)):
        points = min(top, left)
        dims[key] = {"punkte": points, "begruendung": "kurz begründet"}
        left -= points
    return json.dumps({"dimensionen": dims, "gesamtpunkte": total, "antwort_kandidat": "Ja",
                       "gesamtwuerdigung": "ok"})  # fmt: skip


def test_the_builtin_short_item_rubric_passes_at_raw_50() -> None:
    rubric = grundprinzipien_rubric()
    assert rubric.pass_rule == "raw >= 50 of 100"
    assert (rubric.passed(49.5), rubric.passed(50.0)) == (False, True)
    assert rubric.id == "grundprinzipien@1+0a6137a3"  # the written-out paper rule keeps the stored id


def test_a_run_of_short_items_prints_its_pass_rate_with_a_wilson_interval() -> None:
    rubric = grundprinzipien_rubric()
    tasks: dict[str, FalloesungTask | PrincipleItem] = {
        f"p{i}": PrincipleItem(task_id=f"p{i}", corpus="gp", area="Zivilrecht", case="Fall", question="Frage?",
                               gold_answer="Ja", gold_reasoning="weil") for i in range(len(TOTALS))
    }  # fmt: skip
    gens, judgements = [], []
    for i, total in enumerate(TOTALS):
        parsed = parse_judgement(_reply(total), rubric)
        assert isinstance(parsed, ParsedJudgement), parsed
        gens.append(Generation(generation_id=f"g{i}", task_id=f"p{i}", system="S", config_hash="h", text="x",
                               answer="Ja"))  # fmt: skip
        judgements.append(Judgement(judgement_id=f"j{i}", target_kind="generation", target_id=f"g{i}", judge="J",
                                    judge_config_hash="jh", rubric_id=rubric.id, repeat_index=0, status="scored",
                                    total=parsed.total, grade_points=parsed.grade_points,
                                    passed=parsed.passed))  # fmt: skip
    board = leaderboard(gens, judgements, tasks)
    row = board.rows[0]
    assert row.pass_rate == pytest.approx(0.7)
    # Wilson 95 % for 7 of 10, by hand: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)
    assert (row.pass_ci_low, row.pass_ci_high) == pytest.approx((0.39678, 0.89221), abs=1e-5)
    assert "70%" in render.cells(board, row)
