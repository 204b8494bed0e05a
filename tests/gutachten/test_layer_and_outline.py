"""benger.gutachten stays a low layer, and any well-formed outline parses back to its own tree."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import benger.gutachten
from benger.gutachten._structure import parse_structure

ALLOWED = set(sys.stdlib_module_names) | {"__future__", "pydantic", "yaml", "benger.errors", "benger.gutachten"}
ALLOWED |= {"benger._yaml"}  # the one YAML reader of every loader (rank 0, beside benger.errors)


def test_gutachten_imports_only_stdlib_pydantic_yaml() -> None:
    package = Path(benger.gutachten.__file__).parent
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert any(name == a or name.startswith(a + ".") for a in ALLOWED), f"{path.name} imports {name}"


KINDS = [
    lambda i: f"{chr(ord('A') + i)}.",
    lambda i: f"{['I', 'II', 'III'][i]}.",
    lambda i: f"{i + 1}.",
    lambda i: f"{chr(ord('a') + i)})",
    lambda i: f"{chr(ord('a') + i) * 2})",
    lambda i: f"({i + 1})",
]
Tree = list  # a node is the list of its children


def _trees(depth: int) -> st.SearchStrategy[Tree]:
    leaf: st.SearchStrategy[Tree] = st.just([])
    if depth == len(KINDS):
        return leaf
    return st.one_of(leaf, st.lists(_trees(depth + 1), min_size=2, max_size=3))


def _render(children: Tree, depth: int, out: list[tuple[str, int]]) -> None:
    for i, child in enumerate(children):
        out.append((KINDS[depth](i), depth + 1))
        _render(child, depth + 1, out)


@settings(max_examples=150, deadline=None)
@given(root=st.lists(_trees(1), min_size=2, max_size=3))
def test_rendered_outlines_parse_back(root: Tree) -> None:
    expected: list[tuple[str, int]] = []
    _render(root, 0, expected)
    text = "".join(f"{marker} Überschrift\n\nHier prüft A den Fall.\n\n" for marker, _ in expected)
    s = parse_structure(text)
    assert [(h.marker, h.depth) for h in s.headings] == expected
    assert s.problems == []
    assert s.depth == max(d for _, d in expected)
