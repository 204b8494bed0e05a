"""``benger view --bundle``: an empty or blank path is refused (it read as ``.``, the current folder), as is a
folder holding a file of a page's name that benger did not write; a bundle benger wrote is rewritten in place."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner
from viewer_helpers import ViewerWorld, build

from benger.cli import app as cli_app
from benger.cli._app import _register_commands


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("bundle-path")
    world: ViewerWorld = build(folder)
    copy = folder / "copy.db"
    with sqlite3.connect(world.store.url.removeprefix("sqlite:///")) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    world.store.close()
    yield copy


def _view(*args: str) -> object:
    _register_commands()
    return CliRunner().invoke(cli_app, ["view", *args])


@pytest.mark.parametrize("path", ["", "   ", "\t"])
def test_an_empty_bundle_path_is_refused(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = _view("--db", str(db), "--bundle", path)
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert "--bundle needs a folder name" in result.output  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]
    assert list(tmp_path.iterdir()) == []  # nothing written into the current folder


def test_a_file_benger_did_not_write_is_refused(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "index.html").write_text("<h1>Meine Seite</h1>", encoding="utf-8")
    (tmp_path / "thesis.tex").write_text("\\documentclass{article}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = _view("--db", str(db), "--bundle", ".")
    assert result.exit_code == 2 and "index.html: a file benger did not write" in result.output  # type: ignore[attr-defined]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html", "thesis.tex"]
    (tmp_path / "index.html").unlink()
    assert _view("--db", str(db), "--bundle", ".").exit_code == 0  # other files are kept beside the bundle
    assert (tmp_path / "thesis.tex").read_text(encoding="utf-8") == "\\documentclass{article}"


def test_a_bundle_benger_wrote_is_rewritten(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    for _ in range(2):
        result = _view("--db", str(db), "--bundle", str(out))
        assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert (out / "de" / "index.html").is_file() and (out / "en" / "validation.html").is_file()


def test_view_serves_the_leaderboard_started_ahead(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from fastapi.testclient import TestClient

    served: dict[str, object] = {}

    def fake_run(app: object, **options: object) -> None:
        with TestClient(app) as c:  # type: ignore[arg-type]
            page = c.get("/view/")
        served.update(status=page.status_code, text=page.text, options=options)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    result = _view("--db", str(db), "--port", "8999")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert served["status"] == 200 and 'data-system="alpha"' in str(served["text"])
    assert served["options"] == {"host": "127.0.0.1", "port": 8999, "server_header": False}
