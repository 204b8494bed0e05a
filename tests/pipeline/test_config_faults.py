"""Run-config faults that used to load and then fail at run time: refused at load, naming file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.errors import InputError
from benger.pipeline import load_run_config

GOOD = "corpora: [demo]\nsystems: [qwen2.5-0.5b-instruct]\njudges: [qwen2.5-0.5b-instruct]\n"
INLINE = "corpora: [demo]\nsystems:\n  - name: s\n    provider: openai\n    model: m\n"
KNOWN = "known: openai, openai-compatible, anthropic, google, litellm, local"

# (config text, line, field, message): lines counted by hand in the text
PROVIDER_FAULTS = [
    (
        "corpora: [demo]\nsystems:\n  - {name: s, provider: opneai, model: m}\n",
        3,
        "systems[0].provider",
        f"unknown provider 'opneai'; {KNOWN}",
    ),
    (INLINE.replace("openai", "opneai"), 4, "systems[0].provider", "unknown provider 'opneai'"),
    (
        GOOD.replace("judges: [qwen2.5-0.5b-instruct]", "judges:\n  - {name: j, provider: gpt, model: m}"),
        4,
        "judges[0].provider",
        "unknown provider 'gpt'",
    ),
    (INLINE.replace("openai", "openai-compatible"), 3, "systems[0].base_url", "openai-compatible needs a base_url"),
]
SAMPLING_FAULTS = [
    (INLINE + "    temperature: .inf\n", 6, "systems[0].temperature", "Input should be a finite number, got inf"),
    (INLINE + "    temperature: .nan\n", 6, "systems[0].temperature", "Input should be a finite number"),
    (INLINE + "    temperature: -3\n", 6, "systems[0].temperature", "greater than or equal to 0, got -3"),
    (INLINE + "    max_output_tokens: 0\n", 6, "systems[0].max_output_tokens", "greater than or equal to 1, got 0"),
    (INLINE + "    params: {top_p: 0}\n", 6, "systems[0].params", "top_p must be in (0, 1], got 0"),
    (INLINE + "    params: {top_p: 1.5}\n", 6, "systems[0].params", "top_p must be in (0, 1], got 1.5"),
    (INLINE + "    params: {top_p: .nan}\n", 6, "systems[0].params", "top_p must be in (0, 1], got nan"),
    (INLINE + "    params: {top_p: high}\n", 6, "systems[0].params", "top_p must be in (0, 1], got 'high'"),
    (INLINE + "    params: {top_k: .inf}\n", 6, "systems[0].params", "params.top_k must be a finite number, got inf"),
]
DUPLICATE_FAULTS = [
    (GOOD + "repeats: 2\nrepeats: 5\n", 5, "repeats", "duplicate key 'repeats' (first on line 4)"),
    ("name: a\n" + GOOD + "name: b\n", 5, "name", "duplicate key 'name' (first on line 1)"),
    (INLINE + "    name: t\n", 6, "systems[0].name", "duplicate key 'name' (first on line 3)"),
    (GOOD + "filters: {tasks: [a]}\nfilters: {limit: 1}\n", 5, "filters", "duplicate key 'filters' (first on line 4)"),
    (
        "corpora: [demo]\nsystems: [a, {name: s, 1: x, 1: y}]\n",
        2,
        "systems[1].1",
        "duplicate key '1' (first on line 2)",
    ),
    (GOOD + "retry: {max_retries: 1, max_retries: 2}\n", 4, "retry.max_retries", "duplicate key 'max_retries'"),
]
# leaderboard options the run uses only after all its paid calls: a negative seed was "internal error:
# ValueError" after the whole run (H3's hostile run); the CLI's --seed / --resamples bounds hold here too
LEADERBOARD_FAULTS = [
    (GOOD + "leaderboard: {seed: -1}\n", 4, "leaderboard.seed", "greater than or equal to 0, got -1"),
    (GOOD + "leaderboard:\n  n_resamples: 100001\n", 5, "leaderboard.n_resamples", "less than or equal to 100000"),
    (GOOD + "leaderboard:\n  n_resamples: 99\n", 5, "leaderboard.n_resamples", "greater than or equal to 100"),
]
# sizes the estimate and the planner loop over: repetitions 10^23 from the workbench's form hung the run page (the
# estimate never ended); a run name the store's column (80 characters, printable) cannot hold
SIZE_FAULTS = [
    (GOOD + "repetitions: 100000000000000000000000\n", 4, "repetitions", "less than or equal to 1000"),
    (GOOD + "repeats: 1001\n", 4, "repeats", "less than or equal to 1000"),
    (GOOD + "concurrency: 100000000\n", 4, "concurrency", "less than or equal to 1000"),
    (INLINE + "    repetitions: 1001\n", 6, "systems[0].repetitions", "less than or equal to 1000"),
    (GOOD + f"name: {'n' * 81}\n", 4, "name", "at most 80 characters"),
    (GOOD + "name: ''\n", 4, "name", "at least 1 character"),
    (GOOD + 'name: "a\\0b"\n', 4, "name", "printable"),
]
FAULTS = PROVIDER_FAULTS + SAMPLING_FAULTS + DUPLICATE_FAULTS + LEADERBOARD_FAULTS + SIZE_FAULTS


@pytest.mark.parametrize(("text", "line", "field", "message"), FAULTS)
def test_run_time_faults_are_refused_at_load(tmp_path: Path, text: str, line: int, field: str, message: str) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_run_config(path)
    assert (err.value.file, err.value.line, err.value.field) == (str(path), line, field)
    assert message in str(err.value)
    assert str(err.value).startswith(f"{path}:{line}, field '{field}': ")


@pytest.mark.parametrize(
    "extra",
    [
        "    temperature: 0\n    max_output_tokens: 1\n    params: {top_p: 1}\n",
        "    temperature: 1.5\n    params: {top_p: 0.01, top_k: 40}\n",
        "    provider_family: openai\n",
    ],
)
def test_boundary_values_still_load(tmp_path: Path, extra: str) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(INLINE.replace("    provider: openai\n", "") + "    provider: OpenAI\n" + extra, encoding="utf-8")
    (system,) = load_run_config(path).resolved_systems()
    assert system.model == "m"


def test_the_largest_sizes_still_load(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(GOOD + f"repetitions: 1000\nrepeats: 1000\nconcurrency: 1000\nname: {'n' * 80}\n", encoding="utf-8")
    config = load_run_config(path)
    assert (config.repetitions, config.repeats, config.concurrency, len(config.name)) == (1000, 1000, 1000, 80)


def test_yaml_merge_keys_are_not_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    text = "corpora: [demo]\nbase: &b {provider: openai, model: m, temperature: 0.2}\n"
    path.write_text(text + "systems:\n  - {<<: *b, name: s, temperature: 0.5}\n", encoding="utf-8")
    with pytest.raises(InputError, match="unknown key 'base'"):  # the merge itself is fine; 'base' is not a key
        load_run_config(path)
    path.write_text(
        "corpora: [demo]\nsystems:\n  - &b {provider: openai, model: m, name: s}\n"
        "  - {<<: *b, name: t, temperature: 0.5}\n",
        encoding="utf-8",
    )
    systems = load_run_config(path).resolved_systems()
    assert [(s.name, s.temperature) for s in systems] == [("s", None), ("t", 0.5)]


def test_self_referencing_aliases_end(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("corpora: [demo]\nname: &n [a, *n]\n", encoding="utf-8")
    with pytest.raises(InputError) as err:  # the recursive list is refused as a name, not walked forever
        load_run_config(path)
    assert (err.value.line, err.value.field) == (2, "name")
