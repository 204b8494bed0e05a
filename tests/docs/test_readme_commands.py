"""README.md cannot drift: every line of its ```bash blocks either runs here as written or is listed in NOT_RUN with
the reason (issue 26, "Also on the first run").

Each line runs in a copy of the working tree (what a fresh clone has), with ``benger`` on PATH and
``../shared/benger-release`` pointing at the release (BENGER_RELEASE_DIR). Inside a private network namespace
(``unshare -rn``, where the kernel allows it) the fixed ports of the README (the stub on 8001, ``serve``/``view``
on 8000) belong to the test alone. Placeholders are files: the test writes a ``CONFIG``, ``my-cases.jsonl``,
``loesung.md``, ... into the copy before the line runs. A line added to the README without an entry here fails
``test_every_readme_line_has_an_entry``.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.docs._readme_files import write_placeholders

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
FENCE = re.compile(r"^```bash\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def readme_lines(markdown: str) -> list[tuple[int, str]]:
    """(line number, command) of every non-blank line of the ```bash blocks, its trailing ``# comment`` cut."""
    found = []
    for block in FENCE.finditer(markdown):
        first = markdown.count("\n", 0, block.start(1)) + 1
        for offset, line in enumerate(block.group(1).splitlines()):
            command = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
            if command:
                found.append((first + offset, command))
    return found


@dataclass(frozen=True)
class Run:
    """A README line that runs: after the lines ``after`` (each as written), it exits 0 and prints ``expect``.

    ``serves``: the line starts a server on that port and stays; the test fetches ``fetch`` from it instead of
    waiting for an exit. A line ending in ``&`` is waited for until its port (``serves``) answers."""

    after: tuple[str, ...] = ()
    expect: tuple[str, ...] = ()
    release: bool = False
    serves: int | None = None
    fetch: str = "/"
    timeout: int = 300


PASSWORD = "ein-langes-Passwort-2026\n"
STUB = "benger stub-server &"
RELEASE_IMPORT = "benger import release:../shared/benger-release --db run.db"
OWN_IMPORT = "benger import my-cases.jsonl --db run.db"
STUB_RUN = "benger run examples/stub.yaml --db run.db"
CONFIG_RUN = "benger run CONFIG --dry-run ; benger run CONFIG --max-cost 5 --max-tokens 2000000"

RUN: dict[str, Run] = {
    "benger validate-judge --recorded gpt54mini --release ../shared/benger-release": Run(
        release=True, expect=("GPT-5.4-mini",)
    ),
    "benger estimate CONFIG --db run.db --release ../shared/benger-release": Run(release=True, expect=("tokens",)),
    CONFIG_RUN: Run(after=(STUB,), expect=("stub-a", "stub-judge", "my-cases")),
    "benger systems": Run(expect=("gpt-5.4-mini", "qwen2.5-coder-0.5b")),
    "benger corpora --db run.db": Run(after=(OWN_IMPORT,), expect=("my-cases", "demo-falloesung")),
    RELEASE_IMPORT: Run(release=True, timeout=600),
    OWN_IMPORT: Run(expect=("my-cases",)),
    "benger export hf run.db export/ ; benger import hf export/ --db copy.db": Run(after=(OWN_IMPORT,)),
    STUB: Run(serves=8001, fetch="/v1/models"),
    STUB_RUN: Run(after=(STUB,), expect=("stub-a", "stub-b")),
    "benger generate CONFIG --limit 5 ; benger judge CONFIG --repeats 3 ; benger leaderboard --db run.db --out out/": (
        Run(after=(STUB,), expect=("stub-a",))
    ),
    "benger leaderboard --db run.db --judge gpt-5.4-mini": Run(after=(RELEASE_IMPORT,), release=True, timeout=600),
    "benger inspect-solution loesung.md --reference muster.txt": Run(expect=("§",)),
    "benger errors --db run.db --release ../shared/benger-release": Run(after=(RELEASE_IMPORT,), release=True),
    "benger reproduce --release ../shared/benger-release --out repro/": Run(release=True, timeout=600),
    "benger analyze --db run.db --out analysis/": Run(after=(STUB, STUB_RUN)),
    "benger analyze --db run.db --corpus my-cases --out analysis/": Run(after=(STUB, CONFIG_RUN), expect=("skipped",)),
    "benger study create-user admin --role admin --db study.db ; benger serve --db study.db": Run(
        serves=8000, fetch="/login"
    ),
    "benger view --db run.db": Run(after=(STUB, STUB_RUN), serves=8002, fetch="/view/"),
}

#: README lines that this test does not run, with the reason (and the test that covers the command instead).
NOT_RUN: dict[str, str] = {
    "./scripts/setup.sh && .venv/bin/benger demo --release ../shared/benger-release": (
        "set-up is what CI runs (.ci/run); the demo's flow on the release: "
        "tests/pipeline/test_demo_release.py::test_release_demo_end_to_end_with_a_stub_model"
    ),
    "./scripts/setup.sh && .venv/bin/python -m pytest -q": "exactly the CI's command (.ci/run): this suite itself",
    "benger demo": (
        "7 min of the embedded 0.5B model; the same flow with the embedded model: "
        "tests/pipeline/test_local_model.py::test_smollm2_system_and_judge"
    ),
    "benger demo --release ../shared/benger-release": (
        "10 min of the embedded model: "
        "tests/pipeline/test_demo_release.py::test_release_demo_end_to_end_with_a_stub_model"
    ),
    "benger validate-judge my-judge.yaml --release ../shared/benger-release --db vj.db": (
        "judges the 45 released picks with your judge: tests/cli/test_exit_codes.py::test_validate_judge"
    ),
    "inspect eval benger/grundprinzipien --model openai/gpt-5.4 -T judge=openai/gpt-5.4-mini": (
        "needs a paid OpenAI API key; the same task against the stub: tests/interop/test_inspect.py"
    ),
    "benger import inspect logs/run.eval --db run.db": (
        "the log of the paid line above; a stub-written log imported: "
        "tests/interop/test_inspect.py::test_import_inspect_ranks_the_run_with_the_same_scores"
    ),
    "benger metrics --db run.db --metrics all": (
        "minutes of the real embedding encoders: "
        "tests/metrics/test_store_cli.py::test_metrics_command_persists_and_resumes"
    ),
    "benger import-reviews reviews.csv --db run.db": (
        "reviews name generation ids of your own run: "
        "tests/validate/test_own_reviews.py::test_validate_judge_on_own_reviews"
    ),
    "benger validate-judge CONFIG --db run.db --corpus my-cases": (
        "needs your reviews imported first: tests/validate/test_own_reviews.py::test_validate_judge_on_own_reviews"
    ),
    "benger worker --queues generation,judging": (
        "a Celery worker on the shared Redis server: tests/workers/test_coordination.py::test_worker_command"
    ),
}


def test_readme_line_extraction() -> None:
    page = "# t\n\n```bash\nbenger a   # why\n\nbenger b ; benger c\n```\n\n```\nnot bash\n```\n"
    assert readme_lines(page) == [(4, "benger a"), (6, "benger b ; benger c")]


def test_every_readme_line_has_an_entry() -> None:
    lines = [command for _, command in readme_lines(README.read_text(encoding="utf-8"))]
    assert not set(RUN) & set(NOT_RUN)
    assert sorted(set(lines) - set(RUN) - set(NOT_RUN)) == [], "README lines without an entry in this test"
    assert sorted((set(RUN) | set(NOT_RUN)) - set(lines)) == [], "entries for lines the README no longer has"
    for entry in RUN.values():
        assert set(entry.after) <= set(lines)


def _namespace() -> list[str]:
    """A private network namespace with its own loopback, or nothing where unshare is not allowed."""
    probe = ["unshare", "-rn", "ip", "link", "set", "lo", "up"]
    if shutil.which("unshare") and subprocess.run(probe, capture_output=True, check=False).returncode == 0:
        return ["unshare", "-rn"]
    return []


def _wait_for(port: int) -> str:
    return f"for i in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 0.1; done"


def _script(command: str) -> str:
    """The line after its prerequisites, in one shell that stops at the first failure and ends its servers."""
    entry = RUN[command]
    lines = ["set -e -o pipefail", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT"]
    for before in (*entry.after, command):
        port = RUN[before].serves
        if port is None:
            lines.append(before)
        else:  # a server: backgrounded (a README line that does not say `&` itself blocks), then waited for
            lines += [before if before.endswith("&") else f"{before} &", _wait_for(port)]
    if entry.serves is not None:
        lines.append(
            f"{sys.executable} -c \"import urllib.request as u; print(u.urlopen('http://127.0.0.1:{entry.serves}"
            f"{entry.fetch}', timeout=30).read().decode()[:4000])\""
        )
    return "\n".join(lines) + "\n"


def _clone(root: Path, release: Path | None) -> Path:
    """The repository's files as a fresh clone has them (tracked and new, not ignored), beside ../shared."""
    clone = root / "benger"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    if release is not None:
        (root / "shared").mkdir()
        (root / "shared" / "benger-release").symlink_to(release)
    write_placeholders(clone)
    return clone


def _run_line(command: str, tmp_path: Path, release: Path | None) -> None:
    entry = RUN[command]
    clone = _clone(tmp_path, release)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(clone / "src"),
        "COLUMNS": "200",
    }
    env.pop("BENGER_DB", None)
    namespace = _namespace()
    if not namespace and ("&" in "".join((*entry.after, command)) or entry.serves):
        pytest.skip("needs a private network namespace (unshare -rn) for the README's fixed ports")
    script = ("ip link set lo up\n" if namespace else "") + _script(command)
    process = subprocess.Popen(
        [*namespace, "bash", "-c", script], cwd=clone, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        stdin=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:  # the one prompt of a README line: create-user's password (twice where it asks to confirm)
        output, _ = process.communicate(PASSWORD * 2, timeout=entry.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        pytest.fail(f"README line {command!r} did not finish in {entry.timeout} s:\n{output[-4000:]}")
    assert process.returncode == 0, f"README line {command!r} failed (exit {process.returncode}):\n{output[-4000:]}"
    for text in entry.expect:
        assert text in output, f"README line {command!r} did not print {text!r}:\n{output[-4000:]}"


PLAIN = [c for c, e in RUN.items() if not e.release]
WITH_RELEASE = [c for c, e in RUN.items() if e.release]


@pytest.mark.slow
@pytest.mark.parametrize("command", PLAIN)
def test_readme_line_runs(command: str, tmp_path: Path) -> None:
    _run_line(command, tmp_path, None)


@pytest.mark.slow
@pytest.mark.parametrize("command", WITH_RELEASE)
def test_readme_line_runs_on_the_release(command: str, tmp_path: Path, release_dir: Path) -> None:
    _run_line(command, tmp_path, release_dir)
