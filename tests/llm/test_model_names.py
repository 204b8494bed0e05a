"""The embedded models are named for what they are (the GGUFs are Qwen2.5-*Coder*-Instruct), and the names they
had before stay aliases of the same entries: the catalog, ``--model local/OLD``, a YAML naming OLD and a store
written under OLD all keep working, and resuming such a store pays for nothing (the stored identity is kept)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.llm import LOCAL_MODELS, load_catalog
from benger.pipeline import default_prompts, load_run_config, plan_generations
from benger.pipeline._config import model_spec
from benger.schema import Corpus, Generation, PrincipleItem, SystemConfig
from benger.store import open_store

RENAMED = [
    # new name, old name (alias), config hash of the catalog entry as main computed it before the rename
    ("qwen2.5-coder-0.5b-instruct", "qwen2.5-0.5b-instruct", "575f251351710bda"),
    ("qwen2.5-coder-1.5b-instruct", "qwen2.5-1.5b-instruct", "7e7279a83927e4cd"),
]


@pytest.mark.parametrize(("new", "old", "stored_hash"), RENAMED)
def test_the_old_name_is_an_alias_of_the_renamed_entry(new: str, old: str, stored_hash: str) -> None:
    catalog = load_catalog()
    for look_up in (catalog.system, catalog.judge):
        assert look_up(old).name == new and look_up(new).name == new
        assert look_up(old).model == new
    assert catalog.aliases[new] == [old]
    assert catalog.system(new).config_hash() == stored_hash  # the store's identity did not move
    assert new in LOCAL_MODELS and LOCAL_MODELS[new].aliases == (old,)
    # a config that names the model by the old id (provider local, model OLD) is the same system
    assert (
        SystemConfig(name="x", provider="local", model=old).config_hash()
        == SystemConfig(name="x", provider="local", model=new).config_hash()
    )


def test_model_option_and_yaml_accept_the_old_name(tmp_path: Path) -> None:
    by_option = model_spec("local/qwen2.5-0.5b-instruct")
    by_name = model_spec("qwen2.5-0.5b-instruct")
    assert isinstance(by_option, dict) and isinstance(by_name, dict)
    assert by_option["name"] == "qwen2.5-coder-0.5b-instruct"
    assert by_name["model"] == "qwen2.5-coder-0.5b-instruct"
    path = tmp_path / "old.yaml"
    path.write_text("corpora: [demo]\nsystems: [qwen2.5-0.5b-instruct]\njudges: [qwen2.5-0.5b-instruct]\n")
    config = load_run_config(path)
    assert [s.name for s in config.resolved_systems()] == ["qwen2.5-coder-0.5b-instruct"]
    assert [j.name for j in config.resolved_judges()] == ["qwen2.5-coder-0.5b-instruct"]


def test_systems_lists_the_new_name_with_its_alias() -> None:
    _register_commands()  # the CLI registers its commands when run as a program
    result = CliRunner().invoke(app, ["systems"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "qwen2.5-coder-0.5b-instruct" in result.output
    assert "alias qwen2.5-0.5b-instruct" in result.output


def test_a_store_written_under_the_old_name_resumes_without_paying(tmp_path: Path) -> None:
    item = PrincipleItem(task_id="t1", corpus="a", area="Zivilrecht", case="A verkauft B ein Rad.",
                         question="Kaufvertrag?", gold_answer="Ja", gold_reasoning="Angebot und Annahme.")  # fmt: skip
    prompts = default_prompts()
    with open_store(tmp_path / "old.db") as store:
        store.add_corpus(Corpus(name="a", tasks=[item]))
        # what a run before the rename stored: system name OLD, the catalog entry's config as it was then
        old = SystemConfig(name="qwen2.5-0.5b-instruct", provider="local", model="qwen2.5-0.5b-instruct",
                           tier="local", weights="open", temperature=0.2, max_output_tokens=2048, seed=0,
                           price_in_per_mtok=0.0, price_out_per_mtok=0.0)  # fmt: skip
        assert old.config_hash() == "575f251351710bda"
        config_hash = prompts.generation_config_hash(old, "grundprinzip")
        store.save_generation(Generation(generation_id="gen-old", task_id="t1", corpus="a", system=old.name,
                                         config_hash=config_hash, text="Ja.", answer="Ja"))  # fmt: skip
        renamed = load_catalog().system("qwen2.5-coder-0.5b-instruct")
        assert plan_generations(store, store.load_corpus("a").tasks, [renamed], prompts) == []
        assert not store.claim("k", "me", generation=("a", "t1", config_hash, 0))
