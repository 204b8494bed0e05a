"""benger.registry, the one mechanism behind every kind of extension (issue 31): names, aliases, sources, twice
refused, requirements checked only on use with the extra named."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benger.errors import ConfigError, MissingDependencyError
from benger.registry import BUILTIN, RUNTIME, Registry, RegistryError, require, require_module


def _registry(builtins: list[str] | None = None) -> Registry[int]:
    calls: list[str] = []

    def register_builtins() -> None:
        calls.append("x")
        for i, name in enumerate(builtins or []):
            reg.add(name, i)

    reg: Registry[int] = Registry("widget", "benger.test-widgets-none", builtins=register_builtins)
    reg.calls = calls  # type: ignore[attr-defined]
    return reg


def test_builtins_load_once_on_first_use_and_keep_their_order() -> None:
    reg = _registry(["b", "a"])
    assert reg.calls == []  # type: ignore[attr-defined]
    reg.add("c", 9)
    assert reg.names() == ("b", "a", "c") and reg.calls == ["x"]  # type: ignore[attr-defined]
    assert [e.source for e in reg.entries()] == [BUILTIN, BUILTIN, RUNTIME]
    assert reg.get("a").value == 1 and reg.find("zzz") is None and "c" in reg
    with pytest.raises(KeyError):
        reg.get("zzz")


def test_a_name_or_alias_is_registered_once() -> None:
    reg = _registry(["a"])
    reg.add("b", 2, aliases=("bee",))
    for name in ("a", "b", "bee"):
        with pytest.raises(RegistryError, match=rf"widget '{name}' is registered twice"):
            reg.add(name, 3)
    with pytest.raises(RegistryError, match="already registered \\(by built-in\\)"):
        reg.add("a", 3)
    assert isinstance(RegistryError("x"), ConfigError) and isinstance(RegistryError("x"), ValueError)
    assert reg.get("bee").name == "b"
    reg.remove("b")
    assert reg.find("bee") is None and reg.names() == ("a",)


def test_names_are_normalised_when_the_kind_says_so() -> None:
    reg: Registry[int] = Registry("gadget", "benger.test-gadgets-none", normalise=lambda s: s.strip().lower())
    reg.add(" Open ", 1, aliases=("AI",))
    assert reg.get("OPEN").value == 1 and reg.get(" ai ").name == "open"
    with pytest.raises(RegistryError, match="non-empty name"):
        reg.add("  ", 2)


# (requirement, the error's words; None: satisfied) - pydantic and packaging are always installed
REQUIRES = [
    ("pydantic>=2", None),
    ("packaging", None),
    ("no-such-distribution-xyz>=1", "needs the optional package 'no-such-distribution-xyz>=1': pip install"),
    ("pydantic<1", "outside the tested range"),
    ("not a requirement!", "is not PEP 508"),
]


@pytest.mark.parametrize(("spec", "words"), REQUIRES)
def test_requirements_are_checked_with_the_extra_named(spec: str, words: str | None) -> None:
    if words is None:
        require("the w widget", "w", (spec,))
        return
    kind = RegistryError if "PEP 508" in words else MissingDependencyError
    with pytest.raises(kind, match=words.replace("[", r"\[").replace("(", r"\(")):
        require("the w widget", "w", (spec,))


def test_an_entry_is_checked_only_when_used() -> None:
    reg = _registry()
    entry = reg.add("heavy", 1, requires=("no-such-distribution-xyz",), extra="heavy")
    assert reg.get("heavy") is entry  # registering and finding import nothing
    with pytest.raises(MissingDependencyError, match=r"the heavy widget needs .* pip install 'benger\[heavy\]'"):
        entry.check()


def test_require_module_finds_a_module_without_importing_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # observed (issue 26): checking the metrics' optional modules imported torch, seconds in which Ctrl-C waited
    (tmp_path / "benger_probe_heavy.py").write_text("raise SystemExit('imported')\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    require_module("the probe metric", "probe", "benger_probe_heavy", "probe-dist")
    assert "benger_probe_heavy" not in sys.modules
    for module in ("benger_probe_missing", "benger_probe_missing.sub"):  # a missing module, a missing parent
        with pytest.raises(MissingDependencyError, match=r"the probe metric needs .*'probe-dist'.*benger\[probe\]"):
            require_module("the probe metric", "probe", module, "probe-dist")
    monkeypatch.setitem(sys.modules, "benger_probe_heavy", None)  # how the tests make an installed module absent
    with pytest.raises(MissingDependencyError, match="probe-dist"):
        require_module("the probe metric", "probe", "benger_probe_heavy", "probe-dist")
