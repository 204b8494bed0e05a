"""Corpus and rubric uploads in the workbench: a file with one bad line shows the importer's message naming the
line and the field, and nothing is stored (no corpus, no task, no audit entry); a good file is imported under
the organisation; the release folder as a .tar.gz and a .zip archive imports its two corpora; unsafe archives
are refused before anything is unpacked."""

from __future__ import annotations

import html
import io
import re
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from study_helpers import user
from web_helpers import csrf_of, login
from workbench_world import dump

from benger.store import Store, open_store
from benger.web import create_app
from benger.web._orgscope import create_organisation

GOOD = '{"task_id": "f1", "area": "Zivilrecht", "facts": "A kauft ein Rad.", "reference": "§ 433 II BGB."}\n'
CSV_HEAD = "task_id,area,facts,reference\n"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Store, TestClient, str]]:
    store = open_store(tmp_path / "upload.db")
    owner = user(store, "olga", "participant")
    org = create_organisation(store, "Lehrstuhl", owner)
    client = login(TestClient(create_app(store)), "olga")
    yield store, client, f"/orgs/{org}"
    store.close()


def _upload(client: TestClient, base: str, name: str, data: bytes, **form: str) -> tuple[int, list[tuple[str, str]]]:
    resp = client.post(
        f"{base}/corpora",
        data={"csrf_token": csrf_of(client, base), **form},
        files={"file": (name, data)},
        follow_redirects=True,
    )
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td></tr>", resp.text.split('id="problems"')[-1])
    problems = [(html.unescape(w), html.unescape(m)) for w, m in rows] if 'id="problems"' in resp.text else []
    return resp.status_code, problems


@pytest.mark.parametrize(
    ("name", "content", "where", "message"),
    [
        ("faelle.jsonl", GOOD + GOOD.replace("f1", "f2").replace("Zivilrecht", "Kirchenrecht"), "line 2, field 'area'",
         "unknown area 'Kirchenrecht'"),
        ("faelle.jsonl", GOOD + '{"task_id": "f2", "area": "Strafrecht", "facts": "x"}\n', "line 2, field 'reference'",
         "required field missing"),
        ("faelle.jsonl", GOOD + "{kaputt\n" + GOOD.replace("f1", "f3"), "line 2", "invalid JSON"),
        ("faelle.jsonl", GOOD + GOOD, "line 2, field 'task_id'", "duplicate task_id 'f1' (first used on line 1)"),
        ("faelle.csv", CSV_HEAD + "f1,Zivilrecht,Sachverhalt,Lösung\nf2,Zivilrecht,nur drei\n", "line 3",
         "row has 3 cells but the header has 4 columns"),
        ("faelle.csv", CSV_HEAD + "f1,Zivilrecht,Sachverhalt,Lösung\nf2,Mondrecht,S,L\n", "line 3, field 'area'",
         "unknown area 'Mondrecht'"),
        ("demo.jsonl", GOOD, "demo.jsonl", "corpus name 'demo' is taken"),
        ("faelle.txt", GOOD, "faelle.txt", "unsupported file type"),
    ],
)  # fmt: skip
def test_a_bad_line_is_named_and_nothing_is_stored(
    site: tuple[Store, TestClient, str], name: str, content: str, where: str, message: str
) -> None:
    store, client, base = site
    before = dump(store)
    status, problems = _upload(client, base, name, content.encode("utf-8"))
    assert status == 422
    assert any(w == where and message in m for w, m in problems), problems
    assert dump(store) == before


def test_a_good_file_is_imported_and_a_changed_one_needs_replace(site: tuple[Store, TestClient, str]) -> None:
    store, client, base = site
    two = GOOD + GOOD.replace("f1", "f2")
    assert _upload(client, base, "faelle.jsonl", two.encode()) == (200, [])
    assert store.corpus_names() == ["lehrstuhl/faelle"]
    assert [t.task_id for t in store.load_corpus("lehrstuhl/faelle").tasks] == ["f1", "f2"]
    assert _upload(client, base, "faelle.jsonl", two.encode()) == (200, [])  # the same again: a no-op
    before = dump(store)
    status, problems = _upload(client, base, "faelle.jsonl", GOOD.encode())
    assert status == 422 and "already in the store (2 tasks)" in problems[0][1]
    assert dump(store) == before
    assert _upload(client, base, "faelle.jsonl", GOOD.encode(), replace="1") == (200, [])
    assert [t.task_id for t in store.load_corpus("lehrstuhl/faelle").tasks] == ["f1"]
    page = client.get(f"{base}/audit").text
    assert page.count("<td>import</td>") == 3  # added, unchanged, replaced; the refused one left no entry


def _archive(root: Path, kind: str, top: str = "benger-release", extra: tuple[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    files = [p for p in sorted(root.rglob("*")) if p.is_file()]
    if kind == "zip":
        with zipfile.ZipFile(buffer, "w") as zipped:
            for path in files:
                zipped.write(path, f"{top}/{path.relative_to(root)}")
            if extra:
                zipped.writestr(*extra)
    else:
        with tarfile.open(fileobj=buffer, mode="w:gz") as tarred:
            for path in files:
                tarred.add(path, f"{top}/{path.relative_to(root)}")
            if extra:
                info = tarfile.TarInfo(extra[0])
                info.size = len(extra[1])
                tarred.addfile(info, io.BytesIO(extra[1]))
    return buffer.getvalue()


@pytest.mark.parametrize("kind", ["tar.gz", "zip"])
def test_the_release_as_an_archive(site: tuple[Store, TestClient, str], release_dir: Path, kind: str) -> None:
    store, client, base = site
    assert _upload(client, base, f"release.{kind}", _archive(release_dir, kind)) == (200, [])
    assert store.corpus_names() == ["lehrstuhl/benchathon", "lehrstuhl/grundprinzipien"]
    listing = client.get(f"{base}/corpora").text
    assert ">benchathon</a>" in listing and ">grundprinzipien</a>" in listing


def test_a_broken_release_file_is_named_inside_the_archive(
    site: tuple[Store, TestClient, str], release_dir: Path, tmp_path: Path
) -> None:
    store, client, base = site
    copy = tmp_path / "copy"
    for path in release_dir.rglob("*"):
        if path.is_file():
            (copy / path.relative_to(release_dir)).parent.mkdir(parents=True, exist_ok=True)
            (copy / path.relative_to(release_dir)).write_bytes(path.read_bytes())
    (copy / "data/interim/grundprinzipien.json").write_text("[{", encoding="utf-8")
    before = dump(store)
    status, problems = _upload(client, base, "release.tar.gz", _archive(copy, "tar.gz"))
    assert status == 422 and problems[0][0].startswith("data/interim/grundprinzipien.json"), problems
    assert dump(store) == before


@pytest.mark.parametrize(
    ("kind", "member", "message"),
    [
        ("zip", "../ausserhalb.txt", "points outside the archive"),
        ("tar.gz", "/etc/absolut.txt", "points outside the archive"),
        ("zip", "nur-eine-datei.txt", "holds no BenGER release"),
    ],
)
def test_unsafe_or_empty_archives_are_refused(
    site: tuple[Store, TestClient, str], tmp_path: Path, kind: str, member: str, message: str
) -> None:
    store, client, base = site
    empty = tmp_path / "leer"
    empty.mkdir()
    before = dump(store)
    status, problems = _upload(client, base, f"x.{kind}", _archive(empty, kind, extra=(member, b"x")))
    assert status == 422 and message in problems[0][1], problems
    assert dump(store) == before
    assert not (tmp_path.parent / "ausserhalb.txt").exists()


def test_a_bad_rubric_names_its_field_and_a_good_one_is_kept(site: tuple[Store, TestClient, str]) -> None:
    store, client, base = site
    before = dump(store)
    source = Path(__file__).resolve().parents[2] / "src/benger/judge/rubrics/falloesung.yaml"
    bad = source.read_text(encoding="utf-8").replace("max: 20", "max: 21", 1)
    resp = client.post(
        f"{base}/rubrics", data={"csrf_token": csrf_of(client, base)}, files={"file": ("mein.yaml", bad.encode())}
    )
    assert resp.status_code == 422
    assert "<td>mein.yaml, field &#39;dimensions[0].bands&#39;</td>" in resp.text
    assert "the bands end at 20, below the maximum 21" in resp.text
    assert dump(store) == before
    good = client.post(
        f"{base}/rubrics",
        data={"csrf_token": csrf_of(client, base)},
        files={"file": ("mein.yaml", source.read_bytes())},
    )
    assert good.status_code == 200 and "Ergebnisrichtigkeit" in good.text
