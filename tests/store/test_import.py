"""Importing the released data: counts, the withheld texts, the superseded run, idempotence."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from benger.corpora import load_release
from benger.store import Store
from benger.store._import import TEXT_WITHHELD

pytestmark = pytest.mark.release


def test_import_release(store: Store, release_dir: Path) -> None:
    release = load_release(release_dir)
    counts = store.import_release(release)
    # 15 Benchathon tasks + 531 Grundprinzipien items = 546; 180 final + 28 superseded generations; judgements:
    # the 208 generations' primary judge + the six paper judges on the 30 human picks (Opus-4.7 on 28): 178
    # + the five other paper judges on the 15 LLM picks: 75
    totals = {
        "corpora": 2,
        "tasks": 546,
        "systems": 12,
        "generations": 208,
        "judgements": 208 + 178 + 75,
        "human_solutions": 30,
        "human_reviews": 180,
        "metric_values": 1252 + 176,
    }
    assert counts == {**totals, **{f"written_{kind}": n for kind, n in totals.items()}}  # all new
    assert store.corpus_names() == ["benchathon", "grundprinzipien"]
    gp = store.load_corpus("grundprinzipien")
    assert [t.task_id for t in gp.tasks[:2]] == ["gp-0001", "gp-0002"] and gp.tasks[-1].task_id == "gp-0531"
    assert store.load_corpus("benchathon") == release.benchathon

    stats = store.stats()
    # the 28 superseded April generations are kept but excluded from the leaderboards
    assert stats["generations"] == {"ok": 180, "excluded": 28, "failed": 0}
    assert stats["judgements"] == {"scored": 461, "unscored": 0}
    gens = store.generations()
    with_text = [g for g in gens if g.text]
    assert len(with_text) == 15  # the 15 LLM validation picks
    assert all(g.meta["text"] == TEXT_WITHHELD for g in gens if not g.text)
    assert Counter(g.system for g in gens if g.meta["superseded"]) == {
        "gpt-5.4": 15,
        "Qwen/Qwen3-235B-A22B-Thinking-2507": 13,
    }

    first = release.judgements[0]
    js = store.judgements(judge="gpt-5.4-mini", rubric_id=first.rubric_id)
    assert Counter(j.target_kind for j in js) == {"generation": 208, "human_solution": 30}
    # the human picks' scores of creator_calibration_anchors.csv (raw only): gpt54mini scored pick 1f5d32cf 82.0
    # (13 grade points: 79 < 82 <= 83) and pick 27f1716e 44.0 (3 points: 38 < 44 <= 49, fails)
    pick = {j.target_id[:8]: j for j in js if j.target_kind == "human_solution"}
    assert (pick["1f5d32cf"].total, pick["1f5d32cf"].grade_points, pick["1f5d32cf"].passed) == (82.0, 13, True)
    assert (pick["27f1716e"].total, pick["27f1716e"].grade_points, pick["27f1716e"].passed) == (44.0, 3, False)
    assert pick["1f5d32cf"].dimensions is None and pick["1f5d32cf"].judge_config_hash == first.judge_config_hash
    others = Counter(j.judge for j in store.judgements() if j.target_kind == "human_solution")
    assert others == {"gpt-5.4-mini": 30, "cfgB_opus": 28, "cfgB_gemini": 30, "deepseek": 30, "qwen": 30, "sonnet": 30}
    # the LLM picks: the five other judges' anchor scores as judgements of the generations (the primary judge's
    # are its generation judgements); qwen scored pick 44c31c28 67.0 (9 grade points: 66 < 67 <= 69) and
    # c51f6f54 44.0 (3 points, fails)
    llm = [j for j in store.judgements(target_kind="generation") if j.judge != "gpt-5.4-mini"]
    assert Counter(j.judge for j in llm) == {
        "cfgB_opus": 15,
        "cfgB_gemini": 15,
        "deepseek": 15,
        "qwen": 15,
        "sonnet": 15,
    }
    assert {j.target_id for j in llm} == {p.subject_id for p in release.picks if p.subject_type == "model"}
    qwen = {j.target_id[:8]: j for j in llm if j.judge == "qwen"}
    assert (qwen["44c31c28"].total, qwen["44c31c28"].grade_points, qwen["44c31c28"].passed) == (67.0, 9, True)
    assert (qwen["c51f6f54"].total, qwen["c51f6f54"].grade_points, qwen["c51f6f54"].passed) == (44.0, 3, False)
    assert (
        qwen["44c31c28"].meta["anchor_key"] == "qwen" and qwen["44c31c28"].judge_config_hash != first.judge_config_hash
    )
    key = ("generation", first.target_id, first.judge_config_hash, first.rubric_id, 0)
    assert store.get_judgement(*key) == first

    sols = store.human_solutions()
    assert Counter(s.condition for s in sols) == {"traditional": 15, "co_creation": 15}
    assert all(s.text for s in sols)
    reviews = store.human_reviews()
    assert [r.position for r in reviews] == list(range(180))
    assert reviews == list(release.reviews)

    again = store.import_release(release)  # idempotent: the database wrote no row again
    assert again == {**totals, **{f"written_{kind}": 0 for kind in totals}}
    assert store.stats() == stats
