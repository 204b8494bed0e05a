"""A plain-text Falllösung reply under the default JSON format names the setting that accepts it (issue 31 item 4:
no hidden switch); a reply that is JSON, only wrong, does not."""

from __future__ import annotations

import pytest

from benger.llm._reply import MalformedOutput
from benger.pipeline._reading import parse_generation
from benger.schema import FalloesungTask

TASK = FalloesungTask(task_id="t", corpus="c", area="Zivilrecht", facts="SV", reference="ML")


@pytest.mark.parametrize(
    ("reply", "hint"),
    [
        ("A. Anspruch des K gegen V aus § 433 Abs. 1 BGB\nK könnte ...", True),
        ("<think>erst planen</think>Gutachten: Der Anspruch besteht.", True),
        ('{"text": "falscher Schlüssel"}', False),
    ],
)
def test_plain_text_reply_names_the_setting(reply: str, hint: bool) -> None:
    with pytest.raises(MalformedOutput) as info:
        parse_generation(reply, TASK)
    assert ("falloesung_format: text" in str(info.value)) is hint
    assert parse_generation(reply, TASK, plain_text=True)[0]  # with the setting the reply is the Falllösung
