"""Every YAML loader (catalog, rubric, Gutachten rules, run config) meets the same bad files: a key given
twice, broken YAML, non-UTF-8 bytes. One table, one expected message each: file:line, the field, the key.

The expected lines are counted by hand in the texts below (1-based, as an editor shows them).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benger._yaml import duplicate_key, load_yaml
from benger.errors import BengerError
from benger.gutachten import load_rules
from benger.judge import load_rubric
from benger.llm import load_catalog
from benger.pipeline import load_run_config

ENTRY = "  - name: a\n    provider: openai\n    model: m\n"


def _statutes(path: Path) -> Any:
    return load_rules(statutes=path)


def _markers(path: Path) -> Any:
    return load_rules(markers=path)


LOADERS: dict[str, Callable[[Path], Any]] = {
    "catalog": load_catalog,
    "rubric": load_rubric,
    "statutes": _statutes,
    "markers": _markers,
    "run": load_run_config,
}

# (loader, file text, expected "where" after the file name, expected message part)
CASES: list[tuple[str, str, str, str]] = [
    (
        "catalog",
        "systems:\n" + ENTRY + "    model: n\n",
        ":5, field 'systems[0].model'",
        "duplicate key 'model' (first on line 4)",
    ),
    (
        "catalog",
        "systems: []\njudges: []\nsystems: []\n",
        ":3, field 'systems'",
        "duplicate key 'systems' (first on line 1)",
    ),
    ("catalog", "systems: [\n", ":2", "not valid YAML"),
    ("rubric", "name: r\nversion: '1'\nname: s\n", ":3, field 'name'", "duplicate key 'name' (first on line 1)"),
    ("rubric", "dimensions:\n  - {key: a, max: 1, max: 2}\n", ":2, field 'dimensions[0].max'", "duplicate key 'max'"),
    (
        "statutes",
        "paragraph: [BGB]\naliases: {}\nparagraph: [StGB]\n",
        ":3, field 'paragraph'",
        "duplicate key 'paragraph' (first on line 1)",
    ),
    (
        "statutes",
        "aliases:\n  BGB: BGB\n  BGB: StGB\n",
        ":3, field 'aliases.BGB'",
        "duplicate key 'BGB' (first on line 2)",
    ),
    (
        "markers",
        "steps:\n  obersatz: [x]\n  obersatz: [y]\n",
        ":3, field 'steps.obersatz'",
        "duplicate key 'obersatz' (first on line 2)",
    ),
    (
        "run",
        "corpora: [demo]\nsystems: [a]\ncorpora: [b]\n",
        ":3, field 'corpora'",
        "duplicate key 'corpora' (first on line 1)",
    ),
]


@pytest.mark.parametrize(("loader", "text", "where", "message"), CASES)
def test_yaml_loaders_refuse_the_same_bad_files(
    tmp_path: Path, loader: str, text: str, where: str, message: str
) -> None:
    path = tmp_path / f"{loader}.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BengerError) as err:
        LOADERS[loader](path)
    assert f"{path}{where}: " in str(err.value) and message in str(err.value), str(err.value)


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_yaml_loaders_refuse_bytes_that_are_not_utf8(tmp_path: Path, loader: str) -> None:
    path = tmp_path / f"{loader}.yaml"
    path.write_bytes("name: Prüfung\n".encode("latin-1"))
    with pytest.raises(BengerError, match="UTF-8") as err:
        LOADERS[loader](path)
    assert str(path) in str(err.value)


def test_a_merge_key_may_be_overridden_and_aliases_are_no_duplicates() -> None:
    text = "base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  x: 3\nagain: *b\n"
    assert duplicate_key(text) is None
    assert load_yaml(text, "f.yaml") == {"base": {"x": 1, "y": 2}, "other": {"x": 3, "y": 2}, "again": {"x": 1, "y": 2}}


def test_equal_keys_of_different_types_are_no_duplicates() -> None:
    # the integer 1 and the string "1" are two keys in YAML (and in the parsed dict)
    assert load_yaml("1: a\n'1': b\n", "f.yaml") == {1: "a", "1": "b"}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: " + "[" * 3000 + "]" * 3000 + "\n", None, "nested too deeply"),
        ("a: " + "9" * 5000 + "\n", None, "Exceeds the limit"),
        ("a: 1\n\tb: 2\n", 2, "not valid YAML"),
    ],
)
def test_load_yaml_turns_pyyaml_failures_into_one_input_error(text: str, line: int | None, message: str) -> None:
    with pytest.raises(BengerError, match=message) as err:
        load_yaml(text, "x.yaml")
    assert str(err.value).startswith("x.yaml" if line is None else f"x.yaml:{line}")


@pytest.mark.parametrize("field", ["price_in_per_mtok", "price_out_per_mtok", "requests_per_minute"])
@pytest.mark.parametrize("value", ["-1", ".nan", ".inf", "-.inf"])
def test_catalog_refuses_negative_and_non_finite_prices_and_rates(tmp_path: Path, field: str, value: str) -> None:
    path = tmp_path / "catalog.yaml"
    path.write_text(f"systems:\n{ENTRY}    {field}: {value}\n", encoding="utf-8")
    with pytest.raises(BengerError) as err:
        load_catalog(path)
    assert str(path) in str(err.value) and f"field '{field}'" in str(err.value), str(err.value)


def test_catalog_accepts_a_zero_price(tmp_path: Path) -> None:
    # a free local or self-hosted model costs 0 USD; only negative and non-finite prices are refused
    path = tmp_path / "catalog.yaml"
    path.write_text(f"systems:\n{ENTRY}    price_in_per_mtok: 0\n    price_out_per_mtok: 0.5\n", encoding="utf-8")
    system = load_catalog(path).system("a")
    assert (system.price_in_per_mtok, system.price_out_per_mtok) == (0.0, 0.5)
