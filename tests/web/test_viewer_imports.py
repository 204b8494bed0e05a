"""The results viewer's import path (``benger view``, issue 27): creating the viewer app loads neither the study
app of ``benger serve`` nor its workbench and runs apps (``benger.web`` imports ``create_app`` on first use)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PROBE = """
import json, sys
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app
viewer = sorted(m for m in ("benger.web._app", "benger.web._admin", "benger.web.workbench", "benger.web.runs")
                if m in sys.modules)
from benger.web import create_app
print(json.dumps({"viewer": viewer, "app": create_app.__module__, "loaded": "benger.web._app" in sys.modules}))
"""


def test_the_viewer_does_not_import_the_study_app() -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True, timeout=120
    )
    assert json.loads(out.stdout) == {"viewer": [], "app": "benger.web._app", "loaded": True}


def test_the_access_layer_does_not_import_scipy() -> None:
    # benger.web.access -> benger.study (its __init__) -> _export -> _tables imported benger.stats and scipy.stats
    # at module level: ~0.5 s of every viewer and serve start-up, for the study agreement table only
    probe = (
        "import json, sys; import benger.web.access; "
        "print(json.dumps(sorted(m for m in sys.modules if m == 'scipy' or m.startswith(('scipy.', 'benger.stats')))))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True, timeout=120
    )
    assert json.loads(out.stdout) == []


def test_the_early_leaderboard_thread_imports_no_web_stack() -> None:
    """``benger view`` starts the leaderboard (``viewer._warm.start``) before FastAPI, Jinja and uvicorn load, so
    that computation and those imports overlap: neither the package nor ``_warm`` may import them."""
    probe = (
        "import json, sys; import benger.web.viewer._warm; "
        "print(json.dumps(sorted(m for m in ('fastapi', 'starlette', 'jinja2', 'uvicorn', 'benger.web.access', "
        "'benger.web.viewer._router', 'benger.web.viewer._bundle') if m in sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True, timeout=120
    )
    assert json.loads(out.stdout) == []
