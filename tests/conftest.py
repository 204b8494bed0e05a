"""Shared fixtures: where the released BenGER data lives, and the real services on this machine."""

from __future__ import annotations

import os
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
