"""Issue 32, items 5-7: validate before writing, bounded waits, inputs accepted without complaint or refused
although meant. Each test is an observation of the issue (it failed before) plus its kind as a table.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.errors import InputError
from benger.metrics._api import parse_metrics
from benger.pipeline import load_run_config
from benger.schema import SystemConfig

_register_commands()
runner = CliRunner()

STUB = "{name: s, provider: openai-compatible, model: s, base_url: 'http://127.0.0.1:9/v1'}"


def _rows(db: Path, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


# --- item 5: validation before the store is opened for writing ------------------------------------------------
@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"BENGER_VISIBILITY_TIMEOUT": "abc"}, "BENGER_VISIBILITY_TIMEOUT must be a whole number"),
        ({"BENGER_VISIBILITY_TIMEOUT": "0"}, "BENGER_VISIBILITY_TIMEOUT must be at least 1"),
        ({"BENGER_LEASE_SECONDS": "-3"}, "BENGER_LEASE_SECONDS must be at least 1"),
        ({"BENGER_WORKER_WAIT_SECONDS": "soon"}, "BENGER_WORKER_WAIT_SECONDS must be a whole number"),
        ({"BENGER_BROKER_URL": "amqp://x"}, "BENGER_BROKER_URL must be a redis:// URL"),
    ],
)
def test_a_refused_celery_run_writes_no_systems_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str
) -> None:
    db = tmp_path / "run.db"
    assert runner.invoke(app, ["import", "demo", "--db", str(db)]).exit_code == 0
    config = tmp_path / "run.yaml"
    config.write_text(f"corpora: [demo-grundprinzipien]\nsystems:\n  - {STUB}\nexecutor: celery\n", encoding="utf-8")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = runner.invoke(app, ["generate", str(config), "--db", str(db), "--quiet"])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert _rows(db, "systems") == 0 and _rows(db, "generations") == 0


def test_a_refused_celery_run_creates_no_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(f"corpora: [demo]\nsystems:\n  - {STUB}\nexecutor: celery\n", encoding="utf-8")
    monkeypatch.setenv("BENGER_VISIBILITY_TIMEOUT", "abc")
    db = tmp_path / "new.db"
    result = runner.invoke(app, ["generate", str(config), "--db", str(db), "--quiet"])
    assert result.exit_code == 2 and not db.exists(), result.output


def test_a_command_that_fails_after_creating_a_store_leaves_no_empty_file(tmp_path: Path) -> None:
    """The CLI boundary removes a store file the failed command created and left empty."""
    db = tmp_path / "new.db"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task_id": "a\\u001b[31m", "facts": "F", "reference": "R", "area": "Zivilrecht"}\n', "utf-8")
    result = runner.invoke(app, ["import", str(bad), "--db", str(db)])
    assert result.exit_code == 2 and not db.exists(), result.output


# --- item 6: bounded waits ---------------------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
@pytest.mark.parametrize("name", ["cases.jsonl", "cases.csv", "run.yaml"])
def test_importing_from_a_fifo_is_refused_without_waiting(tmp_path: Path, name: str) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    args = ["import", str(fifo), "--db", str(tmp_path / "x.db")] if name != "run.yaml" else ["run", str(fifo)]
    box: dict[str, object] = {}
    thread = threading.Thread(target=lambda: box.setdefault("r", runner.invoke(app, args)), daemon=True)
    thread.start()
    thread.join(20)
    if thread.is_alive():  # unblock the reader so the test process can end
        with open(fifo, "w"):
            pass
        pytest.fail("reading a FIFO waited")
    result = box["r"]
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert "not a regular file" in result.output  # type: ignore[attr-defined]


# --- item 7: accepted without complaint ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("provider", "temperature", "ok"),
    [("openai", 2.0, True), ("openai", 5, False), ("openai-compatible", 2.5, False), ("google", 2.0, True),
     ("anthropic", 1.0, True), ("anthropic", 1.5, False), ("local", 0.0, True), ("local", 9, False)],
)  # fmt: skip
def test_temperature_outside_the_providers_range_is_refused(provider: str, temperature: float, ok: bool) -> None:
    make = lambda: SystemConfig(name="s", provider=provider, model="m", temperature=temperature)  # noqa: E731
    if ok:
        assert make().temperature == temperature
    else:
        with pytest.raises(ValueError, match=f"outside 0..[12] for provider '{provider}'"):
            make()


def test_temperature_5_in_a_run_config_is_refused_at_load(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(
        "corpora: [demo]\nsystems:\n  - {name: s, provider: openai, model: gpt-5.4, temperature: 5}\n", "utf-8"
    )
    with pytest.raises(Exception, match=re.escape("temperature 5 is outside 0..2")):
        load_run_config(config)


@pytest.mark.parametrize(
    ("url", "ok"),
    [("htp:/", False), ("http:/", False), ("http://", False), ("localhost:8080/v1", False), ("ftp://h/v1", False),
     ("http://127.0.0.1:8080/v1", True), ("https://api.example.org/v1", True), (" http://h:1/v1 ", True)],
)  # fmt: skip
def test_base_url_must_be_a_url_at_load(url: str, ok: bool) -> None:
    make = lambda: SystemConfig(name="s", provider="openai-compatible", model="m", base_url=url)  # noqa: E731
    if ok:
        assert make().base_url == url.strip()
    else:
        with pytest.raises(ValueError, match="is not a valid http:// or https:// URL"):
            make()


def test_empty_db_is_reported_as_an_empty_store_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for args in (["corpora", "--db", ""], ["leaderboard", "--db", "  "], ["import", "demo", "--db", ""]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "empty store path" in result.output and "is a folder" not in result.output
    assert list(tmp_path.iterdir()) == []


NFD_E = unicodedata.normalize("NFD", "é")


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (["a\nb"], "control character U+000A"),
        (["\x1b[31mrot"], "control character U+001B"),
        (["ok\u200b"], "control character U+200B"),
        # every string a reader parses is NFC (benger.text.nfc): the two forms are one id, given twice
        (["fall-\u00e9", f"fall-{NFD_E}"], "duplicate task_id 'fall-\u00e9'"),
        (["x", "x"], "duplicate task_id 'x'"),
    ],
)
def test_task_ids_that_print_as_something_else_are_refused(tmp_path: Path, ids: list[str], message: str) -> None:
    import json

    path = tmp_path / "cases.jsonl"
    rows = [{"task_id": i, "facts": "F", "reference": "R", "area": "Zivilrecht"} for i in ids]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    from benger.corpora import resolve_corpus_source

    with pytest.raises(InputError, match=re.escape(message)) as err:
        resolve_corpus_source(str(path))
    assert err.value.line == len(ids)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [("rouge", ("rouge1", "rouge2", "rougeL")), ("ROUGE", ("rouge1", "rouge2", "rougeL")),
     ("bleu,rouge", ("bleu", "rouge1", "rouge2", "rougeL")), ("rougeL", ("rougeL",)), ("ROUGEL", ("rougeL",)),
     ("Lexical", None)],
)  # fmt: skip
def test_metrics_rouge_is_the_rouge_group(spec: str, expected: tuple[str, ...] | None) -> None:
    got = parse_metrics(spec)
    if expected is None:
        assert got == parse_metrics("lexical")
    else:
        assert got == expected
