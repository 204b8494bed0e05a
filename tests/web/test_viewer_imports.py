"""The results viewer's import path (``benger view``, issue 27): creating the viewer app loads neither the study
app of ``benger serve`` nor its workbench and runs apps (``benger.web`` imports ``create_app`` on first use), and
``benger view`` serving its pages loads no module of the study package (``benger.web._policy`` and
``benger.web._requests`` hold what the viewer needs of ``benger.web.access``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from viewer_helpers import build

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
    """``benger view`` starts the leaderboard (``viewer._warm.warm``) before FastAPI, Jinja and uvicorn load, so
    that computation and those imports overlap: neither the package, ``_warm`` nor what its thread imports
    (``_kept``, the page models) may import them, nor the study package (``benger.web.access`` imported FastAPI
    and benger.study, so the thread waited for the main thread's imports before it computed anything)."""
    probe = (
        "import json, sys; import benger.cli._view, benger.web.viewer._warm, benger.web.viewer._kept; "
        "print(json.dumps(sorted(m for m in ('fastapi', 'starlette', 'jinja2', 'uvicorn', 'benger.web.access', "
        "'benger.web.viewer._router', 'benger.web.viewer._bundle', 'benger.study') if m in sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True, timeout=120
    )
    assert json.loads(out.stdout) == []


SERVE = """
import json, sys
from fastapi.testclient import TestClient
from benger.store import open_store
from benger.web._policy import Principal
from benger.web.viewer import create_viewer_app, warm
store = open_store(sys.argv[1], create=False)
warm(store, Principal.local()).join(timeout=120)
client = TestClient(create_viewer_app(store, Principal.local()))
codes = [client.get(p).status_code for p in ("/view/", "/view/browse", "/view/browse?flag=unscored")]
print(json.dumps({"codes": codes, "study": sorted(m for m in sys.modules if m.split(".")[:2] == ["benger", "study"])}))
"""


def test_benger_view_serves_its_first_pages_without_the_study_package(tmp_path: Path) -> None:
    """The viewer's start and first pages (the leaderboard, Browse) of a store holding a running study: the
    hidden studies are read by a Core query on ``studies`` (the model's module loads the whole study package,
    ~0.2 s of every ``benger view`` start, and its ORM session configured every mapper)."""
    world = build(tmp_path)
    world.store.close()
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", SERVE, str(tmp_path / "viewer.db")],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"codes": [200, 200, 200], "study": []}


def test_the_studies_reference_names_the_study_model_s_table() -> None:
    from benger.study._models import STATES, Study
    from benger.web._policy import DONE, STUDIES

    assert STUDIES.name == Study.__tablename__
    assert {c.name for c in STUDIES.c} <= {c.name for c in Study.__table__.c}
    assert STATES[-1] == DONE
