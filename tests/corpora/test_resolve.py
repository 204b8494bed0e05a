"""resolve_corpus_source: the one string the CLI and run configs use to name corpora."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benger.corpora import load_demo_corpus, resolve_corpus_source, write_corpus_file
from benger.errors import InputError


def test_demo_specs() -> None:
    assert [c.name for c in resolve_corpus_source("demo")] == ["demo-falloesung", "demo-grundprinzipien"]
    assert [c.name for c in resolve_corpus_source(" demo-grundprinzipien ")] == ["demo-grundprinzipien"]


def test_user_file_and_zjs_specs(tmp_path: Path) -> None:
    path = write_corpus_file(load_demo_corpus("demo-falloesung"), tmp_path / "eigene.csv")
    (corpus,) = resolve_corpus_source(str(path))
    assert corpus.name == "eigene" and len(corpus.tasks) == 3
    zjs = tmp_path / "zjs.json"
    zjs.write_text(
        json.dumps([{"data": {"sachverhalt": "S", "musterlösung": "M", "bereich": "zivilrecht"}}]), encoding="utf-8"
    )
    (zjs_corpus,) = resolve_corpus_source(f"zjs:{zjs}")
    assert zjs_corpus.name == "zjs" and zjs_corpus.tasks[0].task_id == "zjs-0001"


@pytest.mark.parametrize(
    ("spec", "needle"),
    [("nonsense", "unknown corpus source"), ("zjs:", "needs a path"), ("demo-nope", "unknown corpus source")],
)
def test_bad_specs(spec: str, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        resolve_corpus_source(spec)


@pytest.mark.release
def test_release_spec(release_dir: Path) -> None:
    benchathon, principles = resolve_corpus_source(f"release:{release_dir}")
    assert (benchathon.name, len(benchathon.tasks)) == ("benchathon", 15)
    assert (principles.name, len(principles.tasks)) == ("grundprinzipien", 531)
