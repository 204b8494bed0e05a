"""``benger inspect-solution`` on files, the rule files' error messages, and a property test of the parser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.errors import InputError
from benger.gutachten import load_rules, parse_citations

_register_commands()
runner = CliRunner()

SOLUTION = (
    "A. Anspruch aus § 433 II BGB\n\nK könnte gegen V einen Anspruch aus § 433 II BGB haben.\n"
    "Hier einigten sich beide. Somit besteht der Anspruch.\n"
)
REFERENCE = "K könnte einen Anspruch aus § 433 Abs. 2 BGB haben. Ferner § 280 Abs. 1 BGB."


def test_inspect_solution_json_with_reference(tmp_path: Path) -> None:
    sol, ref = tmp_path / "sol.md", tmp_path / "ref.txt"
    sol.write_text(SOLUTION, encoding="utf-8")
    ref.write_text(REFERENCE, encoding="utf-8")
    result = runner.invoke(app, ["inspect-solution", str(sol), "--reference", str(ref), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["analysis"]["norms"] == ["§ 433 Abs. 2 BGB"]
    assert data["comparison"]["norms_paragraph"]["missing"] == ["§ 280 BGB"]
    assert data["comparison"]["norms_paragraph"]["recall"] == 0.5
    assert data["analyser_version"].startswith("gutachten@")
    heading = data["analysis"]["structure"]["headings"][0]
    assert SOLUTION[heading["start"] : heading["start"] + 2] == "A."


def test_inspect_solution_text(tmp_path: Path) -> None:
    sol = tmp_path / "sol.md"
    sol.write_text(SOLUTION, encoding="utf-8")
    result = runner.invoke(app, ["inspect-solution", str(sol)])
    assert result.exit_code == 0, result.output
    assert "norms cited (1): § 433 Abs. 2 BGB" in result.output
    assert "Gliederung depth 1" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["inspect-solution"], "either a FILE or --generation"),
        (["inspect-solution", "missing.md"], "missing.md: file not found"),
        (["inspect-solution", "x.md", "--generation", "g1"], "either a FILE or --generation"),
        (["inspect-solution", "x.md", "--format", "yaml"], "--format must be"),
    ],
)
def test_inspect_solution_bad_input(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.md").write_text("§ 1 BGB", encoding="utf-8")
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_binary_file_is_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00abc")
    result = runner.invoke(app, ["inspect-solution", str(bad)])
    assert result.exit_code == 2 and "not UTF-8" in result.output


def test_rules_files_report_file_and_field(tmp_path: Path) -> None:
    markers = tmp_path / "markers.yaml"
    markers.write_text("steps:\n  obersatz:\n    - '(unclosed'\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_rules(markers=markers)
    assert "markers.yaml" in str(err.value) and "steps.obersatz[0]" in str(err.value)
    statutes = tmp_path / "statutes.yaml"
    statutes.write_text("paragraph: [BGB]\narticle: [GG]\naliases: {Grundgesetz: GGG}\n", encoding="utf-8")
    with pytest.raises(InputError, match="unknown statute 'GGG'"):
        load_rules(statutes=statutes)


def test_user_rules_extend_the_statutes(tmp_path: Path) -> None:
    statutes = tmp_path / "statutes.yaml"
    statutes.write_text("paragraph: [BGB, AVB]\narticle: [GG]\n", encoding="utf-8")
    _, problems = parse_citations("Nach § 13 AVB gilt das.", load_rules(statutes=statutes))
    assert problems == []


_STATUTES = st.sampled_from(["BGB", "StGB", "VwGO", "ZPO", "GG", "BayVwVfG", "EMRK"])
_SMALL = st.integers(min_value=1, max_value=9)
ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]


@settings(max_examples=200, deadline=None)
@given(
    statute=_STATUTES,
    number=st.integers(min_value=1, max_value=2400),
    suffix=st.sampled_from(["", "a", "b"]),
    absatz=st.none() | _SMALL,
    satz=st.none() | _SMALL,
    nummer=st.none() | _SMALL,
    roman=st.booleans(),
)
def test_rendered_citations_parse_back(
    statute: str, number: int, suffix: str, absatz: int | None, satz: int | None, nummer: int | None, roman: bool
) -> None:
    """Any citation written in the long or the Roman short form parses to the same standard form."""
    unit = "Art." if statute in ("GG", "BayVwVfG", "EMRK") else "§"
    parts = [f"{number}{suffix}"]
    long_parts = list(parts)
    if absatz is not None:
        long_parts.append(f"Abs. {absatz}")
        parts.append(ROMAN[absatz - 1] if roman else f"Abs. {absatz}")
    if satz is not None:
        long_parts.append(f"S. {satz}")
        parts.append(str(satz) if roman and absatz is not None else f"S. {satz}")
    if nummer is not None:
        long_parts.append(f"Nr. {nummer}")
        parts.append(f"Nr. {nummer}")
    written = f"Er beruft sich auf {unit} {' '.join(parts)} {statute}, wie gesagt."
    citations, problems = parse_citations(written)
    assert problems == []
    assert [n.standard for c in citations for n in c.norms] == [f"{unit} {' '.join(long_parts)} {statute}"]
    assert citations[0].text == f"{unit} {' '.join(parts)} {statute}"


_WORDS = ["§", "§§", "Art.", " ", ",", " und ", " i.V.m. ", "Abs.", "S.", "Nr.", "lit.", "ff.", " bis ", "Rn.", "\n"]
_WORDS += ["1", "12", "433", "II", "a", "BGB", "GG", "StGB", "AVB", "Der", "Vertrag", ".", ":", "(", ")", "**"]
_PIECES = st.sampled_from(_WORDS)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=40))
def test_any_text_parses_without_error_and_offsets_stay_in_place(pieces: list[str]) -> None:
    from benger.gutachten import analyse

    text = "".join(pieces)
    citations, problems = parse_citations(text)
    for c in citations:
        assert text[c.start : c.end] == c.text and c.norms
        for n in c.norms:
            assert c.start <= n.start < n.end <= c.end
    for p in problems:
        assert text[p.start : p.end] == p.text
    a = analyse(text)
    assert all(0 <= h.start < h.end <= len(text) for h in a.structure.headings)
