"""The metric registry (issue 17): one definition per metric, derived signatures, lazy dependency checks,
metrics from entry points, ``benger metrics --list``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from benger.errors import ConfigError, InputError, MissingDependencyError
from benger.metrics import (
    LABELS,
    MetricDef,
    PairwiseCompute,
    Score,
    all_metrics,
    compute,
    get_metric,
    parse_metrics,
    register,
    signatures,
    unregister,
)
from benger.metrics._registry import builtin_metrics, refresh
from benger.text import TEXT_NORMALISATION_ID

#: the paper's metrics, in the paper's order (a metric added later may sit anywhere among them)
BUILTIN = ("bleu", "chrf", "rouge1", "rouge2", "rougeL", "meteor", "semantic_similarity", "bertscore", "moverscore")


def _length_ratio(candidate: str, reference: str, params) -> Score:
    return Score(min(len(candidate), len(reference)) / max(len(candidate), len(reference), 1) ** params["power"])


def test_every_builtin_metric_is_one_registered_definition() -> None:
    registry = all_metrics()
    assert [k for k in registry if k in BUILTIN] == list(BUILTIN)
    for key, defn in registry.items():
        assert defn.key == key and defn.label and defn.family
        assert LABELS[key] == defn.label


# (metric, the parameter values its signature must show) - the signature is made from the parameters
SIGNATURE_TABLE = [
    ("bleu", "bleu|tok:13a|case:mixed|smooth:exp|eff:yes|norm:"),
    ("chrf", "chrf|nc:6|nw:0|beta:2|space:no|norm:"),
    ("rouge1", "rouge1|tok:unicode-lower-v1|stem:snowball-de|norm:"),
    ("rougeL", "rougeL|tok:unicode-lower-v1|stem:snowball-de|norm:"),
    ("meteor", "meteor|tok:unicode-lower-v1|stages:exact+stem|stem:snowball-de|wordnet:none|alpha:0.9|beta:3.0|"),
]


@pytest.mark.parametrize(("key", "prefix"), SIGNATURE_TABLE)
def test_signature_is_derived_from_parameters(key: str, prefix: str) -> None:
    sig = signatures([key])[key]
    assert sig.startswith(prefix)
    assert f"|norm:{TEXT_NORMALISATION_ID}|" in sig
    defn = get_metric(key)
    assert sig == defn.signature(defn.bind())


def test_changing_a_parameter_changes_signature_and_value() -> None:
    chrf = get_metric("chrf")
    plus = chrf.bind() | {"nw": 2}
    assert chrf.signature(plus).startswith("chrf|nc:6|nw:2|")
    cand, ref = "Der Käufer zahlt den Preis.", "Der Käufer schuldet den Kaufpreis."
    assert chrf.compute([cand], [ref], plus)[0].value != chrf.compute([cand], [ref], chrf.bind())[0].value
    # the rouge stem option reaches both the signature and the value
    unstemmed = compute(["Verträge sind wirksam"], ["Verträgen sind wirksam"], ["rouge1"], stem=False)[0]
    assert "|stem:none|" in unstemmed.signature
    assert unstemmed.value == pytest.approx(2 / 3)


def test_missing_optional_dependency_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # observed: a missing sacrebleu gave a bare ModuleNotFoundError; simulate the missing package
    monkeypatch.setitem(sys.modules, "sacrebleu", None)
    with pytest.raises(MissingDependencyError, match=r"metric 'bleu'.*'sacrebleu'.*pip install 'benger\[metrics\]'"):
        compute(["a b"], ["a b"], ["bleu"])
    # metrics that do not need it still work
    assert compute(["a b"], ["a b"], ["rouge1"])[0].value == 1.0


def test_missing_dependency_in_the_cli_is_one_clear_line(tmp_path: Path) -> None:
    code = "import sys; sys.modules['sacrebleu'] = None; from benger.cli import main; main()"
    result = subprocess.run(
        [sys.executable, "-c", code, "metrics", "--db", str(tmp_path / "m.db"), "--metrics", "chrf", "-q"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2, result.stderr
    assert "pip install 'benger[metrics]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_register_a_metric_at_run_time() -> None:
    defn = MetricDef(
        key="length_ratio",
        label="Length ratio",
        family="lexical",
        compute=PairwiseCompute(_length_ratio),
        params={"power": 1},
    )
    register(defn)
    try:
        # "abcd" vs "abcdefgh": 4 / 8 = 0.5
        row = compute(["abcd"], ["abcdefgh"], ["length_ratio"])[0]
        assert row.value == 0.5
        assert row.signature == f"length_ratio|power:1|norm:{TEXT_NORMALISATION_ID}"
        assert "length_ratio" in parse_metrics("lexical")
        with pytest.raises(ConfigError, match="already registered"):
            register(defn)
    finally:
        unregister("length_ratio")
    with pytest.raises(InputError, match="unknown metric 'length_ratio'"):
        parse_metrics("length_ratio")


@pytest.mark.parametrize(
    ("params", "message"),
    [({"a|b": 1}, "must be non-empty"), ({"x": "a|b"}, "must be non-empty"), ({"x": object()}, "signature_id")],
)
def test_parameters_that_cannot_be_signed_are_rejected(params: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        MetricDef(key="bad", label="Bad", family="x", compute=PairwiseCompute(_length_ratio), params=params).signature()


PLUGIN = """
from benger.metrics import MetricDef, PairwiseCompute, Score


def _same_first_word(candidate, reference, params):
    first = lambda t: t.split()[0].lower() if t.split() else ""
    return Score(1.0 if first(candidate) == first(reference) else 0.0)


METRIC = MetricDef(
    key="first_word",
    label="Same first word",
    family="toy",
    compute=PairwiseCompute(_same_first_word),
    params={"case": "lower"},
)
"""


@pytest.fixture
def plugin_path(tmp_path: Path) -> Path:
    """An installed-looking distribution with a ``benger.metrics`` entry point (a dist-info on sys.path)."""
    (tmp_path / "toy_metric.py").write_text(textwrap.dedent(PLUGIN), "utf-8")
    info = tmp_path / "toy_metric-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-metric\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text("[benger.metrics]\nfirst_word = toy_metric:METRIC\n", "utf-8")
    return tmp_path


def test_entry_point_metric_is_registered_and_computed(plugin_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(plugin_path))
    refresh()
    try:
        assert all_metrics()["first_word"].family == "toy"
        rows = compute(["Der Käufer zahlt.", "Ein Käufer zahlt."], ["der Verkäufer liefert."] * 2, "toy")
        assert [r.value for r in rows] == [1.0, 0.0]
        assert rows[0].signature == f"first_word|case:lower|norm:{TEXT_NORMALISATION_ID}"
    finally:
        monkeypatch.undo()
        refresh()
    assert "first_word" not in all_metrics()


def test_metrics_list_prints_every_metric_with_its_signature(plugin_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin_path), os.environ.get("PYTHONPATH", "")])}
    code = "from benger.cli import main; main()"
    result = subprocess.run(
        [sys.executable, "-c", code, "metrics", "--list"], capture_output=True, text=True, timeout=300, env=env
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for key in (*builtin_metrics(), "first_word"):
        assert any(line.startswith(f"{key} ") for line in lines), key
    assert f"first_word|case:lower|norm:{TEXT_NORMALISATION_ID}" in result.stdout
    assert signatures(["bleu"])["bleu"] in result.stdout


def test_broken_entry_point_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = tmp_path / "broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text("[benger.metrics]\nnope = no_such_module:METRIC\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    refresh()
    try:
        with pytest.raises(ConfigError, match=r"entry point nope = no_such_module:METRIC .*cannot be loaded"):
            all_metrics()
    finally:
        monkeypatch.undo()
        refresh()
