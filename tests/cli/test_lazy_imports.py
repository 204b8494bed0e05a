"""A command imports only what it uses (issue 26): ``benger --help`` no stage, no command module and no numerical
library, ``benger leaderboard`` no plotting, none of the RQ computations, no scipy at all (its t, Wilson and BCa
intervals take their quantiles from benger.stats._quantiles) and no Alembic on a store at the newest revision.
Checked in a fresh interpreter (``sys.modules`` after the command).
Times are measured by benchmarks/bench_startup.py, never here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benger.store import open_store

pytestmark = pytest.mark.slow  # a new interpreter per case

HEAVY = ("numpy", "scipy", "pandas", "matplotlib", "torch", "sqlalchemy", "pydantic", "jinja2", "openai", "httpx")

PROBE = """
import json, sys
{setup}
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r}))
stages = sorted(m for m in sys.modules if m.startswith('benger.') and not m.startswith(('benger.cli', 'benger.errors',
                'benger.config', 'benger._console')))
print(json.dumps({{"heavy": heavy, "stages": stages, "all": sorted(sys.modules)}}))
"""


def _modules(setup: str) -> dict[str, list[str]]:
    code = PROBE.format(setup=setup, heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_help_imports_no_stage_and_no_numerical_library() -> None:
    found = _modules(
        "from benger.cli import main\nsys.argv = ['benger', '--help']\n"
        "import contextlib, io\nwith contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main()"
    )
    assert found["heavy"] == [], found["heavy"]
    assert found["stages"] == [], found["stages"]
    # the root help lists the commands from benger.cli._commands.COMMANDS: no command module is imported
    loaded = sorted(m for m in found["all"] if m.startswith("benger.cli."))
    assert loaded == ["benger.cli._app", "benger.cli._commands"], loaded
    assert not {"asyncio", "sqlalchemy", "fastapi", "numpy", "alembic"} & {m.split(".")[0] for m in found["all"]}


def test_import_benger_is_light() -> None:
    found = _modules("import benger")
    assert found["heavy"] == [] and found["stages"] == [], found


def test_the_leaderboard_imports_no_plotting_and_no_rq_computation() -> None:
    found = _modules("from benger.analysis import leaderboard_from_store")
    tops = {m.split(".")[0] for m in found["all"]}
    assert not tops & {"matplotlib", "pandas", "torch"}, sorted(tops & {"matplotlib", "pandas", "torch"})
    rq = ("benger.analysis._rq", "benger.analysis._compute", "benger.report", "benger.stats._a", "benger.stats._cal")
    assert not [m for m in found["all"] if m.startswith(rq)]


def test_public_names_still_resolve() -> None:
    found = _modules(
        "import benger, benger.stats, benger.analysis\n"
        "for mod in (benger, benger.stats, benger.analysis):\n"
        "    for name in mod.__all__:\n"
        "        getattr(mod, name)"
    )
    assert "scipy" in {m.split(".")[0] for m in found["all"]}  # the statistics that need scipy still load it


def test_the_leaderboard_command_loads_no_scipy_stats_and_no_alembic(release_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "release.db"
    with open_store(db) as store:
        store.import_release(release_dir)
    found = _modules(
        "from benger.cli import main\n"
        f"sys.argv = ['benger', 'leaderboard', '--db', {str(db)!r}, '--corpus', 'benchathon', '--resamples', '100']\n"
        "import contextlib, io\nout = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        "    main()\n"
        "assert 'gpt-5.4-mini' in out.getvalue(), out.getvalue()"
    )
    loaded = set(found["all"])
    # the t and Wilson intervals of 15 tasks ran: their 95 % quantiles are kept (benger.stats._t_table)
    assert not [m for m in loaded if m.split(".")[0] == "scipy"], sorted(m for m in loaded if m.startswith("scipy"))
    assert not {"scipy.stats", "alembic", "benger.study", "benger.corpora._release", "jinja2"} & loaded, sorted(
        {"scipy.stats", "alembic", "benger.study", "benger.corpora._release", "jinja2"} & loaded
    )
    commands = sorted(m for m in loaded if m.startswith("benger.cli._") and m != "benger.cli._app")
    # the command's own module: no other command is built, none of their modules (and stages) imported
    assert "benger.cli._leaderboard" in commands, commands
    assert not {"benger.cli._core", "benger.cli._web"} & set(commands), commands


def _small_store(db: Path) -> None:
    """Two systems x three tasks, each generation judged once: a leaderboard with two ranked rows."""
    from benger.schema import Corpus, FalloesungTask, Generation, Judgement, SystemConfig

    tasks = [
        FalloesungTask(task_id=f"t{i}", corpus="benchathon", area="Zivilrecht", facts="F", reference="R")
        for i in range(3)
    ]
    with open_store(db) as store:
        store.add_corpus(Corpus(name="benchathon", tasks=tasks))
        for s, name in enumerate(("sys-a", "sys-b")):
            store.upsert_system(SystemConfig(name=name, provider="local", model=f"m{s}"))
            gens = [
                Generation(
                    generation_id=f"g-{name}-{t.task_id}",
                    task_id=t.task_id,
                    system=name,
                    config_hash=f"cfg-{name}",
                    text="T",
                )
                for t in tasks
            ]
            store.save_generations(gens)
            store.save_judgements(
                [
                    Judgement(
                        judgement_id=f"j-{g.generation_id}",
                        target_kind="generation",
                        target_id=g.generation_id,
                        judge="primary",
                        judge_config_hash="jh",
                        rubric_id="falloesung@1",
                        status="scored",
                        total=float(40 + 10 * s + k),
                    )
                    for k, g in enumerate(gens)
                ]
            )


@pytest.mark.parametrize("ci", ["auto", "normal", "bca", "percentile"])
def test_the_leaderboard_command_reads_the_store_without_the_orm(tmp_path: Path, ci: str) -> None:
    # issue 26: the ORM models, their mapper configuration and the store's write paths cost ~0.3 CPU-s of every
    # benger leaderboard; the command reads through SQLAlchemy Core (benger.store._reads.StoreReader)
    db = tmp_path / "small.db"
    _small_store(db)
    found = _modules(
        "from benger.cli import main\n"
        f"sys.argv = ['benger', 'leaderboard', '--db', {str(db)!r}, '--ci', {ci!r}]\n"
        "import contextlib, io\nout = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        "    main()\n"
        "assert 'sys-a' in out.getvalue() and 'sys-b' in out.getvalue(), out.getvalue()"
    )
    unneeded = {
        "sqlalchemy.orm",
        "benger.store._models",
        "benger.store._store",
        "benger.store._orgs",
        "benger.store._import",
        "benger.metrics._answers",  # the answer parser: the accuracy column needs benger.metrics._accuracy only
        "benger.pipeline",
        "sqlalchemy.dialects.postgresql",  # JSONB: loaded by a PostgreSQL engine only
        "alembic",
        "scipy.stats",
    }
    loaded = set(found["all"])
    assert not unneeded & loaded, sorted(unneeded & loaded)
    assert "benger.store._reads" in loaded and "benger.store._tables" in loaded
    # the normal and Wilson intervals at 95 % take their z from benger.stats._quantiles.KNOWN_NORM_PPF, BCa its
    # Φ and Φ⁻¹ from the standard library (the default at large n), auto's Student t at n = 3 its quantile from
    # benger.stats._t_table (issue 26)
    assert "scipy" not in loaded, ci
