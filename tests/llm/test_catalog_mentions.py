"""``benger.llm._catalog.builtin_mentions``: the leaderboard loads the built-in catalog (YAML parser, parse,
validation) only when a stored system name occurs in its text (issue 26). Exact only because every name the
look-ups compare is written verbatim in catalog.yaml: checked here for every entry."""

from __future__ import annotations

import subprocess
import sys

import pytest

from benger.analysis.leaderboard.identity import _catalog_aliases, display_names
from benger.llm._catalog import builtin_mentions, builtin_text, load_catalog
from benger.schema import SystemConfig


def test_every_name_the_catalog_matches_on_is_written_verbatim_in_its_text() -> None:
    catalog = load_catalog()
    text = builtin_text()
    for entry in [*catalog.systems, *catalog.judges, *catalog.local]:
        names = [entry.name, entry.model, entry.display_name or "", *catalog.aliases.get(entry.name, [])]
        for name in filter(None, names):
            assert name in text, (entry.name, name)
    assert set(_catalog_aliases()) <= {n for e in catalog.systems for n in (e.name, e.model)}


def test_builtin_mentions() -> None:
    first = load_catalog().systems[0]
    assert builtin_mentions([first.name]) and builtin_mentions(["sys-00", first.model])
    assert not builtin_mentions(["sys-00", "my-own-system", ""]) and not builtin_mentions([])


@pytest.mark.parametrize("mine_first", [True, False])
def test_display_names_are_the_catalogs_where_a_name_is_in_it(mine_first: bool) -> None:
    catalog = load_catalog()
    listed = next(e for e in catalog.systems if e.display_name and e.display_name != e.name)
    mine = SystemConfig(name="sys-00", provider="openai", model="m-own", display_name="Own")
    stored = listed.model_copy(update={"display_name": "stored label"})
    configs = [mine, stored] if mine_first else [stored, mine]
    assert display_names(configs) == {"sys-00": "Own", listed.name: listed.display_name}
    assert display_names([mine]) == {"sys-00": "Own"}
    assert display_names([mine.model_copy(update={"display_name": None})]) == {}


def test_display_names_of_other_systems_import_no_yaml_parser() -> None:
    code = (
        "import sys\n"
        "from benger.analysis.leaderboard.identity import display_names\n"
        "from benger.schema import SystemConfig\n"
        "c = SystemConfig(name='sys-00', provider='openai', model='m-own', display_name='Own')\n"
        "assert display_names([c]) == {'sys-00': 'Own'}\n"
        "print(sorted(m for m in sys.modules if m == 'yaml' or m.startswith(('yaml.', 'benger._yaml'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
