"""The run set-up form: what it holds becomes exactly a run config (``benger.pipeline.RunConfig``), checked by
the CLI's own loader, so the YAML downloaded from the browser is the file ``benger run`` takes and a YAML
uploaded there gets the messages ``benger run`` prints.

A config from the browser may name only what the server may hand out: corpora of the organisation (by name,
never a file path), registered rubrics (by name: :data:`benger.judge.RUBRICS`) or a rubric written out in the
config (inline: how an organisation's uploaded rubric travels, so the CLI runs the downloaded file as it is and
workers judge with exactly that content), built-in prompt templates
(prompt options, no template files), no ``db`` of its own, and API keys by name (``OPENAI_API_KEY``:
:data:`benger.llm._keys.KEY_NAME`), which the run finds among the organisation's stored keys or in the worker's
environment.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from benger._yaml import load_yaml
from benger.errors import ConfigError, InputError
from benger.judge import RUBRICS, Rubric, rubric_data
from benger.llm._keys import KEY_NAME
from benger.pipeline import RunConfig
from benger.pipeline._config import dump_run_config, parse_run_config


def web_rubrics() -> tuple[str, ...]:
    """The rubrics a run from the browser may name: every registered one (the paper's two, plugins')."""
    return RUBRICS.names()


#: Rows of the form for systems / judges on an OpenAI-compatible endpoint.
ENDPOINT_ROWS = {"system": 2, "judge": 1}


def parse_web_config(text: str, name: str = "run.yaml", corpora: Collection[str] | None = None) -> RunConfig:
    """A run config from YAML ``text`` that a browser may launch: first the browser's own rules on the raw
    data (:func:`check_web_data`: before the loader reads any file a config names), then the CLI's loader and
    its messages; ``corpora``: the corpus names the organisation may use (None: not checked again)."""
    check_web_data(load_yaml(text, name), corpora, source=name)
    return parse_run_config(text, Path(name))


def check_web_data(data: Any, corpora: Collection[str] | None, *, source: str = "run.yaml") -> None:
    """InputError (naming the field) for what a config from the browser may not hold: its own ``db``, prompt
    template files, rubric files, corpora that are not the organisation's (paths or sources), key names that
    are not API key names, inline local models (files on the server)."""

    def refuse(message: str, field: str) -> InputError:
        return InputError(message, file=source, field=field)

    if not isinstance(data, dict):
        return  # the CLI's loader says what is wrong
    if data.get("db") is not None:
        raise refuse("a run from the browser uses the server's store: remove db", "db")
    if data.get("prompts"):
        raise refuse("a run from the browser uses the built-in prompt templates: remove prompts", "prompts")
    rubrics = data.get("rubrics") or {}
    for corpus, rubric in rubrics.items() if isinstance(rubrics, dict) else []:
        if not isinstance(rubric, dict) and rubric not in RUBRICS:  # a mapping is the rubric itself, no file
            raise refuse(f"choose a registered rubric ({', '.join(web_rubrics())}) or write the rubric out",
                         f"rubrics.{corpus}")  # fmt: skip
    chosen = data.get("corpora") or []
    if not chosen:
        raise refuse("choose at least one corpus", "corpora")
    for i, corpus in enumerate(chosen if isinstance(chosen, list) else [chosen]):
        if corpora is not None and corpus not in corpora:
            raise refuse(f"{corpus!r} is not a corpus of this organisation", f"corpora[{i}]")
    if not data.get("systems") and not data.get("judges"):
        raise refuse("choose at least one system or judge", "systems")
    for section in ("systems", "judges"):
        specs = data.get(section) or []
        for i, spec in enumerate(specs if isinstance(specs, list) else []):
            if not isinstance(spec, dict):
                continue
            env = spec.get("api_key_env")
            if env is not None and not KEY_NAME.fullmatch(str(env)):
                raise refuse(f"{env!r} is not an API key name (capitals, ending in _API_KEY)", f"{section}[{i}]")
            if spec.get("provider") == "local":
                raise refuse("a local model runs from the browser by its catalog name only", f"{section}[{i}]")


def _int(form: Mapping[str, Any], name: str, default: int | None) -> int | None:
    raw = str(form.get(name) or "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()):  # str.isdigit alone takes '²', which int() refuses
        raise InputError(f"{raw!r} is not a whole number of 0 or more", field=name)
    return int(raw)


def _float(form: Mapping[str, Any], name: str) -> float | None:
    raw = str(form.get(name) or "").strip().replace(",", ".")
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise InputError(f"{raw!r} is not a number", field=name) from None
    if not math.isfinite(value) or value < 0:
        raise InputError(f"{raw!r} is not an amount >= 0", field=name)
    return value


def _endpoints(form: Any, kind: str) -> list[dict[str, Any]]:
    """The filled rows ``{kind}_url`` / ``{kind}_model`` / ``{kind}_key`` as inline SystemConfig mappings."""
    urls, models, keys = (form.getlist(f"{kind}_{part}") for part in ("url", "model", "key"))
    specs = []
    for i, (url, model) in enumerate(zip(urls, models, strict=False)):
        url, model = str(url).strip(), str(model).strip()
        if not url and not model:
            continue
        if not url or not model:
            raise InputError("an endpoint needs its base URL and its model", field=f"{kind}_url[{i}]")
        spec: dict[str, Any] = {"name": model, "provider": "openai-compatible", "model": model, "base_url": url}
        key = str(keys[i]).strip() if i < len(keys) else ""
        if key:
            spec["api_key_env"] = key
        specs.append(spec)
    return specs


RubricChoice = str | Rubric  # a registered rubric's name, or an uploaded rubric's content


def rubric_spec(choice: RubricChoice) -> str | dict[str, Any]:
    """A run config's ``rubrics:`` value of a choice: a registered name as it is, an uploaded rubric inline."""
    return choice if isinstance(choice, str) else rubric_data(choice)


def config_from_form(
    form: Any,
    corpora: Collection[str],
    attached: Mapping[str, RubricChoice | None] | None = None,
    rubric: RubricChoice | None = None,
) -> RunConfig:
    """The RunConfig the set-up form describes, checked as ``benger run`` checks a file. ``rubric``: the form's
    choice (resolved by the organisation's scope: a registered name or one of its uploaded rubrics), for every
    chosen corpus; without it each corpus's ``attached`` rubric (chosen on its page), else its tasks' kind decides.
    An uploaded rubric goes into the config inline, so the downloaded YAML runs under ``benger run`` unchanged."""
    chosen = [str(c) for c in form.getlist("corpora")]
    data: dict[str, Any] = {
        "name": str(form.get("name") or "").strip() or "run",
        "corpora": chosen,
        "systems": [*(str(s) for s in form.getlist("systems")), *_endpoints(form, "system")],
        "judges": [*(str(j) for j in form.getlist("judges")), *_endpoints(form, "judge")],
        "repeats": _int(form, "repeats", 1),
        "concurrency": _int(form, "concurrency", 8),
        "falloesung_format": str(form.get("falloesung_format") or "json"),
        "judge_brief": form.get("judge_brief") == "1",
        "judge_score_enum": form.get("judge_score_enum") == "1",
    }
    repetitions = _int(form, "repetitions", None)
    if repetitions is not None:
        data["repetitions"] = repetitions
    limit = _int(form, "limit", None)
    if limit is not None:
        data["filters"] = {"limit": limit}
    if rubric is not None:
        data["rubrics"] = {c: rubric_spec(rubric) for c in chosen}
    elif any((attached or {}).get(c) is not None for c in chosen):
        data["rubrics"] = {c: rubric_spec(r) for c in chosen if (r := (attached or {}).get(c)) is not None}
    budget = {"max_cost": _float(form, "max_cost"), "max_tokens": _int(form, "max_tokens", None)}
    if any(v is not None for v in budget.values()):
        data["budget"] = {k: v for k, v in budget.items() if v is not None}
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(p) for p in error["loc"])
        raise InputError(str(error["msg"]).removeprefix("Value error, "), field=field) from None
    # through the browser's rules and the CLI's loader: the same checks and messages as a file
    return parse_web_config(dump_run_config(config), "run.yaml", corpora)


def config_text(config: RunConfig) -> str:
    return dump_run_config(config)


def estimate(config: RunConfig, store: Any) -> Any:
    """``benger estimate``'s dry run of ``config`` (after resume; the release's observations when
    ``BENGER_RELEASE`` names it, as for the CLI)."""
    from benger.pipeline._estimate import Observed, estimate_run

    release = os.environ.get("BENGER_RELEASE")
    try:
        observed = Observed.from_release(release) if release else None
    except (InputError, ConfigError, OSError):
        observed = None
    return estimate_run(config, store, observed=observed)
