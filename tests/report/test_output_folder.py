"""Output folders appear complete or not at all (issue 32, item 4): the one writer, benger.outputs."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from benger.errors import InputError
from benger.outputs import MANIFEST, atomic_write_text, output_folder, read_manifest


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_fresh_folder_appears_whole_with_manifest_last(tmp_path: Path) -> None:
    out = tmp_path / "analysis"
    with output_folder(out, "test") as folder:
        folder.write_text("results.json", "{}")
        folder.write_bytes("figures/a.png", b"\x89PNG")
        folder.path_for("tables/t.md").write_text("| a |", encoding="utf-8")
        assert not out.exists()  # nothing at the target while the block runs
    files = read_manifest(out)
    assert files is not None and set(files) == {"results.json", "figures/a.png", "tables/t.md"}
    assert files["figures/a.png"]["bytes"] == 4
    assert [p.name for p in tmp_path.iterdir()] == ["analysis"]  # no staging folder left


def test_files_and_folders_get_the_users_umask(tmp_path: Path, umask_022: None) -> None:
    out = tmp_path / "o"
    with output_folder(out, "test") as folder:
        folder.write_text("sub/x.txt", "x")
    assert _mode(out) == 0o755 and _mode(out / "sub") == 0o755
    assert _mode(out / "sub" / "x.txt") == 0o644 and _mode(out / MANIFEST) == 0o644
    atomic_write_text(tmp_path / "single.txt", "y")
    assert _mode(tmp_path / "single.txt") == 0o644


def test_an_exception_leaves_the_target_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "o"
    with pytest.raises(KeyboardInterrupt), output_folder(out, "test") as folder:
        folder.write_text("results.json", "{}")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with output_folder(out, "test") as folder:
        folder.write_text("results.json", "old")
    with pytest.raises(RuntimeError), output_folder(out, "test") as folder:
        folder.write_text("results.json", "new")
        raise RuntimeError("figure failed")
    assert (out / "results.json").read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["o"]


def test_rewrite_keeps_user_files_and_drops_stale_ones(tmp_path: Path) -> None:
    out = tmp_path / "o"
    with output_folder(out, "test") as folder:
        folder.write_text("a.txt", "1")
        folder.write_text("stale.txt", "1")
        folder.write_text("gone.txt", "1")
    (out / "notes.txt").write_text("mine", encoding="utf-8")  # the user's own file
    with output_folder(out, "test") as folder:
        folder.write_text("a.txt", "2")
        folder.discard("gone.txt")
    assert (out / "a.txt").read_text(encoding="utf-8") == "2"
    assert not (out / "stale.txt").exists() and not (out / "gone.txt").exists()
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert set(read_manifest(out) or {}) == {"a.txt"}


def test_a_file_as_target_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="is a file"):
        output_folder(target, "test").__enter__()


@pytest.mark.parametrize("rel", ["/abs", "../up", MANIFEST, ""])
def test_paths_outside_the_folder_are_refused(tmp_path: Path, rel: str) -> None:
    with pytest.raises(ValueError), output_folder(tmp_path / "o", "test") as folder:
        folder.write_text(rel, "x")


def test_write_report_failing_midway_leaves_nothing_that_looks_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The observation: a killed analyze left results.json complete, 4 of 10 figures and no tables."""
    from benger.report import _build

    def boom(results: object, out: Path) -> list:
        (out / "figures").mkdir(parents=True, exist_ok=True)
        (out / "figures" / "f1.png").write_bytes(b"png")
        raise KeyboardInterrupt  # Ctrl-C during the figures

    monkeypatch.setattr(_build, "build_sections", boom)
    monkeypatch.setattr(_build, "parse_results", lambda text: None)
    out = tmp_path / "analysis"
    with pytest.raises(KeyboardInterrupt):
        _build.write_report({"meta": {}}, out)
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_kill_9_leaves_no_complete_looking_folder_and_the_next_run_sweeps(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import sys, time
        from benger.outputs import output_folder
        with output_folder(sys.argv[1], "test") as folder:
            folder.write_text("results.json", "{}")
            print("ready", flush=True)
            time.sleep(60)
        """
    )
    out = tmp_path / "analysis"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(out)], stdout=subprocess.PIPE, text=True, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not out.exists()
    leftovers = [p.name for p in tmp_path.iterdir()]
    assert len(leftovers) == 1 and leftovers[0].startswith(".analysis.partial-")
    with output_folder(out, "test") as folder:
        folder.write_text("results.json", json.dumps({"ok": 1}))
    assert [p.name for p in tmp_path.iterdir()] == ["analysis"]


def _write(out: Path, command: str, files: dict[str, str]) -> None:
    with output_folder(out, command) as folder:
        for rel, text in files.items():
            folder.write_text(rel, text)


def test_commands_sharing_a_folder_keep_each_others_files(tmp_path: Path) -> None:
    """The observation: analyze then leaderboard into one folder left only leaderboard.*."""
    out = tmp_path / "out"
    _write(out, "analyze", {"results.json": "{}", "tables/t.md": "|a|", "report.html": "<p>"})
    _write(out, "leaderboard", {"leaderboard.csv": "a,b"})
    _write(out, "analyze", {"results.json": "{1}", "report.html": "<p>"})  # a rerun: tables/t.md is stale
    assert {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} == {
        "results.json",
        "report.html",
        "leaderboard.csv",
        MANIFEST,
    }
    files = read_manifest(out) or {}
    assert {rel: e["command"] for rel, e in files.items()} == {
        "results.json": "analyze",
        "report.html": "analyze",
        "leaderboard.csv": "leaderboard",
    }
    assert set(read_manifest(out, "leaderboard") or {}) == {"leaderboard.csv"}


@pytest.mark.parametrize(
    ("owner", "message"),
    [(None, "a file benger did not write"), ("reproduce", "written by `benger reproduce`, not by `benger analyze`")],
)
def test_a_file_that_is_not_the_commands_own_is_refused_before_anything_changes(
    tmp_path: Path, owner: str | None, message: str
) -> None:
    out = tmp_path / "out"
    if owner is None:
        out.mkdir()
        (out / "results.json").write_text("mine", encoding="utf-8")
    else:
        _write(out, owner, {"results.json": "mine"})
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(InputError, match=message) as caught, output_folder(out, "analyze") as folder:
        folder.write_text("tables/t.md", "|a|")
        folder.path_for("figures/f.png").write_bytes(b"png")
        (folder.staging / "results.json").write_text("new", encoding="utf-8")  # a writer using the staging path
    assert caught.value.file == str(out / "results.json")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    with pytest.raises(InputError, match=message), output_folder(out, "analyze") as folder:
        folder.write_text("results.json", "new")  # refused at the write, before the work goes on


def test_discard_removes_only_the_commands_own_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _write(out, "leaderboard", {"tables/x.md": "board"})
    (out / "tables" / "mine.md").write_text("mine", encoding="utf-8")
    with output_folder(out, "analyze") as folder:
        folder.write_text("results.json", "{}")
        folder.discard("tables/x.md")
        folder.discard("tables/mine.md")
    assert (out / "tables" / "x.md").read_text(encoding="utf-8") == "board"
    assert (out / "tables" / "mine.md").read_text(encoding="utf-8") == "mine"


def test_an_older_manifest_without_commands_is_read_as_benger_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for rel in ("results.json", "tables/t.md"):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text("old", encoding="utf-8")
    legacy = {"files": {rel: {"bytes": 3, "sha256": "x"} for rel in ("results.json", "tables/t.md")}}
    (out / MANIFEST).write_text(json.dumps(legacy), encoding="utf-8")
    _write(out, "leaderboard", {"leaderboard.csv": "a"})  # keeps the older run's files
    _write(out, "analyze", {"results.json": "new"})  # may replace them
    assert (out / "results.json").read_text(encoding="utf-8") == "new"
    assert (out / "tables" / "t.md").read_text(encoding="utf-8") == "old"  # not removed as stale
    files = read_manifest(out) or {}
    assert files["results.json"]["command"] == "analyze" and "command" not in files["tables/t.md"]


def test_a_file_in_the_way_of_a_folder_is_refused_before_anything_moves(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _write(out, "leaderboard", {"a.txt": "1"})
    (out / "tables").write_text("a file named like a folder", encoding="utf-8")
    with pytest.raises(NotADirectoryError), output_folder(out, "leaderboard") as folder:
        folder.write_text("a.txt", "2")
        folder.write_text("tables/t.md", "|a|")
    assert (out / "a.txt").read_text(encoding="utf-8") == "1"
