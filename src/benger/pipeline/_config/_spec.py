"""The run-config entry of ``--model PROVIDER/MODEL`` (``--judge-model``) and its command-line settings."""

from __future__ import annotations

from typing import Any

import yaml

from benger.errors import ConfigError, InputError
from benger.pipeline._config._models import SystemSpec, validated_system
from benger.schema import SystemConfig


def model_spec(model: str, *, base_url: str | None = None, args: list[str] | None = None, judge: bool = False,
               option: str = "--model") -> SystemSpec:  # fmt: skip
    """The run-config entry (``systems:`` / ``judges:``) of ``--model PROVIDER/MODEL`` (or a catalog name) with
    ``--model-base-url`` and ``-M KEY=VALUE`` arguments: exactly what the same lines of a YAML file would give.

    ``KEY`` is a SystemConfig field (``temperature``, ``max_output_tokens``, ``seed``, ``context_window``,
    ``api_key_env``, ``requests_per_minute``, prices, ...) or else a provider parameter (``params.KEY``);
    ``VALUE`` is read as a YAML scalar (``0.2`` a number, ``true`` a boolean). A catalog name (``gpt-5.4``,
    ``qwen2.5-coder-0.5b-instruct``) or ``PROVIDER/NAME`` of a catalog entry of that provider starts from the entry.
    InputError naming the option for an unknown provider or a malformed argument.
    """
    from benger.llm import load_catalog, provider_spec, registered_providers

    catalog = load_catalog()
    find = catalog.judge if judge else catalog.system
    provider, sep, name = model.partition("/")
    entry: dict[str, Any] | None = None
    if not sep:
        try:
            entry = find(model).model_dump(exclude_defaults=True)
        except ConfigError as exc:
            raise InputError(
                f"{exc}; or name a model as PROVIDER/MODEL, e.g. openai/gpt-5.4-mini", field=option
            ) from None
    else:
        spec = provider_spec(provider)
        if spec is None:
            known = ", ".join(registered_providers())
            raise InputError(f"unknown provider {provider!r} in {model!r}; known: {known}", field=option)
        if not name:
            raise InputError(f"{model!r} names no model after the provider", field=option)
        try:
            found = find(name)
        except ConfigError:
            found = None
        if found is not None and found.provider == spec.name:
            entry = found.model_dump(exclude_defaults=True)
        else:
            entry = {"name": model, "provider": spec.name, "model": name}
    base_flag, arg_flag = ("--judge-model-base-url", "--judge-model-arg") if judge else ("--model-base-url", "-M")
    if base_url is not None:
        entry["base_url"] = base_url
    params: dict[str, Any] = dict(entry.get("params") or {})
    for item in args or []:
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise InputError(f"expected KEY=VALUE, got {item!r}", field=arg_flag)
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or "not YAML"
            raise InputError(
                f"{key}={raw}: the value is not YAML ({problem}); write a text value in quotes, e.g. "
                f"{arg_flag} '{key}=\"...\"'",
                field=arg_flag,
            ) from None
        if key in SystemConfig.model_fields and key not in ("name", "params"):
            entry[key] = value
        else:
            params[key.removeprefix("params.")] = value
    if params:
        entry["params"] = params
    try:  # checked here, so that the message names the option that gave the value
        validated_system(entry)
    except InputError as exc:
        field = exc.field or ""
        flag = base_flag if field == "base_url" and base_url is not None else option
        if field not in ("", "provider", "model", "name", "base_url"):
            flag = f"{arg_flag} {field.removeprefix('params.')}"
        elif not field and args:  # a check of the whole system (temperature range): the settings gave it
            flag = arg_flag
        raise InputError(exc.reason, field=flag) from None
    return entry
