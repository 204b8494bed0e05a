"""The Compare page's matrix (dimension x solution, mean per judge): a dimension a judgement did not score is left
out of that judge's mean, never counted as 0, and a dimension no judgement of the judge scored shows "–".

Before: ``_pages.compare`` took ``dimensions.get(k, 0.0)``, so judge-z's Vollständigkeit below (6,0 in one of its
two judgements, absent in the other) was shown as 3,0.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from viewer_helpers import DIMS, build

from benger.judge import grade_points, passed
from benger.schema import Judgement
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app


def _partial(repeat: int, dims: dict[str, float]) -> Judgement:
    total = sum(dims.values())
    return Judgement(
        judgement_id=f"j-partial-{repeat}",
        target_kind="generation",
        target_id="g-beta-c2",
        judge="judge-z",
        judge_config_hash="cfg-judge-z",
        rubric_id="falloesung@1",
        repeat_index=repeat,
        status="scored",
        dimensions=dims,
        total=total,
        grade_points=grade_points(total),
        passed=passed(total),
    )


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    world = build(tmp_path_factory.mktemp("cmpmean"))
    # two repeats of one judge on beta's c2: Vollständigkeit only in the first, Subsumtion in neither
    world.store.save_judgement(_partial(0, {"ergebnisrichtigkeit": 10.0, "vollstaendigkeit": 6.0}))
    world.store.save_judgement(_partial(1, {"ergebnisrichtigkeit": 14.0}))
    with TestClient(create_viewer_app(world.store, Principal.local())) as c:
        yield c
    world.store.close()


def _column(html: str, judge: str) -> dict[str, str]:
    """The matrix column of ``judge`` on beta's solution: row header -> cell text."""
    table = re.search(r'<table class="matrix">.*?</table>', html, re.S)
    assert table is not None
    heads = [re.sub(r"<[^>]+>", " ", h) for h in re.findall(r'<th scope="col">(.*?)</th>', table.group(0), re.S)]
    index = next(i for i, h in enumerate(heads) if "beta" in h and judge in h) - 1  # first column is "Dimension"
    out: dict[str, str] = {}
    for body in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(0).split("<tbody>")[1], re.S):
        row = re.search(r'<th scope="row">(.*?)</th>', body, re.S)
        assert row is not None
        name = re.sub(r"<[^>]+>", "", row.group(1)).strip()
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)]
        out[name] = cells[index]
    return out


def test_a_missing_dimension_is_left_out_of_the_judges_mean(client: TestClient) -> None:
    html = client.get("/view/compare", params={"corpus": "vcase", "task": "c2"}).text
    column = _column(html, "judge-z")
    assert "(n=2)" in html
    assert column["Ergebnisrichtigkeit"] == "12,0"  # (10 + 14) / 2
    assert column["Vollständigkeit und Problemerkennung"] == "6,0"  # only the first scored it: 6, not (6 + 0) / 2 = 3
    assert column["Subsumtion und Argumentation am Fall"] == "–"  # neither scored it
    assert column["Gesamt"] == "15,0"  # (16 + 14) / 2
    # the other judges, which scored every dimension, are unchanged: judge-y on beta's c2 at share 0.4
    full = _column(html, "judge-y")
    assert full["Ergebnisrichtigkeit"] == "8,0" and full["Vollständigkeit und Problemerkennung"] == "4,0"
    assert full["Gesamt"] == "40,0"
    assert len([k for k in full if k != "Gesamt"]) == len(DIMS)
