"""Which ranked entity a generation belongs to: its **system configuration**, joined across corpora (issue 10).

A generation's ``config_hash`` is ``pipeline_config_hash(system, prompt hash of its task kind)``
(``benger.pipeline.PromptSet.generation_config_hash``), so one system configuration has one generation config
hash per task kind: a different one on Benchathon (falloesung prompts) than on Grundprinzipien (grundprinzip
prompts). The leaderboard's entity is the system configuration itself, ``SystemConfig.config_hash()``, which
generations record as ``meta["system_config_hash"]``. Generations that record none are their own identity:
the release's imports (their config hash already is the system's ``config_hash()``) and the superseded April
runs (their own hash, :func:`benger.store._import.superseded_config_hash`).

On one corpus, one system configuration run under two prompt sets has two generation config hashes: those rows
are not merged (their mean would mix two prompt sets); each keeps its generation config hash as its identity.
The prompt-set hash of every row stays its provenance (``LeaderboardRow.prompt_hash``, ``generation_config_hash``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benger.schema import SystemConfig

RowKey = tuple[str, str, str]  # system name, config hash, corpus


def identities(keys: Iterable[RowKey], system_hashes: Mapping[str, str | None]) -> dict[RowKey, str]:
    """``(system, generation config hash, corpus)`` -> the identity hash of its row.

    ``system_hashes``: generation config hash -> the system's own config hash (``meta["system_config_hash"]``;
    missing or None: the generation config hash is its own identity). A system configuration with one generation
    config hash on a corpus is identified by its system hash; one with several there keeps each generation hash.
    """
    by_entity: dict[RowKey, set[str]] = defaultdict(set)
    for system, config_hash, corpus in keys:
        by_entity[(system, system_hashes.get(config_hash) or config_hash, corpus)].add(config_hash)
    out: dict[RowKey, str] = {}
    for (system, identity, corpus), hashes in by_entity.items():
        for config_hash in hashes:
            out[(system, config_hash, corpus)] = identity if len(hashes) == 1 else config_hash
    return out


def same_configuration(registered: Iterable[tuple[str, str]], names: Iterable[str]) -> dict[str, list[str]]:
    """For each of ``names`` that shares a system configuration with other names: those names, sorted.

    ``registered``: (system name, ``SystemConfig.config_hash()``) of every configuration in the store. The name is
    a label, not part of the configuration (renaming a system makes no new work): a run of ``beta`` with the
    configuration of an earlier ``alpha`` reuses alpha's generations, which keep the name they were made under.
    ``--system beta`` must still find them (issue 10 audit)."""
    by_hash: dict[str, set[str]] = defaultdict(set)
    hashes: dict[str, set[str]] = defaultdict(set)
    for name, config_hash in registered:
        by_hash[config_hash].add(name)
        hashes[name].add(config_hash)
    out: dict[str, list[str]] = {}
    for name in names:
        others = {other for h in hashes.get(name, ()) for other in by_hash[h]} - {name}
        if others:
            out[name] = sorted(others)
    return out


@cache
def _catalog_aliases() -> dict[str, str]:
    from benger.llm._catalog import load_catalog

    aliases: dict[str, str] = {}
    for entry in load_catalog().systems:
        if entry.display_name:
            aliases.setdefault(entry.name, entry.display_name)
            aliases.setdefault(entry.model, entry.display_name)
    return aliases


def display_names(configs: Iterable[SystemConfig]) -> dict[str, str]:
    """Short display names: the catalog's alias (by system name or model id, e.g. "Opus-4.7", "Qwen3-235B"),
    else the stored config's ``display_name``. The built-in catalog is loaded only when one of the names occurs
    in its text (:func:`benger.llm._catalog.builtin_mentions`): a store of other systems reads no YAML."""
    from benger.llm._catalog import builtin_mentions

    configs = list(configs)
    aliases = _catalog_aliases() if builtin_mentions(c.name for c in configs) else {}
    out: dict[str, str] = {}
    for c in configs:
        name = aliases.get(c.name) or c.display_name
        if name:
            out.setdefault(c.name, name)
    return out
