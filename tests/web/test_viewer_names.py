"""Judges by their display names on every page, served and in the bundle: one map (``_names.judge_name``); the
bundle's validation table showed the store keys (``cfgB_opus``) where a reader expects the model (Opus-4.7)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient
from viewer_helpers import _judgement, build

from benger.judge._released import PAPER_JUDGE_NAMES
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app, write_bundle
from benger.web.viewer._names import JUDGE_NAMES, LABELS, judge_name


def test_the_names_are_the_reports() -> None:
    from benger.report._fmt import JUDGE_LABELS

    assert set(LABELS) == set(JUDGE_LABELS) and set(PAPER_JUDGE_NAMES) <= set(LABELS)
    for key, label in LABELS.items():  # the report's label less its English note
        assert JUDGE_LABELS[key].removesuffix(" (primary)").removesuffix(" (legacy)") == label
    assert judge_name("gpt-5.4-mini") == "GPT-5.4-mini" and judge_name("cfgB_opus") == "Opus-4.7"
    assert judge_name("judge-x") == "judge-x" and judge_name(None) == "–"
    assert JUDGE_NAMES["qwen"] == "Qwen3.5-397B-A17B"


def _row_heads(html: str) -> list[str]:
    table = html[html.index('<table class="validation">') :]
    table = table[: table.index("</table>")]
    return re.findall(r'<th scope="row"[^>]*>([^<]*)</th>', table)


def test_served_and_bundled_pages_name_the_judges_alike(tmp_path: Path) -> None:
    world = build(tmp_path)
    store = world.store
    try:
        store.save_judgement(_judgement("human_solution", "hs-1", "cfgB_opus", 0, 0.4))
        store.save_judgement(_judgement("generation", "g-beta-c1", "cfgB_opus", 0, 0.4))
        with TestClient(create_viewer_app(store, Principal.local())) as c:
            served = {
                "validation": c.get("/view/validation", params={"lang": "en"}).text,
                "solution": c.get("/view/solution", params={"kind": "human_solution", "id": "hs-1"}).text,
                "board": c.get("/view/").text,
                "browse": c.get("/view/browse").text,
            }
        out = tmp_path / "site"
        write_bundle(store, out)
    finally:
        store.close()
    bundled = (out / "en" / "validation.html").read_text(encoding="utf-8")
    assert _row_heads(served["validation"]) == _row_heads(bundled) == ["judge-x", "Opus-4.7"]
    for html in (served["validation"], bundled):
        assert "<figcaption>Opus-4.7</figcaption>" in html and '<title id="sc-vcase-1-t">Opus-4.7</title>' in html
    solution = next(p for p in (out / "de" / "solution").iterdir() if "hs-1" in p.name).read_text(encoding="utf-8")
    for html in (served["solution"], solution):
        assert "Judge: Opus-4.7<br>" in html and "Judge: cfgB_opus" not in html
    for html in (served["board"], (out / "de" / "index.html").read_text(encoding="utf-8")):
        assert re.search(r'<h2 id="group-\d">Judge: Opus-4\.7</h2>', html) and "Judge: cfgB_opus" not in html
    assert '<option value="cfgB_opus">Opus-4.7</option>' in served["browse"]
