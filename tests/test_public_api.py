"""The public API: every exported name resolves, and ``import benger`` stays light."""

from __future__ import annotations

import subprocess
import sys

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
