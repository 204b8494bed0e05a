"""Findings of the hostile-user attack on the CLI and the study commands: each bad input is one row, and each
must end with one English message naming the input (file, option or field) and exit 2, never a traceback,
never a silent 0, never a prompt, and the store unchanged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ._fuzz import check_rejected, dump, invoke, store_copy

PW = "langes-passwort"
# (id, args ({store} and {tmp} are filled in), what the message must name, an English phrase of it)
CASES: list[tuple[str, list[str], list[str], str]] = [
    ("bidi-override", ["study", "create-user", "bob\u202egpj.exe", "--role", "participant", "--password", PW],
     ["field 'username'"], "(character 4: U+202E)"),
    ("bidi-isolate", ["study", "create-user", "\u2067admin", "--role", "participant", "--password", PW],
     ["field 'username'"], "(character 1: U+2067)"),
    ("zero-width-joiner", ["study", "create-user", "ad\u200dmin", "--role", "participant", "--password", PW],
     ["field 'username'"], "(character 3: U+200D)"),
    ("tab", ["study", "create-user", "a\tb", "--role", "participant", "--password", PW],
     ["field 'username'"], "(character 2: U+0009)"),
    ("escape", ["study", "create-user", "a\x1b[31m", "--role", "participant", "--password", PW],
     ["field 'username'"], "(character 2: U+001B)"),
    ("no-break-space", ["study", "create-user", "a\u00a0b", "--role", "participant", "--password", PW],
     ["field 'username'"], "(character 2: U+00A0)"),
    ("line-separator", ["study", "create-user", "a\u2028b", "--role", "participant", "--password", PW],
     ["field 'username'"], "(character 2: U+2028)"),
    ("empty-password", ["study", "create-user", "bob", "--role", "participant", "--password", ""],
     ["field 'password'"], "A password needs at least 8 characters."),
    ("empty-new-password", ["study", "set-password", "alice", "--password", ""],
     ["field 'password'"], "A password needs at least 8 characters."),
    ("unknown-role", ["study", "create-user", "bob", "--role", "boss", "--password", PW],
     ["field 'roles'"], "Unknown role(s) boss; allowed: admin, participant, grader, creator"),
    ("unknown-study-name", ["study", "open", "--study", "Winter"],
     ["field '--study'"], "There is no study named or numbered 'Winter'; the studies (id name): 1 'Sommer'; 2 '7'."),
    ("unknown-study-id", ["study", "export", "--study", "3", "--out", "{tmp}/out"],
     ["field '--study'"], "There is no study named or numbered '3'"),
    ("wrong-state-english", ["study", "close", "--study", "Sommer"],
     ["field 'state'"], "(allowed: open)"),
    ("empty-metrics", ["metrics", "--metrics", ""], ["field '--metrics'"], "names no metric"),
    ("blank-metrics", ["metrics", "--metrics", " , "], ["field '--metrics'"], "names no metric"),
    ("unknown-system", ["metrics", "--systems", "gpt-5.4", "--systems", "gtp-5"], ["field '--system'"],
     "no generation of 'gpt-5.4', 'gtp-5' in the store; stored systems: none"),
    ("empty-system", ["metrics", "--systems", ""], ["field '--system'"], "no generation of ''"),
    ("empty-solution", ["inspect-solution", "{tmp}/empty.md"], ["{tmp}/empty.md"], "holds no text"),
    ("blank-solution", ["inspect-solution", "{tmp}/blank.md"], ["{tmp}/blank.md"], "holds no text"),
    ("empty-reference", ["inspect-solution", "{tmp}/ok.md", "--reference", "{tmp}/empty.md"],
     ["{tmp}/empty.md"], "holds no text"),
]  # fmt: skip


@pytest.fixture
def study_store(demo_store: Path, tmp_path: Path) -> Path:
    """The demo store with the account 'alice' and two draft studies: 1 'Sommer' and 2 '7' (a name of digits)."""
    store = store_copy(demo_store, tmp_path / "s")
    result = invoke(["study", "create-user", "alice", "--role", "participant", "--password", PW, "--db", str(store)])
    assert result.exit_code == 0, result.output
    for name in ("Sommer", "7"):
        result = invoke(["study", "create", name, "--corpus", "demo-falloesung", "--db", str(store)])
        assert result.exit_code == 0, result.output
    return store


@pytest.mark.parametrize(("args", "names", "phrase"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_inputs_get_one_english_message(
    study_store: Path, tmp_path: Path, args: list[str], names: list[str], phrase: str
) -> None:
    (tmp_path / "empty.md").write_text("", encoding="utf-8")
    (tmp_path / "blank.md").write_text(" \n\t\n", encoding="utf-8")
    (tmp_path / "ok.md").write_text("A. Anspruch aus § 433 Abs. 2 BGB\n", encoding="utf-8")
    filled = [a.replace("{tmp}", str(tmp_path)) for a in args]
    before = dump(study_store)
    # stdin is closed: a prompt would end in "the input ended while benger was asking", not this message
    result = invoke([*filled, "--db", str(study_store)], stdin="")
    check_rejected(result, [n.replace("{tmp}", str(tmp_path)) for n in names], study_store, before)
    assert phrase in result.output, result.output


@pytest.mark.parametrize(("ref", "sid", "name"), [("Sommer", 1, "Sommer"), ("1", 1, "Sommer"), (" 2 ", 2, "7")])
def test_study_option_takes_the_name_or_the_id(study_store: Path, ref: str, sid: int, name: str) -> None:
    result = invoke(["study", "open", "--study", ref, "--db", str(study_store)])
    assert result.exit_code == 0, result.output
    assert result.output == f"study {name!r} (id {sid}) is open\n"


def test_a_name_of_digits_is_found_when_no_study_has_that_id(study_store: Path) -> None:
    # study 2 is named '7'; there is no study 7, so '7' names it
    result = invoke(["study", "open", "--study", "7", "--db", str(study_store)])
    assert (result.exit_code, result.output) == (0, "study '7' (id 2) is open\n")


def test_a_plain_space_and_umlauts_are_fine_in_a_user_name(study_store: Path) -> None:
    result = invoke(
        ["study", "create-user", " Jürgen Groß ", "--role", "grader", "--password", PW, "--db", str(study_store)]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("created Jürgen Groß (grader)")


def test_a_list_of_state_labels_is_translated_label_by_label() -> None:
    from benger.cli._app import english
    from benger.study import WrongState

    exc = WrongState(
        "Das ist im Zustand „{state}“ der Studie nicht möglich (erlaubt: {allowed}).",
        field="state",
        state="offen",
        allowed="Entwurf, geschlossen",
    )
    assert english(exc) == "field 'state': This is not possible while the study is “open” (allowed: draft, closed)."
