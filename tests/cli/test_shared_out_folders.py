"""Commands sharing an output folder keep each other's files and never overwrite a file benger did not write.

The observation (2026-12-03, data loss): ``benger analyze --db R --out out`` then ``benger leaderboard --db R --out
out`` left only leaderboard.* (plus empty tables/ and figures/): results.json and report.html were gone, and the
other order did the same. ``reproduce --out mydocs`` replaced the user's own mydocs/results.json (exit 0), and
``leaderboard --out lo`` the user's lo/leaderboard.csv. ``export hf`` refused its own folder on a rerun while
``analyze`` and ``view --bundle`` rewrote theirs. Now every command writes through ``benger.outputs.output_folder``
with its name in the folder's manifest: a rerun replaces only that command's files, another command's files are
kept, and a file no manifest lists is refused (exit 2, one line naming it) before anything is changed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.outputs import MANIFEST, read_manifest

_register_commands()
runner = CliRunner()

# every command that writes a folder, as run here: {db} the demo store (with the release imported for the commands
# in RELEASE), {release} the release folder, {config} a run config over the demo corpus, {out} the folder
COMMANDS: dict[str, list[str]] = {
    "analyze": ["analyze", "--db", "{db}", "--out", "{out}", "--n-boot", "100"],
    "reproduce": ["reproduce", "--release", "{release}", "--out", "{out}", "--n-boot", "100"],
    "leaderboard": ["leaderboard", "--db", "{db}", "--out", "{out}"],
    "estimate": ["estimate", "{config}", "--db", "{db}", "--out", "{out}"],
    "export hf": ["export", "hf", "{db}", "{out}"],
    "view --bundle": ["view", "--db", "{db}", "--bundle", "{out}"],
}
# commands that need the release (generations to rank and analyse): slow, the others run on the demo store
RELEASE = {"analyze", "reproduce", "leaderboard"}


class World:
    def __init__(self, root: Path, release: Path | None) -> None:
        self.root = root
        self.release = release
        self.db = root / "release.db"
        self.config = root / "run.yaml"
        self._fresh: dict[str, Path] = {}

    def run(self, command: str, out: Path) -> object:
        values = {"db": str(self.db), "release": str(self.release), "config": str(self.config), "out": str(out)}
        return runner.invoke(app, [a.format(**values) for a in COMMANDS[command]])

    def fresh(self, command: str) -> Path:
        """The folder ``command`` writes into a new folder (written once per module)."""
        if command not in self._fresh:
            out = self.root / "fresh" / command.replace(" ", "_")
            result = self.run(command, out)
            assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
            self._fresh[command] = out
        return self._fresh[command]


def _world(root: Path, release: Path | None) -> World:
    w = World(root, release)
    for source in ([f"release:{release}"] if release else []) + ["demo"]:
        result = runner.invoke(app, ["import", source, "--db", str(w.db)])
        assert result.exit_code == 0, result.output
    w.config.write_text(
        "corpora: [demo]\nsystems:\n  - {name: s, provider: openai-compatible, model: s, "
        "base_url: 'http://127.0.0.1:9/v1'}\n",
        encoding="utf-8",
    )
    return w


@pytest.fixture(scope="module")
def demo_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return _world(tmp_path_factory.mktemp("shared-out-demo"), None)


@pytest.fixture(scope="module")
def release_world(tmp_path_factory: pytest.TempPathFactory, release_dir: Path) -> World:
    return _world(tmp_path_factory.mktemp("shared-out-release"), release_dir)


def _pick(request: pytest.FixtureRequest, *commands: str) -> World:
    return request.getfixturevalue("release_world" if RELEASE & set(commands) else "demo_world")  # type: ignore[no-any-return]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _case(*commands: str) -> object:
    marks = [pytest.mark.slow(reason="reads the released data")] if RELEASE & set(commands) else []
    return pytest.param(*commands, id=" then ".join(commands), marks=marks)


def _foreign(command: str, name: str) -> object:
    marks = [pytest.mark.slow(reason="reads the released data")] if command in RELEASE else []
    return pytest.param(command, name, id=f"{command} over {name}", marks=marks)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        _case("analyze", "leaderboard"),
        _case("leaderboard", "analyze"),
        _case("export hf", "view --bundle"),
        _case("view --bundle", "export hf"),
        _case("leaderboard", "export hf"),
        _case("estimate", "leaderboard"),
        _case("view --bundle", "estimate"),
        _case("estimate", "export hf"),
    ],
)
def test_a_second_command_keeps_the_first_ones_files(
    request: pytest.FixtureRequest, tmp_path: Path, first: str, second: str
) -> None:
    world = _pick(request, first, second)
    out = tmp_path / "out"
    shutil.copytree(world.fresh(first), out)
    before = _files(out)
    result = world.run(second, out)
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    after = _files(out)
    assert {rel: after.get(rel) for rel in before if rel != MANIFEST} == {
        rel: data for rel, data in before.items() if rel != MANIFEST
    }  # every file of the first command as it was
    theirs = set(_files(world.fresh(second))) - {MANIFEST}
    assert theirs <= set(after)
    manifest = read_manifest(out) or {}
    assert set(manifest) == (set(before) | theirs) - {MANIFEST}
    assert {rel for rel, e in manifest.items() if e["command"] == second} == theirs


@pytest.mark.parametrize(
    ("command", "name"),
    [
        _foreign("reproduce", "results.json"),
        _foreign("leaderboard", "leaderboard.csv"),
        _foreign("estimate", "estimate.json"),
        _foreign("export hf", "README.md"),
        _foreign("view --bundle", "index.html"),
    ],
)
def test_a_file_benger_did_not_write_is_refused_and_nothing_changes(
    request: pytest.FixtureRequest, tmp_path: Path, command: str, name: str
) -> None:
    world = _pick(request, command)
    out = tmp_path / "mydocs"
    out.mkdir()
    (out / name).write_text("meine eigene Datei", encoding="utf-8")
    (out / "notes.txt").write_text("Notizen", encoding="utf-8")
    result = world.run(command, out)
    output = result.output  # type: ignore[attr-defined]
    assert result.exit_code == 2, output  # type: ignore[attr-defined]
    assert f"error: {out / name}: a file benger did not write" in output
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "Traceback" not in output  # one line (after the bundle's progress lines)
    assert _files(out) == {name: b"meine eigene Datei", "notes.txt": b"Notizen"}
    assert [p.name for p in tmp_path.iterdir()] == ["mydocs"]  # no staging folder left beside it


@pytest.mark.parametrize(
    "command", [_case("leaderboard"), _case("estimate"), _case("export hf"), _case("view --bundle")]
)
def test_a_rerun_replaces_its_own_files_and_keeps_the_users(
    request: pytest.FixtureRequest, tmp_path: Path, command: str
) -> None:
    world = _pick(request, command)
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("Notizen", encoding="utf-8")  # a folder with the user's file is fine
    for _ in range(2):
        result = world.run(command, out)
        assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert (out / "notes.txt").read_text(encoding="utf-8") == "Notizen"
    manifest = read_manifest(out) or {}
    assert set(manifest) == set(_files(world.fresh(command))) - {MANIFEST}
    assert {e["command"] for e in manifest.values()} == {command}
