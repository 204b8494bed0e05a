"""The model catalog: the paper's 12 systems and 6 judges with their decoding settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benger.errors import ConfigError
from benger.llm import load_catalog


def test_builtin_catalog_has_the_papers_systems_and_judges() -> None:
    catalog = load_catalog()
    assert len(catalog.systems) == 12
    assert len(catalog.judges) == 6
    local = {s.name for s in catalog.local}
    assert local == {"qwen2.5-coder-0.5b-instruct", "qwen2.5-coder-1.5b-instruct", "smollm2-135m"}
    gpt = catalog.system("gpt-5.4")
    assert (gpt.temperature, gpt.max_output_tokens, gpt.provider, gpt.tier) == (0.5, 16000, "openai", "flagship")
    qwen = catalog.system("Qwen3-235B")  # the paper's alias works too
    assert (qwen.temperature, qwen.max_output_tokens) == (0.6, 16000)
    assert qwen.model == "Qwen/Qwen3-235B-A22B-Thinking-2507"
    assert qwen.provider == "openai-compatible" and qwen.base_url == "https://api.deepinfra.com/v1/openai"
    assert qwen.api_key_env == "DEEPINFRA_API_KEY" and qwen.weights == "open"
    # Table 8: T = 0.7 for the two newer Qwen systems, 1 for Anthropic/Google/DeepSeek, 0.6 for Llama-4
    temps = {s.display_name: s.temperature for s in catalog.systems}
    assert temps["Qwen3.5-122B"] == temps["Qwen3.6-35B"] == 0.7
    assert temps["Llama-4"] == 0.6
    assert temps["Opus-4.7"] == temps["Gemini-3.1-Pro"] == temps["DeepSeek-V4-Flash"] == 1.0
    tiers = [s.tier for s in catalog.systems]
    # Table 8: Opus, Sonnet, Gemini-Pro, GPT-5.4 flagship; Flash-Lite, GPT-mini efficiency; 6 open-weight
    assert (tiers.count("flagship"), tiers.count("efficiency"), tiers.count("open_reference")) == (4, 2, 6)


# the published windows the catalog cites (its header comment names the sources), typed in by hand
WINDOWS = {
    "claude-opus-4-7": 1_000_000, "claude-sonnet-4-6": 1_000_000, "gemini-3.1-flash-lite-preview": 1_048_576,
    "gemini-3.1-pro-preview": 1_048_576, "gpt-5.4": 1_050_000, "gpt-5.4-mini": 400_000,
    "Qwen3-235B-A22B-Thinking-2507": 262_144, "Qwen3.5-122B-A10B": 262_144, "Qwen3.6-35B-A3B": 262_144,
    "DeepSeek-V4-Flash": 1_048_576, "DeepSeek-V4-Pro": 1_048_576, "Llama-4-Maverick-17B-128E-Instruct-FP8": 1_048_576,
    "Qwen3.5-397B-A17B": 262_144,
}  # fmt: skip


def test_every_api_model_of_the_paper_has_its_published_context_window() -> None:
    """Before, no API entry had one: the dry run could predict no overflow for the paper's systems and judges."""
    from benger.llm._context import context_window

    catalog = load_catalog()
    entries = [*catalog.systems, *catalog.judges]
    assert {e.name: e.context_window for e in entries} == {e.name: WINDOWS[e.name] for e in entries}
    assert context_window(catalog.judge("gpt-5.4-mini")) == (400_000, "config")  # no server asked
    # the window is no part of a system's identity: stores written before keep their config hashes
    mini = catalog.system("gpt-5.4-mini")
    assert mini.config_hash() == mini.model_copy(update={"context_window": None}).config_hash()


def test_judges_follow_table_14() -> None:
    catalog = load_catalog()
    assert all((j.temperature, j.max_output_tokens) == (1.0, 8000) for j in catalog.judges)
    assert catalog.primary_judge().model == "gpt-5.4-mini"
    assert catalog.judge("Qwen3.5-397B-A17B").model == "Qwen/Qwen3.5-397B-A17B"
    assert catalog.judge("deepseek-ai/DeepSeek-V4-Pro").name == "DeepSeek-V4-Pro"  # by model id
    # a local model can serve as judge for offline runs
    assert catalog.judge("qwen2.5-coder-0.5b-instruct").provider == "local"


def test_lookups_return_copies_and_unknown_names_list_known_ones() -> None:
    catalog = load_catalog()
    copy = catalog.system("gpt-5.4")
    copy.temperature = 0.0
    assert catalog.system("gpt-5.4").temperature == 0.5
    with pytest.raises(ConfigError, match=r"unknown system 'gpt-9'.*known: claude-opus-4-7, "):
        catalog.system("gpt-9")
    with pytest.raises(ConfigError, match="unknown judge"):
        catalog.judge("Llama-4")  # a system, not a judge


@pytest.mark.release
def test_catalog_matches_release_systems(release_dir: Path) -> None:
    release = json.loads((release_dir / "data" / "processed" / "systems.json").read_text(encoding="utf-8"))
    catalog = load_catalog()
    for entry in release:
        system = catalog.system(entry["name"])
        assert system.model.split("/")[-1] == entry["model_id"].split("/")[-1]
        assert system.max_output_tokens == entry["max_output_tokens"]
        assert system.tier == entry["tier"] and system.weights == entry["weights"]
        if system.name != "gpt-5.4":  # Table 8 says 0.5, systems.json 1.0 (noted in the catalog)
            assert system.temperature == float(entry["temperature"])
    assert "0.5" in catalog.notes["gpt-5.4"]


def test_user_catalog_and_its_errors(tmp_path: Path) -> None:
    good = tmp_path / "mine.yaml"
    good.write_text(
        "systems:\n"
        "  - {name: vllm-qwen, provider: openai-compatible, model: Qwen/Qwen3-8B,\n"
        "     base_url: 'http://127.0.0.1:8000/v1', temperature: 0.3, max_concurrency: 4}\n"
        "judges: []\n",
        encoding="utf-8",
    )
    catalog = load_catalog(good)
    assert catalog.system("vllm-qwen").max_concurrency == 4
    assert catalog.judges == []

    bad_field = tmp_path / "bad.yaml"
    bad_field.write_text("systems:\n  - {name: a, provider: openai, model: m}\n  - {name: b, model: m}\n", "utf-8")
    with pytest.raises(ConfigError, match=r"bad.yaml: systems\[1\] \(b\): field 'provider'"):
        load_catalog(bad_field)

    typo = tmp_path / "typo.yaml"
    typo.write_text("system:\n  - {name: a, provider: openai, model: m, temprature: 1}\n", "utf-8")
    with pytest.raises(ConfigError, match="unknown catalog sections"):
        load_catalog(typo)

    extra = tmp_path / "extra.yaml"
    extra.write_text("systems:\n  - {name: a, provider: openai, model: m, temprature: 1}\n", "utf-8")
    with pytest.raises(ConfigError, match="field 'temprature'"):
        load_catalog(extra)

    with pytest.raises(ConfigError, match="cannot read catalog"):
        load_catalog(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("systems: [\n", "utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_catalog(broken)


def test_yaml_parsed_once_per_content_and_every_catalog_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import benger._yaml
    import benger.llm._catalog as cat

    parses: list[str] = []
    real = benger._yaml.load_yaml  # imported by the catalog where it parses (the YAML parser loads lazily)
    monkeypatch.setattr(
        benger._yaml, "load_yaml", lambda text, source: parses.append(str(source)) or real(text, source)
    )
    cat._parsed_once.cache_clear()  # start without the parses of earlier tests
    first, second = load_catalog(), load_catalog()
    assert parses == ["benger/llm/catalog.yaml"]  # the second load reused the parsed YAML
    assert first.systems == second.systems and first.notes == second.notes and first.roles == second.roles
    first.systems[0].params["mine"] = {"nested": [1]}  # a caller's change stays in its own catalog
    first.systems.pop()
    third = load_catalog()
    assert third.systems == second.systems and "mine" not in third.systems[0].params

    path = tmp_path / "mine.yaml"
    path.write_text("systems:\n  - {name: a, provider: openai, model: m1}\njudges: []\n", "utf-8")
    assert load_catalog(path).system("a").model == "m1"
    path.write_text("systems:\n  - {name: a, provider: openai, model: m2}\njudges: []\n", "utf-8")  # same size
    assert load_catalog(path).system("a").model == "m2"  # keyed by the text, not by the file's timestamp
    assert parses == ["benger/llm/catalog.yaml", str(path), str(path)]
    path.write_text("systems: [\n", "utf-8")
    for _ in range(2):  # an error is not cached: the same message each time
        with pytest.raises(ConfigError, match="not valid YAML"):
            load_catalog(path)
