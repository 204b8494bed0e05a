"""Every text of the workbench has an English entry: template literals, server messages, notices, role names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from benger.web._i18n import EN
from benger.web.workbench._common import ROLE_LABELS

WEB = Path(__file__).resolve().parents[2] / "src" / "benger" / "web"


def test_every_workbench_template_text_has_a_translation() -> None:
    seen, missing = 0, []
    for path in sorted((WEB / "templates" / "workbench").glob("*.html")):
        for double, single in re.findall(r"""_\((?:"([^"]+)"|'([^']+)')\)""", path.read_text("utf-8")):
            seen += 1
            if (double or single) not in EN:
                missing.append(f"{path.name}: {double or single}")
    assert seen > 80 and missing == []


def test_every_workbench_message_and_notice_has_a_translation() -> None:
    found = []
    for path in [*(WEB / "workbench").glob("*.py"), *WEB.glob("_org*.py")]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            name = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if name in ("StudyError", "flash") and isinstance(node, ast.Call):
                args = node.args[1:] if name == "flash" else node.args
                assert isinstance(args[0], ast.Constant), f"{path.name}:{node.lineno}"
                found.append(str(args[0].value))
    assert len(found) > 12
    assert [t for t in found if t not in EN] == []
    for text in found:  # the same placeholders on both sides
        assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", EN[text])), text
    assert all(label in EN for label in ROLE_LABELS.values())
