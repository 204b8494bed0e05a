"""Models named wrongly (issue 30): each fault a user can make naming a model is refused before any call and
before any store work, with one message naming the option or the file, line and field, exit 2 — the same
on every command that calls or estimates models (run, generate, judge, estimate, validate-judge, --dry-run).

Before, a missing API key passed every dry run and estimate (exit 0), ``-M`` values that are not YAML were
"internal error: ParserError", and ``structured_output: bogus`` or an unknown local model failed every item
at run time (exit 3, "run the same command again").
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benger.store import open_store

from ._fuzz import TALLY, check_rejected, dump, invoke, store_copy

_FRESH = itertools.count()
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "DEEPINFRA_API_KEY")
STUB = "http://127.0.0.1:9/v1"  # nothing listens there: a call that was made would fail, not pass


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)


# --- a missing API key: every command that calls or estimates ---------------------------------------------------
# (id, arguments, the variable the message must name); {db} is a store path that must not come into being
_RELEASE = "--release={release}"
MISSING_KEYS: list[tuple[str, list[str], str]] = [
    ("run", ["run", "--model", "openai/gpt-5.4-mini", "--judge", "gpt-5.4-mini"], "OPENAI_API_KEY"),
    ("run-dry", ["run", "--system", "gpt-5.4", "--judge", "gpt-5.4-mini", "--dry-run"], "OPENAI_API_KEY"),
    ("run-dry-judge", ["run", "--model", "openai-compatible/m", "--model-base-url", STUB,
                       "--judge", "claude-opus-4-7", "--dry-run"], "ANTHROPIC_API_KEY"),
    ("generate", ["generate", "--system", "DeepSeek-V4-Pro"], "DEEPINFRA_API_KEY"),
    ("generate-dry", ["generate", "--model", "google/gemini-3.1-pro-preview", "--dry-run"], "GEMINI_API_KEY"),
    ("judge", ["judge", "--judge-model", "anthropic/claude-opus-4-7"], "ANTHROPIC_API_KEY"),
    ("judge-dry", ["judge", "--judge", "Qwen3.5-397B-A17B", "--dry-run"], "DEEPINFRA_API_KEY"),
    ("estimate", ["estimate", "--model", "openai/gpt-5.4-mini", "--judge", "gpt-5.4-mini"], "OPENAI_API_KEY"),
    ("estimate-generate", ["estimate", "--system", "claude-sonnet-4-6", "--stage", "generate"],
     "ANTHROPIC_API_KEY"),
    ("estimate-judge", ["estimate", "--judge-model", "openai/gpt-5.4-mini", "--stage", "judge"], "OPENAI_API_KEY"),
    ("estimate-key-env", ["estimate", "--model", "openai-compatible/m", "--model-base-url", "https://h.example/v1",
                          "-M", "api_key_env=MY_GATEWAY_KEY", "--stage", "generate"], "MY_GATEWAY_KEY"),
    ("validate-judge-dry", ["validate-judge", "--judge", "gpt-5.4-mini", "--dry-run", _RELEASE], "OPENAI_API_KEY"),
    ("validate-judge", ["validate-judge", "--judge-model", "openai/gpt-5.4-mini", "--limit", "1", _RELEASE],
     "OPENAI_API_KEY"),
    ("validate-judge-corpus", ["validate-judge", "--judge", "claude-opus-4-7", "--corpus", "mine"],
     "ANTHROPIC_API_KEY"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "variable"), [c[1:] for c in MISSING_KEYS], ids=[c[0] for c in MISSING_KEYS])
def test_a_missing_api_key_is_named_before_any_store_work(
    tmp_path: Path, release_dir: Path, no_keys: None, args: list[str], variable: str
) -> None:
    """A real run refuses a missing key before it touches a store; an estimate or a dry run calls nothing, needs no
    key and names the one a real run will need (tests/cli/test_estimate_without_keys.py)."""
    db = tmp_path / "new.db"
    judges_only = args[0] == "judge" or args[-2:] == ["--stage", "judge"]
    if judges_only:  # judging reads stored generations: it needs a store (tests/cli/test_not_a_store.py)
        open_store(db).close()
    filled = [a.replace("{release}", str(release_dir)) for a in args]
    result = invoke([*filled, "--db", str(db)])
    if "--dry-run" in args or args[0] == "estimate":
        assert result.exit_code == 0, result.output
        assert "API keys: not set here, a real run needs" in result.output and variable in result.output
    else:
        check_rejected(result, [variable])
        assert f"set the environment variable {variable}" in result.output, result.output
    if not judges_only:  # validate-judge --dry-run too (tests/cli/test_validate_judge_dry_run.py)
        assert not db.exists(), "a store file was left"


@pytest.mark.parametrize(
    "command",
    [
        ["run", "--system", "gpt-5.4", "--judge", "gpt-5.4-mini"],
        ["generate", "--system", "gpt-5.4"],
        ["judge", "--system", "gpt-5.4", "--judge", "gpt-5.4-mini"],
    ],
)
def test_a_missing_key_leaves_an_existing_store_unchanged(
    demo_store: Path, tmp_path: Path, no_keys: None, command: list[str]
) -> None:
    """A real run refuses a missing key before it touches the store (an estimate calls nothing and needs none:
    tests/cli/test_estimate_without_keys.py)."""
    store = store_copy(demo_store, tmp_path / "s")
    before = dump(store)
    result = invoke([*command, "--db", str(store)])
    check_rejected(result, ["OPENAI_API_KEY"], store, before)


def test_a_model_the_stages_do_not_call_needs_no_key(demo_store: Path, tmp_path: Path, no_keys: None) -> None:
    """judge: the config's systems only select stored generations; their keys are not needed."""
    store = store_copy(demo_store, tmp_path / "s")
    result = invoke(["estimate", "--system", "gpt-5.4", "--judge", "smollm2-135m", "--stage", "judge",
                     "--db", str(store)])  # fmt: skip
    assert result.exit_code == 0, result.output


# --- -M KEY=VALUE whose value is not YAML -------------------------------------------------------------------------
def _not_yaml(text: str) -> bool:
    try:
        yaml.safe_load(text)
    except yaml.YAMLError:
        return True
    return False


_BROKEN = st.one_of(
    st.sampled_from(["[", "{a: b", "a: b: c", "@x", "*x", "`x", "!!python/object:os.system x", "[1, 2", "'open"]),
    st.text("[]{}:,'\"@`*&!|> -abc", min_size=1, max_size=10),
).filter(_not_yaml)


@SETTINGS
@given(value=_BROKEN, key=st.sampled_from(["temperature", "top_p", "stop", "structured_output", "note"]))
def test_model_arguments_that_are_not_yaml(tmp_path: Path, key: str, value: str) -> None:
    db = tmp_path / f"n{next(_FRESH)}.db"
    for args, flag in (
        (["generate", "--model", "openai-compatible/m", "--model-base-url", STUB, "-M", f"{key}={value}"], "-M"),
        (["judge", "--judge-model", "local/smollm2-135m", "--judge-model-arg", f"{key}={value}"], "--judge-model-arg"),
    ):
        result = invoke([*args, "--db", str(db)])
        check_rejected(result, [f"field '{flag}'"])
        assert "the value is not YAML" in result.output and f"{key}={value}" in result.output, result.output
        assert not db.exists()


# --- parameter values a provider does not take, and unknown local models ----------------------------------------------
# (provider, model, the structured_output values it takes): a config line with any other value is refused at load
_PROVIDERS = [
    ("openai", "m", ("json_schema", "json_object_schema", "json_object", "prompt", "none")),
    ("openai-compatible", "m", ("json_schema", "json_object_schema", "json_object", "prompt", "none")),
    ("litellm", "openai/m", ("json_schema", "json_object_schema", "json_object", "prompt", "none")),
    ("anthropic", "m", ("tool", "none")),
    ("google", "m", ("json_schema", "none")),
    ("local", "smollm2-135m", ("grammar", "fill", "none")),
]
_WORDS = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)


@SETTINGS
@given(which=st.sampled_from(_PROVIDERS), mode=st.one_of(_WORDS, st.sampled_from(["tool", "grammar", "fill"])))
def test_structured_output_values_the_provider_does_not_take(
    tmp_path: Path, which: tuple[str, str, tuple[str, ...]], mode: str
) -> None:
    provider, model, allowed = which
    if mode in allowed:
        TALLY["still valid"] += 1
        return
    config = tmp_path / f"run{next(_FRESH)}.yaml"
    config.write_text(
        f"corpora: [demo]\nsystems:\n  - name: s\n    provider: {provider}\n    model: {model}\n"
        f"    base_url: {STUB}\n    params:\n      structured_output: {json.dumps(mode)}\n",
        encoding="utf-8",
    )
    db = tmp_path / "new.db"
    result = invoke(["generate", str(config), "--db", str(db), "--quiet"])
    check_rejected(result, [f"{config.name}:8", "field 'systems[0].params.structured_output'"])
    assert f"is not one of {', '.join(allowed)}" in result.output, result.output
    assert not db.exists()


@SETTINGS
@given(name=st.text("abcdefghijklmnopqrstuvwxyz0123456789.-", min_size=1, max_size=20))
def test_unknown_local_models(tmp_path: Path, name: str) -> None:
    from benger.llm import LOCAL_MODELS

    if name in LOCAL_MODELS or name in {a for s in LOCAL_MODELS.values() for a in s.aliases} or name.endswith(".gguf"):
        TALLY["still valid"] += 1
        return
    config = tmp_path / f"run{next(_FRESH)}.yaml"
    config.write_text(f"corpora: [demo]\nsystems: [smollm2-135m]\njudges:\n  - {{name: j, provider: local, "
                      f"model: {json.dumps(name)}}}\n", encoding="utf-8")  # fmt: skip
    db = tmp_path / "new.db"
    from_file = invoke(["run", str(config), "--db", str(db), "--quiet"])
    check_rejected(from_file, [f"{config.name}:4", "field 'judges[0].model'"])
    on_the_line = invoke(["generate", "--model", f"local/{name}", "--db", str(db), "--quiet"])
    check_rejected(on_the_line, ["field '--model'"])
    for result in (from_file, on_the_line):
        assert f"unknown local model {name!r}; known: smollm2-135m" in result.output, result.output
    assert not db.exists()


# --- --model-base-url that is no URL ----------------------------------------------------------------------------------
_BAD_URLS = st.one_of(
    st.sampled_from(["htp:/", "http:/", "http://", "localhost:8080/v1", "ftp://h/v1", "http//h", "://h", "h t t p"]),
    st.text("abc:/.", min_size=1, max_size=12).filter(lambda u: not u.startswith(("http://", "https://"))),
)


@SETTINGS
@given(url=_BAD_URLS, judge=st.booleans())
def test_malformed_model_base_urls(tmp_path: Path, url: str, judge: bool) -> None:
    db = tmp_path / f"n{next(_FRESH)}.db"
    flag = "--judge-model-base-url" if judge else "--model-base-url"
    model = "--judge-model" if judge else "--model"
    command = "judge" if judge else "generate"
    result = invoke([command, model, "openai-compatible/m", flag, url, "--db", str(db)])
    check_rejected(result, [f"field '{flag}'"])
    assert "is not a valid http:// or https:// URL with a host" in result.output, result.output
    assert not db.exists()
