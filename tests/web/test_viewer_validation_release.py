"""The viewer's Judge validation over the imported release (issue 27): the paper's judges are validated on the
human picks, with the numbers `benger validate-judge --recorded gpt54mini --release` computes from the release.

Before the importer wrote the anchor scores of the human picks (``creator_calibration_anchors.csv``), the page
showed "n human 0" for gpt-5.4-mini and the leaderboard only its LLM-pick alt-test (omega 0.00, fails). Before
it wrote the five other judges' anchor scores of the LLM picks, their "offset LLM" and "omega blind (LLM)" were
empty and their ICC(2,k) placement over the human picks only; those five judged nothing else, so the leaderboard
leaves them out (validation-only judge configurations) and keeps its 12 primary-judge rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from benger.analysis._data import StudyData
from benger.analysis._validate_judge import PAPER_JUDGES, table_rows, validate_judge
from benger.analysis.leaderboard import leaderboard_from_store
from benger.judge._released import PAPER_JUDGE_NAMES
from benger.store import Store, open_store
from benger.web.access import Access, Principal
from benger.web.viewer import _pages, create_viewer_app
from benger.web.viewer._reader import ResultsReader

pytestmark = [pytest.mark.release, pytest.mark.slow]

#: Human picks each judge scored: 30; Opus-4.7 did not score P25 and P28 (METHODS.md: 28 human picks for Opus).
N_HUMAN = {"gpt-5.4-mini": 30, "cfgB_opus": 28, "cfgB_gemini": 30, "deepseek": 30, "qwen": 30, "sonnet": 30}


def _stats(value: Any) -> Any:
    """``value`` without the judge's name and label (the store names a judge, the CLI its anchor key)."""
    if isinstance(value, dict):
        return {k: _stats(v) for k, v in value.items() if k not in ("inputs", "judge", "label")}
    if isinstance(value, list):
        return [_stats(v) for v in value]
    return value


@pytest.fixture(scope="module")
def store(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    s = open_store(tmp_path_factory.mktemp("valrel") / "release.db")
    s.import_release(release_dir)
    yield s
    s.close()


@pytest.fixture(scope="module")
def block(store: Store) -> dict[str, Any]:
    (found,) = _pages.validation_blocks(store, ResultsReader(Access(store, Principal.local())))
    assert "error" not in found, found
    return found


@pytest.fixture(scope="module")
def cli(release_dir: Path) -> dict[str, Any]:
    """What `benger validate-judge --recorded gpt54mini --release DIR` computes (its candidate and six judges)."""
    data = StudyData.from_release(release_dir)
    return validate_judge(data, data.judge_scores["gpt54mini"], label="gpt54mini", provenance={})


def test_each_paper_judge_is_validated_on_the_human_picks_the_paper_reports(block: dict[str, Any]) -> None:
    assert block["coverage"]["by_pool"] == {"human": 30, "llm": 15}
    assert set(block["blocks"]) == set(N_HUMAN)  # the six paper judges, not the two legacy GPT-5-mini keys
    got = {j: b["agreement"]["human"]["n"] for j, b in block["blocks"].items()}
    assert got == N_HUMAN
    rows = {r[0]: r for r in block["rows"]}
    assert {j: int(rows[j][1]) for j in N_HUMAN} == N_HUMAN  # the table's "n human" column


def test_the_primary_judge_equals_the_cli_and_the_paper(block: dict[str, Any], cli: dict[str, Any]) -> None:
    viewer = block["blocks"]["gpt-5.4-mini"]
    candidate = cli["candidate"]
    # the primary judge has every pick (human: the anchors; LLM: the generation judgements): the whole block
    for key in ("agreement", "calibration", "alt_test_blind", "alt_test_single_expert", "icc_placement"):
        assert _stats(viewer[key]) == _stats(candidate[key]), key
    human = viewer["agreement"]["human"]
    # targets.json judge_vs_mean_blind_pool_human_picks / calderon_blind_pool_primary_judge_human_picks_eps015
    assert human["pearson"] == pytest.approx(0.757437, abs=1e-6)
    assert human["kappa"] == pytest.approx(0.603175, abs=1e-6)
    assert human["mae_raw"] == pytest.approx(10.833333, abs=1e-6)
    alt = viewer["alt_test_blind"]["human"]
    assert (alt["omega"], alt["passes"]) == (0.6, True)
    assert [a["rejected_BY"] for a in alt["per_annotator"]] == [False, True, True, True, False]
    # the released validation of gpt-5.4-mini (benger.analysis.leaderboard.validity): ICC(2,k) judge in place
    assert viewer["icc_placement"]["icc_2_k_judge_in_place_mean"] == pytest.approx(0.817581, abs=1e-6)


def test_the_other_judges_human_pick_statistics_equal_the_cli(block: dict[str, Any], cli: dict[str, Any]) -> None:
    by_name = {PAPER_JUDGE_NAMES[k]: cli["paper_judges"][k] for k in PAPER_JUDGES}
    for judge, viewer in block["blocks"].items():
        want = by_name[judge]
        for key in ("agreement", "calibration", "alt_test_blind", "alt_test_single_expert"):
            assert _stats(viewer[key]["human"]) == _stats(want[key]["human"]), (judge, key)
    omegas = {j: b["alt_test_blind"]["human"]["omega"] for j, b in block["blocks"].items()}
    # the paper's Table 17 (benger.analysis.leaderboard.validity._RELEASED): only GPT-5.4-mini and Opus-4.7 pass
    assert omegas == {
        "gpt-5.4-mini": 0.6,
        "cfgB_opus": 0.6,
        "cfgB_gemini": 0.4,
        "deepseek": 0.2,
        "qwen": 0.0,
        "sonnet": 0.4,
    }


def test_the_other_judges_llm_picks_and_placement_equal_the_cli(block: dict[str, Any], cli: dict[str, Any]) -> None:
    """Their released scores of the 15 LLM picks are imported too: offset LLM, omega blind (LLM) and the ICC(2,k)
    placement over the 45 picks equal the CLI's (before: empty, and the ICC over the human picks only)."""
    for key in PAPER_JUDGES[1:]:
        viewer, want = block["blocks"][PAPER_JUDGE_NAMES[key]], cli["paper_judges"][key]
        assert viewer["agreement"]["llm"]["n"] == 15, key
        for part in ("agreement", "calibration", "alt_test_blind", "alt_test_single_expert", "icc_placement"):
            assert _stats(viewer[part]) == _stats(want[part]), (key, part)
    # creator_calibration_anchors.csv, llm pool: sonnet's mean 60.2 over the picks' blind-pool mean 53.33:
    # offset +6.87; qwen +16.67 (judge mean 70.0)
    sonnet = block["blocks"]["sonnet"]["calibration"]["llm"]
    assert (sonnet["judge_mean"], sonnet["full_mean"]) == (pytest.approx(60.2), pytest.approx(160 / 3))
    assert block["blocks"]["qwen"]["calibration"]["llm"]["judge_minus_pool_mean"] == pytest.approx(50 / 3)


def test_the_viewer_table_is_the_cli_table(block: dict[str, Any], cli: dict[str, Any], release_dir: Path) -> None:
    """Every judge's row of the viewer's table equals the CLI's (validate-judge --release), cell by cell."""
    labels = {v: k for k, v in StudyData.from_release(release_dir).judge_labels.items()}
    want = {}
    for row in table_rows(cli):
        key = labels.get(row[0].removesuffix(" (paper)"), row[0])
        want[PAPER_JUDGE_NAMES[key]] = row[1:]
    got = {row[0]: row[1:] for row in block["rows"]}
    assert got == want and len(got) == 6
    # offset LLM and omega blind (LLM) of sonnet: +6.9 and 0.00 (before the LLM picks were imported: "–")
    assert (got["sonnet"][7], got["sonnet"][10]) == ("6.9", "0.00")


def test_the_leaderboard_keeps_the_primary_judges_twelve_rows(store: Store) -> None:
    """The five judges scored the reviewed picks only: validation-only judge configurations, no rows."""
    board = leaderboard_from_store(store)
    assert len(board.rows) == 12 and {r.judge for r in board.rows} == {"gpt-5.4-mini"}
    assert board.groups() == ["gpt-5.4-mini"]


def test_the_pages_show_the_human_pick_validation(store: Store) -> None:
    with TestClient(create_viewer_app(store, Principal.local())) as c:
        validation = c.get("/view/validation", params={"lang": "en"}).text
        board = c.get("/view/", params={"lang": "en"}).text
    rows = re.findall(r'<tr><th scope="row">([^<]*)</th>((?:<td>[^<]*</td>)+)</tr>', validation)
    table = {name: re.findall(r"<td>([^<]*)</td>", cells) for name, cells in rows}
    # judge | n human | r | rho | MAE raw | MAE gp | kappa | offset human | offset LLM | omega blind (human) | verdict
    primary = ["30", "0.76", "0.76", "10.8", "2.69", "0.60", "0.0", "-0.5", "0.60", "passes"]  # -0.0 shown as 0.0
    assert table["GPT-5.4-mini"][:10] == primary  # the judges by their display names (viewer._names)
    assert table["Opus-4.7"][:1] == ["28"]
    assert "human picks: alt-test ω 0.60 (passes)" in board
