"""The public API: every exported name resolves, and ``import benger`` stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest

import benger


def test_every_public_name_resolves() -> None:
    missing = [name for name in benger.__all__ if not hasattr(benger, name)]
    assert missing == []


def test_unknown_attribute_is_an_attribute_error() -> None:
    try:
        benger.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_import_does_not_load_heavy_stages() -> None:
    code = (
        "import sys, benger; "
        "print(','.join(m for m in ('matplotlib', 'sqlalchemy', 'torch', 'celery', 'fastapi') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


@pytest.mark.parametrize(
    "first",
    [
        "import benger.analysis.leaderboard.render",
        "benger.leaderboard",
        "from benger.analysis import leaderboard_from_store",
    ],
)
def test_leaderboard_is_the_function_and_its_package_a_plain_module(first: str) -> None:
    """``benger.leaderboard`` is the function and ``benger.analysis.leaderboard`` its package, whichever is touched
    first (the function once shared the package's name in ``benger.analysis``: a mypy no-redef and a package that
    had to pretend to be callable)."""
    code = (
        f"import types, benger; {first}; import benger.analysis.leaderboard as package; "
        "from benger.analysis.leaderboard.records import leaderboard as function; "
        "print(benger.leaderboard is function, type(benger.analysis.leaderboard) is types.ModuleType, "
        "benger.analysis.leaderboard is package, package.leaderboard is function)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True", "True", "True"]
