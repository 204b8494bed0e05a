"""Run configs meet bad files through `benger run`: nothing runs, the store is unchanged, one message."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benger.errors import InputError
from benger.pipeline import load_run_config

from ._fuzz import TALLY, check_rejected, dump, invoke, store_copy

GOOD = "corpora: [demo]\nsystems: [qwen2.5-0.5b-instruct]\njudges: [qwen2.5-0.5b-instruct]\n"
BAD_CONFIGS: list[tuple[str, bytes]] = [
    ("unknown-key.yaml", (GOOD + "concurency: 4\n").encode()),
    ("wrong-type.yaml", (GOOD + "concurrency: viele\n").encode()),
    ("zero.yaml", (GOOD + "repeats: 0\n").encode()),
    ("nan.yaml", (GOOD + "retry: {initial_wait: .nan}\n").encode()),
    ("inf.yaml", (GOOD + "retry: {max_wait: .inf}\n").encode()),
    ("bigint.yaml", (GOOD + "concurrency: " + "9" * 5000 + "\n").encode()),
    ("deep.yaml", (GOOD + "name: " + "[" * 3000 + "]" * 3000 + "\n").encode()),
    ("latin1.yaml", GOOD.encode() + "name: Prüfung\n".encode("latin-1")),
    ("list.yaml", b"- demo\n"),
    ("empty.yaml", b""),
    ("broken.yaml", (GOOD + "filters: {limit: [\n").encode()),
    ("tabs.yaml", b"corpora:\n\t- demo\n"),
    ("system.yaml", b"corpora: [demo]\nsystems: [no-such-model]\n"),
    ("inline.yaml", b"corpora: [demo]\nsystems:\n  - {name: s, model: m, provider: openai, temperature: warm}\n"),
    ("executor.yaml", (GOOD + "executor: threads\n").encode()),
    ("template.yaml", (GOOD + "prompts: {falloesung_user: bad.j2}\n").encode()),
    ("no-template.yaml", (GOOD + "prompts: {falloesung_user: missing.j2}\n").encode()),
    ("template-name.yaml", (GOOD + "prompts: {falloesung_usr: bad.j2}\n").encode()),
    ("corpus.yaml", b"corpora: [missing.jsonl]\nsystems: [qwen2.5-0.5b-instruct]\n"),
]


@pytest.mark.parametrize(("name", "content"), BAD_CONFIGS, ids=[n for n, _ in BAD_CONFIGS])
def test_bad_run_configs(demo_store: Path, tmp_path: Path, name: str, content: bytes) -> None:
    (tmp_path / "bad.j2").write_text("{{ facts }\n", encoding="utf-8")
    store = store_copy(demo_store, tmp_path / "s")
    before = dump(store)
    path = tmp_path / name
    path.write_bytes(content)
    names = [str(path), str(tmp_path / "bad.j2"), str(tmp_path / "missing.j2"), str(tmp_path / "missing.jsonl")]
    check_rejected(invoke(["run", str(path), "--db", str(store), "-q"]), names, store, before)


def test_a_folder_as_run_config(tmp_path: Path) -> None:
    check_rejected(invoke(["run", str(tmp_path), "--db", str(tmp_path / "s.db")]), [str(tmp_path)])
    assert not (tmp_path / "s.db").exists()


_KEYS = st.sampled_from(
    ["corpora", "systems", "judges", "repeats", "concurrency", "executor", "filters", "retry", "prompts", "nme", "db"]
)
_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=6), st.sampled_from(["demo", "x.jsonl"])
)
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_random_run_configs_load_or_fail_clearly(
    tmp_path_factory: pytest.TempPathFactory, data: dict[str, object]
) -> None:
    path = tmp_path_factory.mktemp("cfg") / "run.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    try:
        load_run_config(path)
    except InputError as exc:  # the only way a config may fail: naming the file
        TALLY["bad inputs"] += 1
        TALLY["clear" if exc.file in (str(path), None) and str(path) in str(exc) else "unclear"] += 1
        assert str(path) in str(exc), str(exc)
    else:
        TALLY["still valid"] += 1
