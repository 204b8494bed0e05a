"""Context windows: how many tokens of prompt + reply a system takes, from its config or from its server.

In this order (the first that answers wins; :func:`context_window` returns the window and where it came from):

1. ``context_window`` of the system's config (catalog or run config, ``-M context_window=8192``);
2. ``params.n_ctx`` of a local llama.cpp model (the window benger opens it with; default 8192);
3. the server of an OpenAI-compatible system, asked once per process and endpoint (base URL + model):
   ``GET /v1/models`` (vLLM ``max_model_len``, LM Studio/OpenRouter ``context_length``, llama-cpp-python
   ``meta.n_ctx_train`` is *not* used: it is the training length, not the served one), llama.cpp's
   ``GET /props`` (``default_generation_settings.n_ctx``) and ``GET /slots`` (``n_ctx``), Ollama's
   ``POST /api/show`` (``model_info.*.context_length``, or ``num_ctx`` in its parameters);
4. otherwise unknown (None): nothing is predicted or skipped.
"""

from __future__ import annotations

import threading
from typing import Any

from benger.schema import SystemConfig

DEFAULT_LOCAL_N_CTX = 8192
PROBE_TIMEOUT_S = 3.0

_lock = threading.Lock()
_probed: dict[tuple[str, str], tuple[int | None, str]] = {}


def context_window(system: SystemConfig) -> tuple[int | None, str]:
    """(tokens, source) of ``system``'s context window; (None, "unknown") when nothing says."""
    if system.context_window is not None:
        return system.context_window, "config"
    if system.provider == "local":
        value = system.params.get("n_ctx", DEFAULT_LOCAL_N_CTX)
        return int(value), "params.n_ctx"
    if system.provider in ("openai-compatible", "litellm") and system.base_url:
        key = (system.base_url.rstrip("/"), system.model)
        with _lock:
            known = _probed.get(key)
        if known is None:
            known = probe_server(*key)
            with _lock:
                _probed[key] = known
        return known
    return None, "unknown"


def forget_probes() -> None:
    """Forget what servers said (tests; a long process whose servers were restarted with other windows)."""
    with _lock:
        _probed.clear()


def _number(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else None


def _from_models(data: Any, model: str) -> int | None:
    entries = data.get("data") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return None
    mine = [e for e in entries if isinstance(e, dict) and e.get("id") == model] or (
        entries if len(entries) == 1 else []
    )
    for entry in mine:
        for key in ("max_model_len", "context_length", "context_window", "max_context_length"):
            if (found := _number(entry.get(key))) is not None:
                return found
    return None


def _from_props(data: Any) -> int | None:
    if isinstance(data, list):  # /slots
        return next((n for slot in data if isinstance(slot, dict) and (n := _number(slot.get("n_ctx")))), None)
    if not isinstance(data, dict):
        return None
    settings = data.get("default_generation_settings")
    return _number((settings or {}).get("n_ctx") if isinstance(settings, dict) else None) or _number(data.get("n_ctx"))


def _from_ollama(data: Any) -> int | None:
    if not isinstance(data, dict):
        return None
    info = data.get("model_info")
    if isinstance(info, dict):
        for key, value in info.items():
            if key.endswith(".context_length") and (found := _number(value)) is not None:
                return found
    for line in str(data.get("parameters") or "").splitlines():
        name, _, value = line.partition(" ")
        if name == "num_ctx" and value.strip().isdigit():
            return int(value.strip())
    return None


def probe_server(base_url: str, model: str) -> tuple[int | None, str]:
    """Ask an OpenAI-compatible server for the context window of ``model`` (module docstring, step 3)."""
    import httpx

    root = base_url[: -len("/v1")] if base_url.endswith("/v1") else base_url
    probes: list[tuple[str, str, Any]] = [
        ("GET", f"{base_url}/models", lambda d: _from_models(d, model)),
        ("GET", f"{root}/props", _from_props),
        ("GET", f"{root}/slots", _from_props),
        ("POST", f"{root}/api/show", _from_ollama),
    ]
    try:
        with httpx.Client(timeout=PROBE_TIMEOUT_S) as client:
            for method, url, read in probes:
                try:
                    response = client.request(method, url, json={"model": model} if method == "POST" else None)
                    if response.status_code != 200:
                        continue
                    found = read(response.json())
                except (httpx.ConnectError, httpx.TimeoutException):
                    break  # no server there (yet): nothing else will answer either
                except (httpx.HTTPError, ValueError):
                    continue
                if found is not None:
                    return found, f"server ({url.rsplit('/', 1)[-1]})"
    except httpx.HTTPError:
        pass
    return None, "unknown"
