"""The results viewer over a small hand-built store: every page type, the numbers against the CLI's CSV, the
solution grid, Browse filters and paging, the access rules, the static bundle and the i18n table."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from viewer_helpers import DIMS, ViewerWorld, build, share_dims
from web_helpers import login

from benger.cli import app as cli_app
from benger.cli._app import _register_commands
from benger.web.access import Access, Principal
from benger.web.viewer import create_viewer_app, write_bundle
from benger.web.viewer._reader import BrowseFilter, ResultsReader
from benger.web.viewer._render import EN, HERE
from benger.web.viewer._words import german


def _cli(args: list[str]) -> object:
    _register_commands()
    return CliRunner().invoke(cli_app, args)


@pytest.fixture(scope="module")
def client(vw: ViewerWorld) -> Iterator[TestClient]:
    with TestClient(create_viewer_app(vw.store, Principal.local())) as c:
        yield c


class Cells(HTMLParser):
    """The ``data-field``/``data-value`` cells of every leaderboard row, keyed by the row's data attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "tr" and "data-system" in a:
            self.rows.append({"system": a["data-system"], "corpus": a["data-corpus"], "jcfg": a["data-judge-cfg"]})
        elif tag == "td" and "data-field" in a and self.rows:
            self.rows[-1][a["data-field"]] = a["data-value"]
            if "data-high" in a:
                self.rows[-1]["ci_high"] = a["data-high"]


def test_leaderboard_numbers_equal_the_cli_csv(vw: ViewerWorld, client: TestClient, tmp_path: Path) -> None:
    result = _cli(["leaderboard", "--db", str(vw.store.url.removeprefix("sqlite:///")), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    expected = list(csv.DictReader(io.StringIO((tmp_path / "leaderboard.csv").read_text(encoding="utf-8"))))
    page = client.get("/view/")
    assert page.status_code == 200
    parser = Cells()
    parser.feed(page.text)
    assert len(parser.rows) == len(expected) == 6  # vcase: 2 systems x 2 judges; vitem: 2 systems, no judge
    shown = {(r["system"], r["corpus"], r["jcfg"]): r for r in parser.rows}
    fields = (
        "rank",
        "n",
        "mean",
        "ci_low",
        "ci_high",
        "mean_grade_points",
        "pass_rate",
        "accuracy",
        "failed",
        "excluded",
        "truncated",
        "unscored",
        "unjudged",
    )
    for row in expected:
        cells = shown[(row["system"], row["corpus"], row["judge_config_hash"])]
        for f in fields:
            assert cells[f] == row[f], (row["system"], row["corpus"], f)
    # hand-computed: alpha on vcase by judge-x: repeat means c1 (80 + 70) / 2 = 75, c2 (60 + 50) / 2 = 55
    alpha = shown[("alpha", "vcase", "cfg-judge-x")]
    assert float(alpha["mean"]) == pytest.approx((75 + 55) / 2)
    assert alpha["truncated"] == "1" and alpha["unscored"] == "1"
    assert 'href="/view/browse?system=alpha&amp;corpus=vcase"' in page.text
    # the judge's validation status is the row's (benger.analysis.leaderboard.judge_status), as in the CSV: the
    # CSV's words on the English page, their German (benger.web.viewer._words) on the German one
    english = client.get("/view/", params={"lang": "en"}).text
    for row in expected:
        if row["judge_status"]:
            assert f"Validierung des Judges:</strong> {german(row['judge_status'])}" in page.text
            assert f"Judge validation status:</strong> {row['judge_status']}" in english


def test_solution_page_shows_every_dimension_judgement_and_review(client: TestClient, vw: ViewerWorld) -> None:
    page = client.get("/view/solution", params={"kind": "human_solution", "id": "hs-1"})
    assert page.status_code == 200
    text = page.text
    for key in DIMS:
        assert f'data-dimension="{key}"' in text
        assert f"Begründung {key} von judge-x #0" in text
    assert "Gesamtwürdigung von judge-x #0" in text
    for grader in ("grader_01", "grader_02", "grader_03", "creator_01"):
        assert grader in text
    assert "Kommentar von grader_02" in text
    # judge 70 - mean blind (50 + 60 + 40) / 3 = 20; judge - creator 70 - 90 = -20
    total = re.search(r'<tr class="total">.*?</tr>', text, re.S)
    assert total is not None
    diffs = re.findall(r'<td class="diff">([^<]*)</td>', total.group(0))
    assert diffs == ["20,0", "-20,0"]
    assert "SUCHWORT-BLAU" in text
    assert 'class="g-heading"' in text and 'class="g-obersatz"' in text
    assert re.search(r'class="g-norm[^"]*" title="§ 433 Abs. 1 S. 1 BGB"', text)
    assert "Sachverhalt 1" in text and "Musterlösung" in text


def test_generation_page_has_finish_reason_tokens_and_repeats(client: TestClient) -> None:
    text = client.get("/view/solution", params={"kind": "generation", "id": "g-alpha-c1"}).text
    assert "length" in text and "1200" in text and "345" in text
    for repeat in ("#0", "#1", "#2"):
        assert f"falloesung@1 · cfg-judg · {repeat}" in text
    assert "no JSON object in the reply" in text  # the unscored repeat, shown, not averaged


def test_browse_filters_search_and_paging(vw: ViewerWorld, client: TestClient) -> None:
    reader = ResultsReader(Access(vw.store, Principal.local()))
    everything = reader.browse(BrowseFilter())
    assert everything.total == 9  # 8 generations + hs-1 (hs-live hidden)
    assert reader.browse(BrowseFilter(system="beta", corpus="vcase")).total == 2
    assert {r.id for r in reader.browse(BrowseFilter(flag="truncated")).rows} == {"g-alpha-c1"}
    assert {r.id for r in reader.browse(BrowseFilter(flag="unscored")).rows} == {"g-alpha-c1"}
    assert {r.id for r in reader.browse(BrowseFilter(q="suchwort-blau")).rows} == {"g-alpha-c1", "g-alpha-c2", "hs-1"}
    assert {r.id for r in reader.browse(BrowseFilter(area="Strafrecht")).rows} == {"g-alpha-c2", "g-beta-c2"}
    # judge-y only: alpha c1 = 90, alpha c2 = 70, beta c1 = 60, beta c2 = 40
    ranged = reader.browse(BrowseFilter(judge="judge-y", min_score=60, max_score=75))
    assert {(r.id, r.score) for r in ranged.rows} == {("g-alpha-c2", 70.0), ("g-beta-c1", 60.0)}
    pages = [reader.browse(BrowseFilter(page=n), page_size=4) for n in (1, 2, 3, 4)]
    assert [p.pages for p in pages] == [3, 3, 3, 3] and pages[3].page == 3  # past the end: the last page
    ids = [r.id for p in pages[:3] for r in p.rows]
    assert len(ids) == len(set(ids)) == 9
    html = client.get("/view/browse", params={"system": "alpha", "q": "SUCHWORT"}).text
    assert "2 Treffer" in html and 'data-id="g-alpha-c1"' in html


def test_running_study_is_hidden_without_the_organiser_role(vw: ViewerWorld, tmp_path: Path) -> None:
    local = ResultsReader(Access(vw.store, Principal.local()))
    organiser = ResultsReader(Access(vw.store, Principal.local(organiser=True)))
    assert local.solution("human_solution", "hs-live") is None
    assert "r-live" not in {r.review_id for r in local.visible_reviews()}
    assert organiser.solution("human_solution", "hs-live") is not None
    assert organiser.browse(BrowseFilter()).total == 10
    with TestClient(create_viewer_app(vw.store, Principal.local())) as c:
        assert c.get("/view/solution", params={"kind": "human_solution", "id": "hs-live"}).status_code == 404
        assert "GEHEIM-LAUFEND" not in c.get("/view/browse", params={"q": "GEHEIM"}).text


def test_compare_validation_and_errors_pages_render(client: TestClient) -> None:
    text = client.get("/view/compare", params={"corpus": "vcase", "task": "c1", "a": "g-alpha-c1", "b": "hs-1"}).text
    assert "Nebeneinander" in text and text.count('class="grid"') == 2
    assert client.get("/view/compare", params={"corpus": "vcase", "task": "nope"}).status_code == 404
    validation = client.get("/view/validation")
    assert validation.status_code == 200 and "vcase" in validation.text
    errors = client.get("/view/errors", params={"lang": "en"})
    assert errors.status_code == 200 and "Error analysis" in errors.text and 'lang="en"' in errors.text


def test_viewer_under_serve_is_for_organisers_only(vw: ViewerWorld, tmp_path: Path) -> None:
    from study_helpers import user

    from benger.web import create_app

    for name, role in (("orga", "admin"), ("blind", "grader"), ("teilnehmer", "participant")):
        user(vw.store, name, role)
    app = create_app(vw.store)
    with TestClient(app) as anonymous:
        resp = anonymous.get("/view/", follow_redirects=False)
        assert (resp.status_code, resp.headers["location"]) == (303, "/login")
    for name, status in (("blind", 403), ("teilnehmer", 403), ("orga", 200)):
        with TestClient(app) as c:
            login(c, name)
            assert c.get("/view/").status_code == status, name
            assert c.get("/view/solution", params={"kind": "human_solution", "id": "hs-1"}).status_code == status
    with TestClient(app) as c:  # the organiser sees the running study
        login(c, "orga")
        assert c.get("/view/solution", params={"kind": "human_solution", "id": "hs-live"}).status_code == 200


def test_bundle_links_resolve_and_nothing_is_external(vw: ViewerWorld, tmp_path: Path) -> None:
    out = tmp_path / "bundle"
    counts = write_bundle(vw.store, out)
    assert counts["solutions"] == 9 and counts["bytes"] > 0
    files = list(out.rglob("*.html"))
    assert (out / "de" / "index.html").is_file() and (out / "en" / "index.html").is_file()
    for page in files:
        html = page.read_text(encoding="utf-8")
        assert not re.search(r"""(?:src|href)=["'](?:https?:)?//""", html), page
        for target in re.findall(r'(?:src|href)="(?!data:)([^"#]+)', html):
            assert (page.parent / target).resolve().is_file(), (page, target)
    assert "GEHEIM-LAUFEND" not in "".join(p.read_text(encoding="utf-8") for p in files)


def test_every_viewer_string_has_english() -> None:
    pattern = re.compile(r"""_\(\s*["']([^"']+)["']\s*\)""")
    from benger.web._i18n import EN as STUDY

    missing = []
    for path in sorted((HERE / "templates").glob("*.html")):
        for text in pattern.findall(path.read_text(encoding="utf-8")):
            if text not in EN and text not in STUDY:
                missing.append(f"{path.name}: {text}")
    for label in (
        "Rangliste",
        "Lösungen",
        "Judge-Validierung",
        "Fehleranalyse",
        "Vergleich",
        "Lösung",
        "Seite nicht gefunden",
    ):
        if label not in EN:
            missing.append(label)
    assert not missing


def test_review_dimension_shares_are_on_the_grid() -> None:
    assert sum(share_dims(0.5).values()) == 50


def _store_copy(vw: ViewerWorld, folder: Path) -> Path:
    """A copy of the viewer world's store in ``folder`` (SQLite's backup API: the WAL is included)."""
    import sqlite3

    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / "copy.db"
    with sqlite3.connect(vw.store.url.removeprefix("sqlite:///")) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    return copy


def test_bundle_into_the_stores_folder_deletes_nothing(vw: ViewerWorld, tmp_path: Path) -> None:
    """The fresh-user attack: ``--bundle`` naming the store's own folder deleted the store. Now the bundle is
    written beside the store and the user's files (docs/report.md: benger never touches a file it did not write);
    a file of a page's name is refused, exit 2, one message naming it, every file as it was."""
    db = _store_copy(vw, tmp_path / "mine")
    (tmp_path / "mine" / "notes.txt").write_text("meine Notizen", encoding="utf-8")
    (tmp_path / "mine" / "index.html").write_text("<p>meine Seite</p>", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in (tmp_path / "mine").iterdir()}
    result = _cli(["view", "--db", str(db), "--bundle", str(tmp_path / "mine")])
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    output = result.output  # type: ignore[attr-defined]
    assert f"{tmp_path / 'mine' / 'index.html'}: a file benger did not write" in output, output
    assert "Traceback" not in output
    assert {p.name: p.read_bytes() for p in (tmp_path / "mine").iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]  # no staging folder left beside it
    (tmp_path / "mine" / "index.html").unlink()
    del before["index.html"]
    assert _cli(["view", "--db", str(db), "--bundle", str(tmp_path / "mine")]).exit_code == 0  # type: ignore[attr-defined]
    assert all((tmp_path / "mine" / name).read_bytes() == data for name, data in before.items())
    file = tmp_path / "mine" / "notes.txt"
    refused = _cli(["view", "--db", str(db), "--bundle", str(file)])
    assert refused.exit_code == 2 and "a file, not a folder" in refused.output  # type: ignore[attr-defined]


def test_a_bundle_is_rewritten_in_place_keeping_files_benger_did_not_write(vw: ViewerWorld, tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_bundle(vw.store, out, langs=("de", "en"))
    assert (out / ".benger-manifest.json").is_file()  # written through benger.outputs.output_folder
    (out / "README-mine.txt").write_text("eigene Datei", encoding="utf-8")
    write_bundle(vw.store, out, langs=("de",))  # a bundle benger wrote: accepted
    assert (out / "README-mine.txt").read_text(encoding="utf-8") == "eigene Datei"
    assert (out / "de" / "index.html").is_file()
    assert not any((out / "en").rglob("*.html"))  # pages of the old bundle that the new one lacks are removed
    (tmp_path / "empty").mkdir()
    assert write_bundle(vw.store, tmp_path / "empty", langs=("de",))["solutions"] == 9  # an empty folder is fine


def test_a_row_without_pass_values_reads_unknown_with_the_reason(tmp_path: Path) -> None:
    """Issue 24: the vitem generations judged under a user's own rubric with no pass value stored: the Pass cell
    says "unbekannt" and the row's pass_note, not a dash that reads as "no score"."""
    from viewer_helpers import _judgement

    world = build(tmp_path)
    try:
        for system in ("alpha", "beta"):
            for item in ("i1", "i2"):
                j = _judgement("generation", f"g-{system}-{item}", "judge-x", 0, 0.8)
                world.store.save_judgement(j.model_copy(update={"rubric_id": "kurzfragen@1+abcdef12", "passed": None}))
        with TestClient(create_viewer_app(world.store, Principal.local())) as c:
            page = c.get("/view/")
            english = c.get("/view/", params={"lang": "en"}).text
    finally:
        world.store.close()
    assert page.status_code == 200
    csv_note = (
        "pass unknown: the judgements under rubric kurzfragen@1+abcdef12 carry no pass value (a rubric without a "
        "pass rule, or judged before it had one) and benger knows no rule to derive one"
    )
    assert english.count(f'<span data-field="pass_note" title="{csv_note}">unknown ({csv_note})</span>') == 2
    note = (  # its German (benger.web.viewer._words)
        "Bestehen unbekannt: die Urteile unter der Rubrik kurzfragen@1+abcdef12 tragen keinen Bestehenswert (eine "
        "Rubrik ohne Bestehensregel, oder bewertet, bevor sie eine hatte), und benger kennt keine Regel, ihn abzuleiten"
    )
    assert page.text.count(f'<span data-field="pass_note" title="{note}">unbekannt ({note})</span>') == 2


def test_validation_page_never_calls_a_stores_judge_the_papers(tmp_path: Path) -> None:
    # the demo store on the release showed its local judge as "qwen2.5-coder-0.5b-instruct (judge) (paper)": the
    # viewer's validation table reused validate-judge's " (paper)" for every judge beside the primary one
    from viewer_helpers import _judgement

    world = build(tmp_path)
    world.store.save_judgement(_judgement("human_solution", "hs-1", "judge-y", 0, 0.4))
    with TestClient(create_viewer_app(world.store, Principal.local())) as c:
        text = c.get("/view/validation", params={"lang": "en"}).text
    world.store.close()
    cells = re.findall(r"<t[hd][^>]*>\s*(judge-[xy][^<]*)<", text)
    assert sorted(c.strip() for c in cells) == ["judge-x", "judge-y"], cells
