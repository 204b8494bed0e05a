"""The small pure parts of interop (issue 29), in the inner loop: split names, --map, and how ``benger import``
tells the ``hf``/``inspect`` sources apart. No pyarrow, datasets or inspect_ai needed."""

from __future__ import annotations

import pytest
import typer

from benger.cli._interop import split_source
from benger.errors import ConfigError, InputError
from benger.interop._hf_corpus import parse_map
from benger.interop._hf_tables import split_names

SPLITS = [
    (["benchathon", "grundprinzipien"], ["benchathon", "grundprinzipien"]),
    (["demo-falloesung", "demo-grundprinzipien"], ["demo_falloesung", "demo_grundprinzipien"]),
    (["a-b", "a_b", "a b"], ["a_b", "a_b_2", "a_b_3"]),  # a clash gets a suffix, never a merged split
    (["all", "unlinked", "---"], ["all_2", "unlinked_2", "corpus"]),  # reserved names and nothing left
    (["Öffentliches Recht"], ["ffentliches_Recht"]),  # datasets allows ASCII word characters only
]


@pytest.mark.parametrize(("names", "splits"), SPLITS)
def test_split_names_are_valid_datasets_splits_and_distinct(names: list[str], splits: list[str]) -> None:
    got = split_names(names)
    assert [got[n] for n in names] == splits
    assert len(set(got.values())) == len(names)


def test_parse_map() -> None:
    assert parse_map(["Frage=question", " Sachlage = case "]) == {"Frage": "question", "Sachlage": "case"}
    for bad, phrase in [("Frage", "COLUMN=FIELD"), ("=case", "COLUMN=FIELD"), ("Frage=frage_x", "not a benger corpus"),
                        ("Frage=question,Frage=case", "not a benger corpus")]:  # fmt: skip
        with pytest.raises(ConfigError, match=phrase):
            parse_map([bad])
    with pytest.raises(ConfigError, match="twice"):
        parse_map(["Frage=question", "Frage=case"])


SOURCES = [
    (("hf", "DIR"), ("hf", "DIR")),
    (("hf:DIR", None), ("hf", "DIR")),
    (("inspect", "run.eval"), ("inspect", "run.eval")),
    (("inspect:run.json", None), ("inspect", "run.json")),
    (("release:PATH", None), None),
    (("demo", None), None),
    (("my.jsonl", None), None),
]


@pytest.mark.parametrize(("given", "expected"), SOURCES)
def test_split_source(given: tuple[str, str | None], expected: tuple[str, str] | None) -> None:
    assert split_source(*given) == expected


@pytest.mark.parametrize(
    ("given", "error"),
    [(("hf", None), InputError), (("hf:", None), InputError), (("inspect", ""), InputError),
     (("hf:DIR", "DIR2"), typer.BadParameter), (("demo", "extra"), typer.BadParameter)],
)  # fmt: skip
def test_split_source_refuses_a_missing_or_extra_path(given: tuple[str, str | None], error: type[Exception]) -> None:
    with pytest.raises(error):
        split_source(*given)
