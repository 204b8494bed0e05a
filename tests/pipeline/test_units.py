"""Generation prompts, output parsing, unit keys and run-config errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benger.errors import InputError
from benger.judge import MalformedOutput
from benger.pipeline import (
    GenerationUnit,
    PromptSet,
    endpoint_limit,
    load_run_config,
    parse_generation,
    pipeline_config_hash,
)
from benger.schema import FalloesungTask, PrincipleItem, SystemConfig, stable_hash

FALL = FalloesungTask(task_id="f", corpus="c", area="Strafrecht", facts="A schlägt B.", reference="§ 223 StGB")
GP = PrincipleItem(task_id="g", corpus="c", area="Zivilrecht", case="K kauft.", question="Wirksam?",
                   gold_answer="Ja", gold_reasoning="§ 433 BGB")  # fmt: skip


def test_prompts_carry_the_task_and_instructions() -> None:
    system, user = PromptSet().generation_messages(FALL)
    assert system.role == "system" and user.role == "user"
    assert "A schlägt B." in user.content and "Strafrecht" in user.content
    for needle in ("Obersatz", "aa)", "§ 823 Abs. 1 BGB", '"loesung"'):
        assert needle in user.content
    _, gp_user = PromptSet().generation_messages(GP)
    assert "Wirksam?" in gp_user.content and '"antwort"' in gp_user.content


def test_prompt_override_by_path_changes_the_hash(tmp_path: Path) -> None:
    custom = tmp_path / "user.j2"
    custom.write_text("Löse: {{ facts }}", encoding="utf-8")
    default, overridden = PromptSet(), PromptSet(overrides={"falloesung_user": str(custom)})
    assert overridden.generation_messages(FALL)[1].content == "Löse: A schlägt B."
    assert default.hash_for("falloesung") != overridden.hash_for("falloesung")
    assert default.hash_for("grundprinzip") == overridden.hash_for("grundprinzip")  # other kinds keep their work
    system = SystemConfig(name="s", provider="local", model="m")
    unit = GenerationUnit(task_id="f", system=system)
    assert unit.key(default.hash_for("falloesung")) != unit.key(overridden.hash_for("falloesung"))
    assert pipeline_config_hash(system.model_copy(update={"name": "renamed"}), "p") == pipeline_config_hash(system, "p")
    assert GenerationUnit.model_validate_json(unit.model_dump_json()) == unit  # serialisable for a worker
    with pytest.raises(InputError, match="unknown prompt template 'nope'"):
        PromptSet(overrides={"nope": str(custom)})


def test_parse_generation_outcomes() -> None:
    body = json.dumps({"loesung": "A. Strafbarkeit des A"}, ensure_ascii=False)
    assert parse_generation(f"```json\n{body}\n```", FALL) == ("A. Strafbarkeit des A", None)
    assert parse_generation('{"antwort": "nein.", "begruendung": "Weil."}', GP) == ("Weil.", "Nein")
    with pytest.raises(MalformedOutput, match="'antwort' is 'Vielleicht'"):
        parse_generation('{"antwort": "Vielleicht", "begruendung": "x"}', GP)
    with pytest.raises(MalformedOutput, match="'loesung' missing or empty"):
        parse_generation('{"text": "x"}', FALL)
    # a reply cut off by the token limit keeps its partial solution
    cut = '{"loesung": "A. Strafbarkeit\\n\\nI. Tatbestand des § 223'
    assert parse_generation(cut, FALL, truncated=True) == ("A. Strafbarkeit\n\nI. Tatbestand des § 223", None)
    with pytest.raises(MalformedOutput):
        parse_generation(cut, FALL, truncated=False)


def test_plain_text_falloesung_format() -> None:
    reply = "A. Strafbarkeit des A gemäß § 223 Abs. 1 StGB\n\nA könnte sich strafbar gemacht haben."
    assert parse_generation(reply, FALL, plain_text=True) == (reply, None)
    with pytest.raises(MalformedOutput, match="empty reply"):
        parse_generation("   ", FALL, plain_text=True)
    text_prompts = PromptSet(falloesung_format="text")
    assert text_prompts.schema_for(FALL) is None and text_prompts.schema_for(GP) is not None
    assert text_prompts.hash_for("falloesung") != PromptSet().hash_for("falloesung")


def test_run_config_errors_name_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("corpora: [demo]\nsystems: [x]\nconcurrency: 0\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_run_config(bad)
    assert str(bad) in str(info.value) and "field 'concurrency'" in str(info.value)
    inline = tmp_path / "inline.yaml"
    inline.write_text("corpora: [demo]\nsystems:\n  - {name: s, model: m}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"field 'systems\[0\]\.provider'"):
        load_run_config(inline).resolved_systems()
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text("corpora: [demo]\nsystems: [no-such-model]\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"field 'systems\[0\]'.*unknown system 'no-such-model'"):
        load_run_config(unknown).resolved_systems()


def test_examples_parse() -> None:
    root = Path(__file__).resolve().parents[2] / "examples"
    for name in ("demo.yaml", "stub.yaml", "paper-systems.yaml"):
        config = load_run_config(root / name)
        assert config.resolved_systems()
        assert config.resolved_judges()


def test_plain_progress_lines() -> None:
    import io

    from rich.console import Console

    from benger.pipeline import ProgressReporter, RunStats

    buffer = io.StringIO()
    reporter = ProgressReporter(Console(file=buffer, force_terminal=False, width=200), plain_every_s=0.0)
    stats = RunStats(label="generate", total=2)
    reporter.start(stats)
    assert reporter.needs_heartbeat
    stats.record("ok", 100, 250, 0.002)
    reporter.update()
    stats.record("excluded", 50, 20, None)
    reporter.update()
    reporter.stop()
    lines = buffer.getvalue().splitlines()
    assert lines[0] == "generate: 2 items to do"
    assert lines[1].startswith("generate: 1/2, ") and "ETA" in lines[1] and "tok 100/250" in lines[1]
    assert "excluded=1 ok=1" in lines[2]
    assert lines[-1].startswith("generate: 2/2 (excluded 1, ok 1); tokens in 150 / out 270; cost $0.0020")


def test_prompt_options_round_trip_and_keys() -> None:
    from benger.judge import grundprinzipien_rubric

    prompts = PromptSet(falloesung_format="text", judge_score_enum=True)
    assert PromptSet.from_options(prompts.options()) == prompts
    with pytest.raises(InputError, match="unknown prompt option 'judge_brevity'"):
        PromptSet.from_options({"overrides": {}, "judge_brevity": True})
    system = SystemConfig(name="s", provider="openai", model="m")
    assert prompts.generation_config_hash(system, "falloesung") == pipeline_config_hash(
        system, prompts.hash_for("falloesung")
    )
    rubric = grundprinzipien_rubric()
    # the judge key covers the options: score_enum on -> hash of [template hash, [True, None, False]]
    template_hash = prompts.judge_template(rubric.name).hash
    expected = pipeline_config_hash(system, stable_hash([template_hash, [True, None, False]]))
    assert prompts.judge_config_hash(system, rubric) == expected
    assert PromptSet().judge_config_hash(system, rubric) == pipeline_config_hash(system, template_hash)


def test_endpoint_limit_rule() -> None:
    remote = SystemConfig(name="r", provider="openai", model="m")
    assert endpoint_limit(remote, 64).max_concurrency == 64  # run asks for more than the default 32
    assert endpoint_limit(remote, 8).max_concurrency is None  # below the default: the default stays
    capped = remote.model_copy(update={"max_concurrency": 4})
    assert endpoint_limit(capped, 64).max_concurrency == 4  # an explicit cap is kept
    local = SystemConfig(name="l", provider="local", model="qwen2.5-0.5b-instruct")
    assert endpoint_limit(local, 64).max_concurrency is None  # one in-process llama.cpp instance
    assert endpoint_limit(remote, 64).config_hash() == remote.config_hash()  # not part of the work key


# --- issue 11: generation replies read through the one reader -------------------------------------------------
def test_parse_generation_reads_the_final_object() -> None:
    from benger.llm import AmbiguousOutput

    draft = json.dumps({"antwort": "Ja", "begruendung": "Entwurf."})
    final = json.dumps({"antwort": "Nein", "begruendung": "Keine Annahme."})
    assert parse_generation(f"<think>{draft}</think>{final}", GP) == ("Keine Annahme.", "Nein")
    assert parse_generation(final, GP, reasoning=f"Vorher: {draft}") == ("Keine Annahme.", "Nein")
    assert parse_generation(f"{draft}\nKorrektur:\n{final}", GP) == ("Keine Annahme.", "Nein")
    with pytest.raises(AmbiguousOutput, match="ambiguous: 2 different valid JSON objects"):
        parse_generation(f"{draft}\n{final}", GP)
    # the prompt's own format example echoed back is never the Falllösung
    _, user = PromptSet().generation_messages(FALL)
    echo = '{"loesung": "<die vollständige Falllösung als Text>"}'
    assert echo in user.content
    with pytest.raises(MalformedOutput, match="quoted from the prompt"):
        parse_generation(echo, FALL, quoted=[user.content])
    with pytest.raises(MalformedOutput, match="format echo: placeholder"):
        parse_generation(echo, FALL)  # the same object is a placeholder echo even without the prompt
    body = json.dumps({"loesung": "A. Strafbarkeit des A"}, ensure_ascii=False)
    assert parse_generation(f"{echo}\n{body}", FALL, quoted=[user.content]) == ("A. Strafbarkeit des A", None)
    assert parse_generation("<think>Gliederung</think>A. Gutachten", FALL, plain_text=True) == ("A. Gutachten", None)


@pytest.mark.parametrize(
    ("output_tokens", "reasoning_tokens", "text", "reasoning", "expected"),
    [
        (300, None, "x" * 10, None, 300),  # no reasoning: all output tokens
        (300, 250, "x" * 10, "y" * 10, 50),  # the provider's reasoning count is subtracted
        (300, None, "<think>" + "y" * 30 + "</think>" + "x" * 10, None, 75),  # 300 x 10 / (10 + 30)
        (300, None, "x" * 20, "y" * 20, 150),  # a reasoning field: 300 x 20 / 40
    ],
)
def test_answer_tokens_leave_reasoning_out(
    output_tokens: int, reasoning_tokens: int | None, text: str, reasoning: str | None, expected: int
) -> None:
    from benger.llm import ChatResponse, Usage
    from benger.pipeline._reading import answer_tokens

    usage = Usage(output_tokens=output_tokens, reasoning_tokens=reasoning_tokens)
    assert answer_tokens(ChatResponse(text=text, reasoning=reasoning, usage=usage)) == expected
