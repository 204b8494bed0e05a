"""Reading a run config file (YAML): every fault an InputError naming file, line and field; relative paths
resolved against the file's folder; the YAML text of a config (:func:`dump_run_config`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from pydantic import BaseModel, ValidationError

from benger._yaml import load_yaml
from benger.errors import InputError
from benger.pipeline._config._models import (
    BudgetCaps,
    Filters,
    LeaderboardOptions,
    RetrySettings,
    RunConfig,
    _first_error,
    _shown,
)

_SECTIONS: dict[str, type[BaseModel]] = {
    "filters": Filters,
    "leaderboard": LeaderboardOptions,
    "retry": RetrySettings,
    "budget": BudgetCaps,
}


def _yaml_line(text: str, loc: tuple[int | str, ...], *, key: bool = False) -> int | None:
    """The 1-based line of the YAML node at ``loc`` (keys and list indexes); as deep as the document goes.
    ``key``: the line of the last key of ``loc`` itself, not of its value (an unknown key ``sytems:`` on line 3,
    its list below it, was reported as line 4)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    if node is None:
        return None
    key_line: int | None = None
    for step in loc:
        key_line = None
        if isinstance(node, yaml.MappingNode) and isinstance(step, str):
            match = [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == step]
            if not match:
                break
            key_line, node = int(match[0][0].start_mark.line) + 1, match[0][1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            break
    return key_line if key and key_line is not None else int(node.start_mark.line) + 1


def _validation_error(exc: ValidationError, path: Path, text: str) -> InputError:
    errors = exc.errors()
    first = _first_error(exc)
    loc = tuple(step for step in first["loc"] if isinstance(step, int | str))
    field = "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in loc).lstrip(".") or None
    message = str(first["msg"]).removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        owner = _SECTIONS.get(str(loc[0]), RunConfig) if len(loc) > 1 else RunConfig
        known = ", ".join(name for name in owner.model_fields if name != "source")
        message = f"unknown key {loc[-1]!r}; the known keys here are: {known}"
    elif first["type"] != "missing" and "input" in first:
        message += f", got {_shown(first['input'])}"
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem(s) in this file)"
    line = _yaml_line(text, loc, key=first["type"] == "extra_forbidden")
    return InputError(message, file=path, line=line, field=field)


def load_run_config(path: str | Path) -> RunConfig:
    """Read and validate a run config before anything runs; relative paths are resolved against its folder.

    Checked here, so a bad config never reaches a paid call: the file (UTF-8, a file not a folder), the
    YAML, every key and type (unknown keys and keys given twice are errors), the systems and judges (catalog
    names or inline configs; a provider the registry knows, finite sampling settings) and the prompt
    templates (compiled once). Raises InputError naming file, line and field.
    """
    from benger.corpora._reading import read_text

    p = Path(path)
    return parse_run_config(read_text(p), p)


def dump_run_config(config: RunConfig) -> str:
    """The YAML text of ``config`` (only what differs from the defaults): ``parse_run_config`` reads it back
    to an equal config, so a config set up in the browser is the file ``benger run`` takes."""
    data = config.model_dump(mode="json", exclude_defaults=True)
    text = str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    if yaml.safe_load(text) != data:  # PyYAML writes U+0085 raw in a quoted scalar and reads it back as a space
        text = str(yaml.safe_dump(data, sort_keys=False, allow_unicode=False))  # every such character escaped
    return text


def parse_run_config(text: str, path: str | Path) -> RunConfig:
    """:func:`load_run_config` of a config's ``text`` (read from ``path``: named in messages, relative paths
    resolved against its folder)."""
    p = Path(path)
    corpus = _corpus_file(text, p)
    if corpus is not None:  # else "not valid YAML" (JSONL) or "must be a YAML mapping" (CSV), naming neither
        raise InputError(
            f"this is {corpus}, not a run config: the command expects a run config (YAML with corpora: and "
            f"systems:, see examples/); to use this corpus pass it as --corpus {p} (with --model or --system), "
            "or name it under corpora: in a run config",
            file=p,
        )
    data = load_yaml(text, p)  # InputError for bad YAML and for a key given twice (file, line, field)
    if not isinstance(data, dict):
        raise InputError("a run config must be a YAML mapping (key: value lines)", file=p, line=1)
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as exc:
        raise _validation_error(exc, p, text) from None
    except RecursionError:
        raise InputError("not a run config: a value is nested too deeply", file=p) from None
    config.source = str(p)
    config.prompts = {
        k: str((p.parent / v).resolve()) if not Path(v).is_absolute() else v for k, v in config.prompts.items()
    }
    config.corpora = [_resolve_corpus_path(spec, p.parent) for spec in config.corpora]
    from benger.judge import RUBRICS

    # a registered rubric's name (the paper's two, a plugin's) stays a name; anything else is a file path
    config.rubrics = {
        corpus: spec if isinstance(spec, dict) or spec in RUBRICS else _abs(spec, p.parent)
        for corpus, spec in config.rubrics.items()
    }
    try:
        config.resolved_rubrics()
    except InputError as exc:
        if exc.file == str(p) and exc.field:
            line = _yaml_line(text, _field_loc(exc.field))
            raise InputError(exc.reason, file=p, line=line, field=exc.field) from None
        raise
    try:
        config.resolved_systems()
        config.resolved_judges()
    except InputError as exc:
        if exc.file != str(p) or exc.line is not None or not exc.field:
            raise
        line = _yaml_line(text, _field_loc(exc.field), key=exc.reason.startswith("unknown key"))
        raise InputError(exc.reason, file=p, line=line, field=exc.field) from None
    from benger.pipeline._prompts import PROMPT_OPTIONS, PromptSet

    try:
        PromptSet(overrides=dict(config.prompts), **{name: getattr(config, name) for name in PROMPT_OPTIONS})
    except InputError as exc:
        if exc.field == "prompts" and exc.file is None:
            raise InputError(exc.reason, file=p, line=_yaml_line(text, ("prompts",)), field="prompts") from None
        raise
    return config


_JSONL = "a JSONL corpus file (one task per line)"
_CSV = "a CSV corpus file (a header row, then one task per row)"
#: the corpus file types (benger.corpora._user.SUFFIXES), by suffix
_CORPUS_SUFFIXES = {".jsonl": _JSONL, ".ndjson": _JSONL, ".csv": _CSV}


def _corpus_file(text: str, path: Path) -> str | None:
    """What the corpus file ``path`` is (its ``text`` read), or None for a file that may be a run config: a
    ``.jsonl``/``.ndjson``/``.csv`` file, or one whose first two lines are JSON objects (JSONL) or whose first
    line is a comma-separated header of at least two corpus field names (CSV). A config written as one JSON
    object (JSON is YAML) is no corpus."""
    from benger.corpora._fields import FIELD_ALIASES, column_key

    if path.suffix.lower() in _CORPUS_SUFFIXES:
        return _CORPUS_SUFFIXES[path.suffix.lower()]
    lines = [line for line in text.splitlines() if line.strip()][:2]
    if len(lines) == 2 and all(_json_object(line) for line in lines):
        return _JSONL
    names = {column_key(alias) for aliases in FIELD_ALIASES.values() for alias in aliases}
    header = lines[0].split(",") if lines and ":" not in lines[0] else []
    if sum(column_key(cell.strip().strip('"')) in names for cell in header) >= 2:
        return _CSV
    return None


def _json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def _field_loc(field: str) -> tuple[int | str, ...]:
    """``systems[1].params`` as the YAML path ``("systems", 1, "params")``."""
    return tuple(int(s[1:-1]) if s[0] == "[" else s for s in re.findall(r"\[\d+\]|[^.\[\]]+", field))


def _resolve_corpus_path(spec: str, base: Path) -> str:
    """Make file paths in corpus specs relative to the config file's folder (``SCHEME:PATH`` of a registered
    corpus reader whose argument is a path, e.g. ``zjs:PATH``, too)."""
    from benger.corpora import CORPUS_READERS

    prefix, sep, rest = spec.partition(":")
    reader = CORPUS_READERS.find(prefix) if sep and len(prefix) > 1 else None
    if reader is not None:
        return f"{prefix}:{_abs(rest, base)}" if "PATH" in reader.value.usage else spec
    if Path(spec).suffix.lower() in (".jsonl", ".csv", ".json"):
        return _abs(spec, base)
    return spec


def _abs(path: str, base: Path) -> str:
    p = Path(path.strip()).expanduser()
    return str(p if p.is_absolute() else (base / p).resolve())
