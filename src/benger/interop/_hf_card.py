"""The dataset card (README.md) of a benger Hugging Face export: YAML metadata the Hub and ``datasets`` read
(licence, language, one config per table with one split per corpus) and a body with the provenance, the counts,
the rubrics the judgements used, how to load it and how to cite BenGER."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

import yaml

from benger.interop import _hf_tables as t
from benger.judge import Rubric, falloesung_rubric, grundprinzipien_rubric, rubric_from_data

CITATION = """@misc{nagl2026benger,
  title         = {{BenGER}: Benchmarking {LLM} Systems on Subsumption-Based Legal Reasoning in German Law},
  author        = {Nagl, Sebastian and Mayrhofer, Ann-Kristin and Heidebach, Martin and Ko{\\c{c}}ak, Aleyna and
                   Zettelmeier, Anne and Breu, Elly and Greiner, Angelina and Milijas, Sofija and Grabmair, Matthias},
  year          = {2026},
  eprint        = {2605.28183},
  archivePrefix = {arXiv}
}"""

_LICENCE_TEXT = {
    "cc-by-4.0": "Creative Commons Attribution 4.0 International (CC BY 4.0), the licence of the BenGER release. "
    "Attribute the BenGER authors (see How to cite) when you share or adapt it.",
    "other": "Not stated: the store held no data of the BenGER release. The licence is the corpus owner's; "
    "state it (benger export hf --license ID) before sharing this folder.",
}


def _configs(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    configs = []
    for table, splits in manifest["counts"].items():
        files = [{"split": split, "path": f"{table}/{split}.parquet"} for split, n in splits.items() if n]
        if files:
            configs.append({"config_name": table, "data_files": files})
    return configs


def _rubric_section(rows: Mapping[str, Mapping[str, list[dict[str, Any]]]]) -> list[str]:
    used = Counter(j["rubric_id"] for split in rows["judgements"].values() for j in split)
    if not used:
        return ["No judgements in this export."]
    builtin: dict[str, Rubric] = {r.base_id: r for r in (falloesung_rubric(), grundprinzipien_rubric())}
    stored = {
        str(row["rubric_id"]): rubric_from_data(json.loads(row["payload"]), "rubrics")
        for split in rows.get("rubrics", {}).values()
        for row in split
    }
    lines: list[str] = []
    for rubric_id, n in sorted(used.items()):
        rubric = stored.get(rubric_id) or builtin.get(rubric_id.split("+")[0])
        lines.append(f"### `{rubric_id}` ({n} judgements)")
        lines.append("")
        if rubric is None:
            lines += ["Not one of benger's built-in rubrics: its dimensions are those of the judgements.", ""]
            continue
        exact = rubric_id in (rubric.base_id, rubric.id)
        where = " (its content: `rubrics/all.parquet`)" if rubric_id in stored else ""
        note = where if exact else f" (benger's built-in `{rubric.id}`; this export's content hash differs)"
        graded = "totals map to 0-18 grade points, pass >= 4" if rubric.graded else "no grade points"
        lines += [f"{rubric.title}: {rubric.max_total:g} points, {graded}{note}.", ""]
        lines += ["| dimension | label | max |", "|---|---|---|"]
        lines += [f"| `{d.key}` | {d.label} ({d.label_en}) | {d.max:g} |" for d in rubric.dimensions]
        lines.append("")
    return lines


def _judges(rows: Mapping[str, Mapping[str, list[dict[str, Any]]]]) -> list[str]:
    seen = Counter(
        (j["judge"], j["judge_config_hash"], j["rubric_id"]) for split in rows["judgements"].values() for j in split
    )
    if not seen:
        return []
    lines = ["| judge | judge config hash | rubric | judgements |", "|---|---|---|---|"]
    lines += [f"| {judge} | `{h}` | `{r}` | {n} |" for (judge, h, r), n in sorted(seen.items())]
    return [*lines, ""]


def dataset_card(manifest: Mapping[str, Any], rows: Mapping[str, Mapping[str, list[dict[str, Any]]]]) -> str:
    """The README.md text of an export: YAML front matter and a Markdown body."""
    licence = manifest["license"]
    header = {
        "license": licence,
        "language": ["de"],
        "pretty_name": "BenGER store export",
        "task_categories": ["text-generation"],
        "tags": ["legal", "german-law", "llm-as-a-judge", "benger"],
        "configs": _configs(manifest),
    }
    corpora = {row["name"]: row["n_tasks"] for row in rows["corpora"].get(t.ALL_SPLIT, [])}
    counts = ["| table | split | corpus | rows |", "|---|---|---|---|"]
    by_split = {split: name for name, split in manifest["splits"].items()}
    for table, splits in manifest["counts"].items():
        for split, n in splits.items():
            counts.append(f"| {table} | {split} | {by_split.get(split, '–')} | {n} |")
    first = next((c["config_name"] for c in header["configs"] if c["config_name"] == "judgements"), "tasks")
    body = [
        "# BenGER store export",
        "",
        "Corpora, generations, rubric judgements (per dimension, with justifications), automatic metric values,",
        "human reviews and the leaderboard of one benger store, written by `benger export hf`. BenGER is the",
        "benchmark for subsumption-based legal reasoning in German law (Nagl et al., arXiv:2605.28183).",
        "",
        "## Provenance",
        "",
        f"- written by benger {manifest['benger_version']} (format `{manifest['format']}`)",
        f"- source store: `{manifest['source_store']}`",
        f"- corpora: {', '.join(f'{name} ({n} tasks)' for name, n in corpora.items()) or 'none'}",
        "- every file's sha256 is in `benger_export.json`; the leaderboard rows carry their own provenance",
        "  (system config, judge config, rubric id, metric signatures, benger version)",
        "",
        "## Contents",
        "",
        "One config per table, one split per corpus (split names are the corpus names with other characters than",
        "letters, digits and `_` replaced by `_`; the `corpus` column keeps the name). `meta`, `details` and",
        "`config` are JSON text. A judgement's `dimensions` is a list of `{dimension, score}` in the judge's order",
        "(null when the reply could not be scored: unscored is never 0), `justifications` a list of",
        "`{dimension, justification}`.",
        "",
        *counts,
        "",
        "## Judges",
        "",
        *_judges(rows),
        "## Rubrics",
        "",
        *_rubric_section(rows),
        "## How to load",
        "",
        "```python",
        "from datasets import load_dataset",
        f'ds = load_dataset("PATH/TO/THIS/FOLDER", "{first}")      # one split per corpus',
        "```",
        "",
        "Or back into a benger store: `benger import hf PATH/TO/THIS/FOLDER --db new.db`.",
        "",
        "## Licence",
        "",
        f"`{licence}`: {_LICENCE_TEXT.get(licence, 'as named in the metadata above.')}",
        "",
        "## How to cite",
        "",
        "```bibtex",
        CITATION,
        "```",
        "",
    ]
    front = yaml.safe_dump(header, sort_keys=False, allow_unicode=True)
    return f"---\n{front}---\n\n" + "\n".join(body)
