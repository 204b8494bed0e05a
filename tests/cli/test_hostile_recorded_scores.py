"""``benger validate-judge --recorded FILE.csv``: every bad scores file is one message naming file, line and column.

Found as a hostile user (2026-12-01 (c)): a Latin-1 file was an internal error (UnicodeDecodeError), a file
saved with a BOM (Excel's "CSV UTF-8") was "expected the columns solution_id,score" although it has them, a
row with one cell said "not a number: None", a pick scored twice kept the last score silently, a file with
only the header validated nothing and exited 0, and an id with a NUL byte was refused without file or line.
And with too few picks per annotator the alt-test has no omega, yet the verdict read "fails".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.analysis._validate_judge import _row, _verdict
from benger.analysis._validate_judge_scores import read_recorded_scores
from benger.errors import InputError

PICKS = {"p1", "p2", "p3"}
HEADER = b"solution_id,score\n"

# (file bytes, the message's "where" prefix, a phrase of its reason)
BAD_FILES = [
    (HEADER + b"p1,50\np\xe4,60\n", "f.csv:3", "not valid UTF-8"),  # Latin-1: was an internal error
    (HEADER + b"p1,50\np2\n", "f.csv:3", "row has 1 cells, the header 2 columns"),  # was "not a number: None"
    (HEADER + b"p1,50\np2,40,7\n", "f.csv:3", "row has 3 cells"),
    (HEADER + b"p1,50\np1,70\n", "f.csv:3, field 'solution_id'", "scored twice (first on line 2)"),  # was silent
    (HEADER, "f.csv", "no scores below the header"),  # was exit 0 with every number "–"
    (HEADER + b"\n\n", "f.csv", "no scores below the header"),
    (b"", "f.csv:1, field 'solution_id'", "expected the columns solution_id,score (found: nothing)"),
    (b"id;score\np1;50\n", "f.csv:1", "separated by semicolons"),
    (b"pick,score\np1,50\n", "f.csv:1, field 'solution_id'", "(found: pick, score)"),
    (HEADER + b"x\x00y,50\n", "f.csv:2, field 'solution_id'", "is not a released validation pick"),
    (HEADER + b"nosuchpick,50\n", "f.csv:2, field 'solution_id'", "is not a released validation pick"),
    (HEADER + b",50\n", "f.csv:2, field 'solution_id'", "empty solution_id"),
    (HEADER + b"p1,\n", "f.csv:2, field 'score'", "not a number: ''"),
    (HEADER + b"p1,viel\n", "f.csv:2, field 'score'", "not a number: 'viel'"),
    (HEADER + b"p1,nan\n", "f.csv:2, field 'score'", "nan is not a raw score in 0..100"),
    (HEADER + b"p1,inf\n", "f.csv:2, field 'score'", "inf is not a raw score"),
    (HEADER + b"p1,1e400\n", "f.csv:2, field 'score'", "1e400 is not a raw score"),
    (HEADER + b"p1,100.5\n", "f.csv:2, field 'score'", "100.5 is not a raw score"),
    (HEADER + b"p1,-1\n", "f.csv:2, field 'score'", "-1 is not a raw score"),
    (HEADER + b'p1,"50\np2,60\n', "f.csv:2", "unclosed quote"),
]


@pytest.mark.parametrize(("data", "where", "reason"), BAD_FILES, ids=[repr(c[0][17:40]) for c in BAD_FILES])
def test_a_bad_scores_file_is_one_input_error(data: bytes, where: str, reason: str, tmp_path: Path) -> None:
    path = tmp_path / "f.csv"
    path.write_bytes(data)
    with pytest.raises(InputError) as info:
        read_recorded_scores(path, picks=PICKS)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / where}: "), message
    assert reason in message


@pytest.mark.parametrize(
    "data",
    [
        "\ufeffsolution_id,score\np1,50\np2,62.5\n".encode(),  # UTF-8 with a BOM (spreadsheet export)
        b"solution_id,score\r\np1,50\r\n\r\np2,62.5\r\n",  # CRLF and a blank line
        "score,solution_id\n50,p1\n62.5,p2\n".encode("utf-16"),  # UTF-16 with its BOM, other column order
        b" solution_id , score \n p1 , 50 \np2,62.5\n",  # spaces around names and values
    ],
)
def test_good_scores_files_read_the_same(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "f.csv"
    path.write_bytes(data)
    assert read_recorded_scores(path, picks=PICKS) == {"p1": 50.0, "p2": 62.5}


def test_a_missing_file_or_a_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        read_recorded_scores(tmp_path / "nope.csv")
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(InputError, match="is a directory"):
        read_recorded_scores(tmp_path / "dir.csv")


def _block(alt: dict) -> dict:
    return {"label": "j", "agreement": {}, "alt_test_blind": {"human": alt}, "alt_test_single_expert": {},
            "icc_placement": {}}  # fmt: skip


def test_no_verdict_without_an_omega() -> None:
    """An alt-test in which no annotator shares 5 picks with the judge has no omega: its verdict is undefined,
    not "fails" (a judge scored on 3 picks showed "omega –, fails")."""
    undefined: dict[str, object] = {"omega": None, "rho": None, "passes": False, "epsilon": 0.15, "per_annotator": []}
    assert _verdict(undefined) == "undefined (too few picks per annotator)"
    assert _row("candidate", _block(undefined), n_human=3)[10] == "–"
    assert _verdict({**undefined, "omega": 0.4}) == "fails"
    assert _row("candidate", _block({**undefined, "omega": 0.6, "passes": True}))[10] == "passes"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"\xe4,50\n", "f.csv:2: not valid UTF-8"),  # was: internal error: UnicodeDecodeError, exit 1
        (b"", "f.csv: no scores below the header"),  # was: exit 0, every number "–"
    ],
)
def test_the_command_names_the_bad_line(body: bytes, message: str, tmp_path: Path, release_dir: Path) -> None:
    from typer.testing import CliRunner

    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    path = tmp_path / "f.csv"
    path.write_bytes(HEADER + body)
    result = CliRunner().invoke(app, ["validate-judge", "--recorded", str(path), "--release", str(release_dir)])
    assert result.exit_code == 2, result.output
    assert f"error: {tmp_path / message}" in result.output and "internal error" not in result.output


def test_the_report_names_the_scores_file_and_the_picks_behind_the_icc(tmp_path: Path, release_dir: Path) -> None:
    """Provenance: the scores file (path and content hash) and the picks the ICC line is computed on (it was
    "ICC(2,k) of the 3 blind reviewers: 0.691" for 3 scored picks, read beside the paper's 45-pick 0.838)."""
    import hashlib

    from typer.testing import CliRunner

    from benger.analysis._data import StudyData
    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    data = StudyData.from_release(release_dir)
    gpt = data.judge_scores["gpt54mini"]
    ids = sorted(s for s in gpt if data.solutions[s].pool == "human")[:3]
    path = tmp_path / "f.csv"
    path.write_bytes(HEADER + "".join(f"{s},{gpt[s]}\n" for s in ids).encode())
    out = tmp_path / "out"
    args = ["validate-judge", "--recorded", str(path), "--release", str(release_dir), "--out", str(out)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    assert f"- scores_file: {path.resolve()} (sha256 {digest})" in result.output
    assert "- ICC(2,k) of the 3 blind reviewers on the 3 picks the judge scored: " in result.output
    assert "omega –, rho –, undefined (too few picks per annotator)" in result.output
    assert '"scores_file"' in (out / "validate-judge.json").read_text(encoding="utf-8")
