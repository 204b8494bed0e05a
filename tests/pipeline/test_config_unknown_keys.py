"""Issue 33, item 6: a misspelt key of a run config is named first, on its own line.

Observed: a block-style system with ``modle: stub`` reported "field 'systems[0].model': Field required" without
naming ``modle``; a misspelt ``sytems:`` on line 3 (its list below it) was reported as line 4.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.errors import InputError
from benger.pipeline import load_run_config

HEAD = "corpora: [demo-grundprinzipien]\n"


@pytest.mark.parametrize(
    ("text", "line", "field", "says"),
    [
        (HEAD + "systems:\n  - name: s\n    provider: stub\n    modle: stub\n", 5, "systems[0].modle",
         "unknown key 'modle'"),
        (HEAD + "systems:\n  - {name: s, provider: stub, modle: stub}\n", 3, "systems[0].modle", "unknown key 'modle'"),
        (HEAD + "judges:\n  - name: j\n    provider: stub\n    model: j\n    temprature: 0\n", 6,
         "judges[0].temprature", "unknown key 'temprature'"),
        (HEAD + "\nsytems:\n  - {name: s, provider: stub, model: stub}\n", 3, "sytems", "unknown key 'sytems'"),
        (HEAD + "sytems:\n  - name: s\n", 2, "sytems", "unknown key 'sytems'"),
        (HEAD + "filters:\n  sytems: [s]\n", 3, "filters.sytems", "unknown key 'sytems'"),
        (HEAD + "systems:\n  - name: s\n    provider: stub\n", 3, "systems[0].model", "Field required"),  # no typo
    ],
)  # fmt: skip
def test_an_unknown_key_is_named_on_its_line(tmp_path: Path, text: str, line: int, field: str, says: str) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_run_config(path)
    assert (caught.value.line, caught.value.field) == (line, field), str(caught.value)
    assert says in caught.value.reason
    if says.startswith("unknown key"):  # the line shown is the one holding the misspelt key
        assert f"{field.split('.')[-1]}:" in text.splitlines()[line - 1]
