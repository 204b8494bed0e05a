"""The leaderboard on hand-built records, every number computed by hand."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from benger.analysis.leaderboard import Leaderboard, LeaderboardRow, leaderboard
from benger.schema import FalloesungTask, Generation, Judgement, PrincipleItem, SystemConfig
from benger.store import MetricValue


def _tasks() -> dict[str, FalloesungTask | PrincipleItem]:
    tasks: dict[str, FalloesungTask | PrincipleItem] = {}
    for tid in ("f1", "f2", "f3"):
        tasks[tid] = FalloesungTask(task_id=tid, corpus="fall", area="Zivilrecht", facts="SV", reference="ML")
    for tid, gold in (("p1", "Ja"), ("p2", "Nein")):
        tasks[tid] = PrincipleItem(task_id=tid, corpus="gp", area="Strafrecht", case="Fall", question="Frage?",
                                   gold_answer=gold, gold_reasoning="weil")  # fmt: skip
    return tasks


def _gen(system: str, task: str, status: str = "ok", answer: str | None = None) -> Generation:
    return Generation(generation_id=f"{system}-{task}", task_id=task, system=system, config_hash="h",
                      status=status, text="x", answer=answer)  # type: ignore[arg-type]  # fmt: skip


def _j(target: str, total: float | None, repeat: int = 0, gp: int | None = None, judge: str = "J") -> Judgement:
    if total is None:
        return Judgement(judgement_id=f"{target}-{repeat}-{judge}", target_kind="generation", target_id=target,
                         judge=judge, judge_config_hash="jh", rubric_id="r@1", repeat_index=repeat,
                         status="unscored", reason="missing dimension 'sprache'")  # fmt: skip
    return Judgement(judgement_id=f"{target}-{repeat}-{judge}", target_kind="generation", target_id=target, judge=judge,
                     judge_config_hash="jh", rubric_id="r@1", repeat_index=repeat, status="scored", total=total,
                     grade_points=gp, passed=None if gp is None else gp >= 4)  # fmt: skip


GENS = [
    _gen("A", "f1"), _gen("A", "f2"), _gen("A", "f3", status="excluded"),
    _gen("A", "p1", answer="Ja"), _gen("A", "p2", answer="Ja"),
    _gen("B", "f1"), _gen("B", "f2", status="failed"), _gen("B", "p1", answer="Nein"), _gen("B", "p2", answer="Nein"),
]  # fmt: skip
JUDGEMENTS = [
    _j("A-f1", 60, 0, gp=7), _j("A-f1", 70, 1, gp=10), _j("A-f2", 40, 0, gp=3), _j("A-f2", None, 1),
    _j("A-p1", 80), _j("A-p2", 30),
    _j("B-f1", 90, 0, gp=16), _j("B-p1", 20),
    _j("B-f1", 10, 0, gp=0, judge="OTHER"),  # another judge: dropped by the judges filter below
]  # fmt: skip
SYSTEMS = {"A": SystemConfig(name="A", provider="local", model="a", tier="local"),
           "B": SystemConfig(name="B", provider="local", model="b", tier="flagship")}  # fmt: skip


def _row(board: Leaderboard, system: str, corpus: str, judge: str | None = "J") -> LeaderboardRow:
    (row,) = [r for r in board.rows if (r.system, r.corpus, r.judge) == (system, corpus, judge)]
    return row


def test_rows_and_ranking_by_hand() -> None:
    board = leaderboard(GENS, JUDGEMENTS, _tasks(), systems=SYSTEMS, ci="normal", judges=["J"])
    # A on "fall": per-generation means f1 = (60+70)/2 = 65, f2 = 40 (unscored repeat left out) -> mean 52.5;
    # grade points (7+10)/2 = 8.5 and 3 -> 5.75; pass 1.0 and 0.0 -> 0.5; n = 2 < 3: no interval (issue 24;
    # before: [28.0004, 76.9996] from two values)
    a = _row(board, "A", "fall")
    assert (a.n, a.mean, a.mean_grade_points, a.pass_rate, a.repeats) == (2, 52.5, 5.75, 0.5, 1.5)
    assert (a.ci_low, a.ci_high, a.ci_kind) == (None, None, None)
    assert (a.unscored, a.excluded, a.failed, a.generations) == (1, 1, 0, 3)
    assert (a.accuracy, a.answered, a.answer_items) == (None, 0, 0)
    # A on "gp": (80 + 30)/2 = 55; answers Ja/Ja vs gold Ja/Nein -> accuracy 1/2 (2 of 2 answered)
    g = _row(board, "A", "gp")
    assert (g.n, g.mean, g.accuracy, g.answered, g.answer_items, g.mean_grade_points) == (2, 55.0, 0.5, 2, 2, None)
    # B: "fall" 90 (n 1, the failed f2 counted apart), "gp" 20 with p2 unjudged; answers Nein/Nein -> 1/2
    b_fall, b_gp = _row(board, "B", "fall"), _row(board, "B", "gp")
    assert (b_fall.n, b_fall.mean, b_fall.mean_grade_points, b_fall.pass_rate, b_fall.failed) == (1, 90.0, 16, 1.0, 1)
    assert b_fall.ci_low is None and b_fall.ci_high is None  # n = 1: undefined, never [90, 90]
    assert (b_gp.n, b_gp.mean, b_gp.unjudged, b_gp.accuracy) == (1, 20.0, 1, 0.5)
    # ranking within judge J: A = (52.5 + 55)/2 = 53.75, B = (90 + 20)/2 = 55 -> B first
    assert [(r.group, r.system, r.rank, r.overall) for r in board.ranking] == [
        ("J", "B", 1, 55.0),
        ("J", "A", 2, 53.75),
    ]
    assert [(r.system, r.corpus) for r in board.rows] == [("B", "fall"), ("B", "gp"), ("A", "fall"), ("A", "gp")]
    assert a.tier == "local" and b_fall.tier == "flagship"
    assert (a.config_id, a.judge, a.judge_config_id, a.rubric) == ("h", "J", "jh", "r@1")


def test_two_configurations_of_one_name_are_two_rows() -> None:
    """Issue 10 obs. 3: a changed model under the same name gives a second row, never n = 2 x corpus."""
    gens = [_gen("A", "f1"), _gen("A", "f2")]
    gens += [g.model_copy(update={"generation_id": f"{g.generation_id}-new", "config_hash": "h2"}) for g in gens]
    js = [_j("A-f1", 60), _j("A-f2", 40), _j("A-f1-new", 90), _j("A-f2-new", 70)]
    board = leaderboard(gens, js, _tasks(), ci="normal")
    rows = sorted((r.config_id, r.n, r.mean, r.generations, r.rank) for r in board.rows)
    assert rows == [("h", 2, 50.0, 2, 2), ("h2", 2, 80.0, 2, 1)]
    assert [(r.system, r.config_id, r.rank) for r in board.ranking] == [("A", "h2", 1), ("A", "h", 2)]
    assert all(r.n <= 3 for r in board.rows)  # never more than the corpus's 3 tasks x 1 repetition


def test_judges_are_never_mixed_in_one_ranking() -> None:
    """Issue 10 obs. 4: each judge is its own group with its own ranks; pooling only when asked for."""
    board = leaderboard(GENS, JUDGEMENTS, _tasks(), ci="normal")
    assert board.groups() == ["J", "OTHER"]
    other = _row(board, "B", "fall", judge="OTHER")
    assert (other.group, other.rank, other.n, other.mean) == ("OTHER", 1, 1, 10.0)
    assert _row(board, "B", "fall").mean == 90.0  # judge J alone, not (90 + 10)/2
    assert [(r.group, r.system, r.rank) for r in board.ranking] == [
        ("J", "B", 1), ("J", "A", 2), ("OTHER", "B", 1)
    ]  # fmt: skip
    pooled = leaderboard(GENS, JUDGEMENTS, _tasks(), ci="normal", pool_judges=True)
    b_fall = _row(pooled, "B", "fall", judge="J, OTHER")
    assert (b_fall.group, b_fall.mean, b_fall.n) == ("all judges (pooled)", 50.0, 1)  # (90 + 10)/2
    # pooled per generation: the mean of each judge's repeat mean (A-f1: J's (60 + 70)/2 only)
    assert _row(pooled, "A", "fall", judge="J").mean == 52.5


def test_a_judge_with_two_configurations_on_one_corpus_is_split() -> None:
    js = [_j("A-f1", 60), _j("B-f1", 80)]
    js.append(js[1].model_copy(update={"judgement_id": "x", "judge_config_hash": "jh-other", "total": 20.0}))
    board = leaderboard(GENS, js, _tasks(), ci="normal")
    assert board.groups() == ["J [jh, r@1]", "J [jh-other, r@1]", "unranked (no scored judgement)"]
    assert {(r.group, r.system, r.rank) for r in board.ranking} == {
        ("J [jh, r@1]", "B", 1), ("J [jh, r@1]", "A", 2), ("J [jh-other, r@1]", "B", 1)
    }  # fmt: skip


def test_accuracy_counts_unanswered_items_as_wrong() -> None:
    """Issue 11 item 5: 6 answered of 13, all right -> 6/13 = 46 %, shown with answered/total."""
    tasks: dict[str, FalloesungTask | PrincipleItem] = {
        f"p{i}": PrincipleItem(
            task_id=f"p{i}",
            corpus="gp",
            area="Strafrecht",
            case="F",
            question="Q?",
            gold_answer="Ja",
            gold_reasoning="w",
        )
        for i in range(13)
    }
    gens = [_gen("A", f"p{i}", answer="Ja" if i < 6 else None) for i in range(13)]
    board = leaderboard(gens, [], tasks)
    (row,) = board.rows
    assert (row.answered, row.answer_items) == (6, 13) and row.accuracy == pytest.approx(6 / 13)
    assert (row.group, row.rank, row.unjudged) == ("unranked (no scored judgement)", None, 13)
    assert "46% (6/13)" in board.to_markdown()


def test_accuracy_of_a_system_that_answered_nothing_is_undefined() -> None:
    """H3's hostile run: an endpoint that refused every call gave "Acc. 0% (0/13)" and accuracy 0.0 in the CSV,
    a silent zero; with nothing answered the accuracy is undefined ("–", null) and the counts stay shown."""
    tasks: dict[str, FalloesungTask | PrincipleItem] = {
        f"p{i}": PrincipleItem(
            task_id=f"p{i}", corpus="gp", area="Strafrecht", case="F", question="Q?", gold_answer="Ja",
            gold_reasoning="w",
        )
        for i in range(3)
    }  # fmt: skip
    gens = [_gen("A", f"p{i}", answer=None) for i in range(3)]
    board = leaderboard(gens, [], tasks)
    (row,) = board.rows
    assert (row.accuracy, row.answered, row.answer_items) == (None, 0, 3)
    assert "– (0/3)" in board.to_markdown()
    assert json.loads(board.to_json())["rows"][0]["accuracy"] is None


def test_undefined_and_bounded_intervals() -> None:
    """Issue 11 item 8 / issue 24: n < 3 has no interval ("–", null); the normal interval stays inside 0-100."""
    one = leaderboard([_gen("A", "f1")], [_j("A-f1", 72)], _tasks(), ci="normal")
    assert "| 72.0 | no interval (n < 3) |" in one.to_markdown()
    assert json.loads(one.to_json())["rows"][0]["ci_low"] is None
    two = leaderboard([_gen("A", "f1"), _gen("A", "f2")], [_j("A-f1", 30), _j("A-f2", 100)], _tasks(), ci="normal")
    assert (two.rows[0].mean, two.rows[0].ci_low, two.rows[0].ci_high) == (65.0, None, None)  # before: [0, 100]
    gens = [_gen("A", "f1"), _gen("A", "f2"), _gen("A", "f3")]
    three = leaderboard(gens, [_j("A-f1", 0), _j("A-f2", 100), _j("A-f3", 100)], _tasks(), ci="normal")
    (row,) = three.rows
    # mean 66.67, sd 57.735, half width 1.959964 * 57.735 / sqrt(3) = 65.33 -> [1.33, 132.0] clipped to 100
    assert row.mean == pytest.approx(200 / 3) and row.ci_low == pytest.approx(1.3346, abs=1e-3)
    assert row.ci_high == 100.0 and row.ci_kind == "normal"
    assert "clipped to 0–100" in two.ci_method and "clipped to 0–100" in two.to_markdown()


def test_counts_and_provenance_are_printed_and_exported() -> None:
    gens = [*GENS, _gen("A", "f1").model_copy(update={"generation_id": "A-f1-t", "config_hash": "t" * 16,
                                                       "truncated": True, "meta": {"prompt_hash": "ph"}})]  # fmt: skip
    board = leaderboard(gens, JUDGEMENTS, _tasks(), ci="normal", judges=["J"])
    md = board.to_markdown()
    header = md.splitlines()[2]
    for column in ("Failed", "Excluded", "Truncated", "Unjudged", "Unscored", "Judge", "Config", "Judge cfg"):
        assert f"| {column} |" in header
    assert "| – | A | tttttttt | – | – | – | fall | 0 |" in md  # unjudged config: listed, not ranked
    rows = {(r["system"], r["config_id"], r["corpus"]): r for r in csv.DictReader(io.StringIO(board.to_csv()))}
    trunc = rows[("A", "tttttttt", "fall")]
    assert (trunc["truncated"], trunc["unjudged"], trunc["prompt_hash"], trunc["rank"]) == ("1", "1", "ph", "")
    a = rows[("A", "h", "fall")]
    assert (a["judge"], a["judge_config_id"], a["judge_config_hash"], a["rubric"]) == ("J", "jh", "jh", "r@1")
    from benger import __version__

    assert a["benger_version"] == __version__ and "bootstrap" not in a["ci_method"]


def test_bootstrap_ci_is_seeded_and_brackets_the_mean() -> None:
    one = leaderboard(GENS, JUDGEMENTS, _tasks(), judges=["J"], seed=7, n_resamples=2000)
    two = leaderboard(GENS, JUDGEMENTS, _tasks(), judges=["J"], seed=7, n_resamples=2000)
    a1 = next(r for r in one.rows if (r.system, r.corpus) == ("A", "fall"))
    a2 = next(r for r in two.rows if (r.system, r.corpus) == ("A", "fall"))
    assert (a1.ci_low, a1.ci_high) == (a2.ci_low, a2.ci_high)
    # two values 40 and 65: too few for an interval (issue 24: n < 3), whatever the seed
    assert (a1.ci_low, a1.ci_high) == (None, None) and a1.mean == 52.5


def test_exports() -> None:
    board = leaderboard(GENS, JUDGEMENTS, _tasks(), ci="normal", judges=["J"])
    rows = list(csv.DictReader(io.StringIO(board.to_csv())))
    assert len(rows) == 4 and rows[0]["system"] == "B" and rows[0]["mean"] == "90.0"
    assert rows[1]["mean_grade_points"] == ""  # None is an empty cell, never 0
    md = board.to_markdown().splitlines()
    assert md[0] == "### Judge: J" and md[2].startswith("| Rank | System | Config | Tier | Judge |")
    assert len([line for line in md if line.startswith("| ")]) == 5
    assert md[4].startswith(
        "| (1) | B | h | – | J | jh | fall | 1 | 90.0 | no interval (n < 3) | 16.0 | 100% | – | 1 | 0 | 0 | 0 | 0 |"
    )  # n = 1: too few for a ranking (MIN_RANKED_N), the rank in parentheses
    data = json.loads(board.to_json())
    assert data["ranking"][0]["system"] == "B" and data["ci"] == "normal"
    assert not any(isinstance(v, float) and math.isnan(v) for r in data["rows"] for v in r.values())


def _mv(target: str, metric: str, value: float, signature: str, kind: str = "generation") -> MetricValue:
    return MetricValue(target_kind=kind, target_id=target, metric=metric, signature=signature, value=value)


METRIC_VALUES = [
    _mv("A-f1", "bleu", 0.2, "bleu@2"), _mv("A-f2", "bleu", 0.4, "bleu@2"), _mv("A-p1", "bleu", 0.5, "bleu@2"),
    _mv("B-f1", "bleu", 0.6, "bleu@2"),
    _mv("A-f3", "bleu", 0.9, "bleu@2"),  # excluded generation: left out
    _mv("B-f2", "bleu", 0.1, "bleu@2"),  # failed generation: left out
    _mv("A-f1", "bleu", 0.99, "bleu@1"),  # minority signature (1 of 7 bleu values): left out
    _mv("A-f1", "chrf", 50.0, "chrf@1"), _mv("B-f1", "chrf", 70.0, "chrf@1"),
    _mv("B-p1", "chrf", 30.0, "chrf@1"), _mv("B-p2", "chrf", 40.0, "chrf@1"),
    _mv("A-f1-0-J", "chrf", 1.0, "chrf@1", kind="judgement"),  # not a generation value: left out
]  # fmt: skip


def test_metric_columns_by_hand() -> None:
    board = leaderboard(GENS, JUDGEMENTS, _tasks(), ci="normal", judges=["J"], metric_values=METRIC_VALUES)
    # bleu: 6 values signed bleu@2 (counting excluded/failed targets) vs 1 bleu@1 -> bleu@2
    assert board.metric_signatures == {"bleu": "bleu@2", "chrf": "chrf@1"}
    rows = {(r["system"], r["corpus"]): r for r in csv.DictReader(io.StringIO(board.to_csv()))}
    assert list(next(iter(rows.values())))[-8:-2] == [
        "metric_bleu", "metric_bleu_n", "metric_bleu_signature", "metric_chrf", "metric_chrf_n", "metric_chrf_signature"
    ]  # fmt: skip
    assert {r["metric_bleu_signature"] for r in rows.values()} == {"bleu@2"}
    # A fall: bleu (0.2 + 0.4)/2 = 0.3 (n 2; f3 excluded), chrf 50 (n 1); A gp: bleu 0.5 (n 1), no chrf
    # B fall: bleu 0.6 (f2 failed), chrf 70; B gp: no bleu (empty cell, n 0), chrf (30 + 40)/2 = 35 (n 2)
    got = {k: (r["metric_bleu"], r["metric_bleu_n"], r["metric_chrf"], r["metric_chrf_n"]) for k, r in rows.items()}
    assert got[("B", "gp")] == ("", "0", "35.0", "2") and got[("A", "gp")] == ("0.5", "1", "", "0")
    assert float(got[("A", "fall")][0]) == pytest.approx(0.3) and got[("A", "fall")][1:] == ("2", "50.0", "1")
    assert got[("B", "fall")] == ("0.6", "1", "70.0", "1")
    data = json.loads(board.to_json())
    assert data["metric_signatures"] == {"bleu": "bleu@2", "chrf": "chrf@1"}
    by_key = {(r["system"], r["corpus"]): r["metrics"] for r in data["rows"]}
    assert by_key[("B", "gp")] == {"chrf": {"mean": 35.0, "n": 2}}
    assert by_key[("A", "fall")]["bleu"]["mean"] == pytest.approx(0.3) and by_key[("A", "fall")]["bleu"]["n"] == 2
    # the tables gain short-labelled columns with 3 decimals
    md = board.to_markdown().splitlines()
    assert md[2].endswith("| Unscored | Vs paper | Judge status | BLEU | chrF |")
    assert md[4].endswith("| 0.600 | 70.000 |") and md[5].endswith("| – | 35.000 |")
    assert "bleu = bleu@2; chrf = chrf@1" in board.to_markdown()
    # the user may choose a signature: the minority bleu@1 then gives A fall 0.99 (n 1)
    chosen = leaderboard(GENS, JUDGEMENTS, _tasks(), judges=["J"], metric_values=METRIC_VALUES,
                         metric_signatures={"bleu": "bleu@1"})  # fmt: skip
    assert chosen.metric_signatures == {"bleu": "bleu@1", "chrf": "chrf@1"}
    assert _row(chosen, "A", "fall").metrics["bleu"].n == 1 and _row(chosen, "B", "fall").metrics.get("bleu") is None


def test_without_metric_values_the_tables_are_unchanged() -> None:
    plain = leaderboard(GENS, JUDGEMENTS, _tasks(), ci="normal", judges=["J"])
    empty = leaderboard(GENS, JUDGEMENTS, _tasks(), ci="normal", judges=["J"], metric_values=[])
    assert plain.to_markdown() == empty.to_markdown()
    assert plain.metric_signatures == {} and all(r.metrics == {} for r in plain.rows)
    assert not any(c.startswith("metric_") for c in next(csv.reader(io.StringIO(plain.to_csv()))))


def test_a_chosen_signature_without_stored_values_is_refused() -> None:
    from benger.errors import InputError

    with pytest.raises(InputError, match=r"metric bleu with signature 'bogus'; stored signatures: bleu@1, bleu@2"):
        leaderboard(GENS, JUDGEMENTS, _tasks(), metric_values=METRIC_VALUES, metric_signatures={"bleu": "bogus"})
    # chrf@1 is stored only on a judgement target, not on a generation: the metric has no generation value
    only_judgement = [_mv("A-f1-0-J", "chrf", 1.0, "chrf@1", kind="judgement")]
    with pytest.raises(InputError, match="no value of metric chrf is stored"):
        leaderboard(GENS, JUDGEMENTS, _tasks(), metric_values=only_judgement, metric_signatures={"chrf": "chrf@1"})


def test_rank_is_per_system_over_its_corpora_and_ties_share_it() -> None:
    # per-corpus raw means: A fall 60, gp 70 -> 65; B fall 70, gp 60 -> 65; C fall 50, gp 50 -> 50
    totals = {("A", "f1"): 60, ("A", "p1"): 70, ("B", "f1"): 70, ("B", "p1"): 60, ("C", "f1"): 50, ("C", "p1"): 50}
    gens = [_gen(s, t, answer="Ja" if t == "p1" else None) for s, t in totals]
    judgements = [_j(f"{s}-{t}", float(v)) for (s, t), v in totals.items()]
    board = leaderboard(gens, judgements, _tasks(), ci="normal")
    assert {(r.system, r.overall, r.rank) for r in board.ranking} == {("A", 65.0, 1), ("B", 65.0, 1), ("C", 50.0, 3)}
    # the system's one rank on each of its rows (one per corpus)
    assert {(r.system, r.corpus, r.rank) for r in board.rows} == {
        ("A", "fall", 1), ("A", "gp", 1), ("B", "fall", 1), ("B", "gp", 1), ("C", "fall", 3), ("C", "gp", 3)
    }  # fmt: skip


def _kind_gen(system: str, task: str, system_hash: str, total: float, answer: str | None = None) -> Generation:
    """A generation as the pipeline stores it: its config hash is the system's hash x its task kind's prompts."""
    kind = "grundprinzip" if task.startswith("p") else "falloesung"
    config_hash = f"{system_hash}-{kind}"
    return Generation(generation_id=f"{config_hash}-{task}", task_id=task, system=system, config_hash=config_hash,
                      text=f"{total}", answer=answer,
                      meta={"system_config_hash": system_hash, "prompt_hash": f"prompts-{kind}"})  # fmt: skip


# (system, its config hash, task, total, answer): A has two configurations (a1, a2), each on both corpora
TWO_CORPORA = [
    ("A", "a1", "f1", 60, None), ("A", "a1", "f2", 80, None), ("A", "a1", "p1", 50, "Ja"), ("A", "a1", "p2", 30, "Ja"),
    ("A", "a2", "f1", 90, None), ("A", "a2", "p1", 100, "Ja"),
    ("B", "b1", "f1", 70, None), ("B", "b1", "p2", 50, "Nein"),
]  # fmt: skip


def test_one_system_configuration_is_one_ranked_entity_across_corpora() -> None:
    """Issue 10 (identity): the falloesung and Ja/Nein prompts give one system configuration's generations two
    config hashes; the leaderboard joins them on the system's own hash (meta system_config_hash)."""
    gens = [_kind_gen(s, t, h, v, a) for s, h, t, v, a in TWO_CORPORA]
    judgements = [_j(g.generation_id, float(g.text)) for g in gens]
    board = leaderboard(gens, judgements, _tasks(), ci="normal")
    # A/a1: fall (60 + 80)/2 = 70, gp (50 + 30)/2 = 40 -> 55; A/a2: fall 90, gp 100 -> 95; B/b1: 70, 50 -> 60
    assert [(r.system, r.config_id, r.rank, r.overall, r.corpora) for r in board.ranking] == [
        ("A", "a2", 1, 95.0, {"fall": 90.0, "gp": 100.0}),
        ("B", "b1", 2, 60.0, {"fall": 70.0, "gp": 50.0}),
        ("A", "a1", 3, 55.0, {"fall": 70.0, "gp": 40.0}),
    ]
    # one row per corpus, each with the entity's one rank and its own corpus's generation and prompt hashes
    got = {(r.system, r.config_hash, r.corpus): (r.rank, r.n, r.mean, r.generation_config_hash, r.prompt_hash)
           for r in board.rows}  # fmt: skip
    assert got == {
        ("A", "a1", "fall"): (3, 2, 70.0, "a1-falloesung", "prompts-falloesung"),
        ("A", "a1", "gp"): (3, 2, 40.0, "a1-grundprinzip", "prompts-grundprinzip"),
        ("A", "a2", "fall"): (1, 1, 90.0, "a2-falloesung", "prompts-falloesung"),
        ("A", "a2", "gp"): (1, 1, 100.0, "a2-grundprinzip", "prompts-grundprinzip"),
        ("B", "b1", "fall"): (2, 1, 70.0, "b1-falloesung", "prompts-falloesung"),
        ("B", "b1", "gp"): (2, 1, 50.0, "b1-grundprinzip", "prompts-grundprinzip"),
    }
    # A/a1 answers Ja, Ja against gold Ja, Nein -> 1/2; B/b1 answers p2 Nein (gold Nein) -> 1/1
    a1_gp = next(r for r in board.rows if (r.config_hash, r.corpus) == ("a1", "gp"))
    b1_gp = next(r for r in board.rows if (r.config_hash, r.corpus) == ("b1", "gp"))
    assert (a1_gp.accuracy, a1_gp.answer_items, b1_gp.accuracy, b1_gp.answer_items) == (0.5, 2, 1.0, 1)
    # results.json's Table 1: one entry per system configuration with both corpus blocks
    from benger.analysis.leaderboard.table1 import table1

    entries = table1(board, bench_corpus="fall")["rows"]
    assert [(e["system"], e["bench"]["raw"], e["zjs"]) for e in entries] == [
        ("A [a2]", 90.0, None), ("B", 70.0, None), ("A [a1]", 70.0, None)
    ]  # fmt: skip


def test_two_prompt_sets_of_one_configuration_on_one_corpus_stay_apart() -> None:
    """The same system configuration under two prompt sets on one corpus: two rows (never one mean over both)."""
    gens = [_kind_gen("A", "f1", "a1", 60), _kind_gen("A", "p1", "a1", 50, "Ja")]
    other = gens[0].model_copy(update={"generation_id": "new-f1", "config_hash": "a1-falloesung-v2", "text": "20"})
    gens.append(other.model_copy(update={"meta": {**other.meta, "prompt_hash": "prompts-v2"}}))
    board = leaderboard(gens, [_j(g.generation_id, float(g.text)) for g in gens], _tasks(), ci="normal")
    rows = {(r.config_hash, r.corpus, r.mean, r.prompt_hash, r.rank) for r in board.rows}
    assert rows == {
        ("a1-falloesung", "fall", 60.0, "prompts-falloesung", 1),
        ("a1", "gp", 50.0, "prompts-grundprinzip", 2),
        ("a1-falloesung-v2", "fall", 20.0, "prompts-v2", 3),
    }
