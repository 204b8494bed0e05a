"""Result models of the Gutachten analyser (pydantic, so ``--format json`` is their ``model_dump_json``).

Every finding carries character offsets ``start``/``end`` into the analysed text (Python string
indices, end exclusive), so a reader can point at the exact words.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Problem(_Model):
    """A well-formedness or consistency problem at ``text[start:end]``.

    Codes: citations ``missing_statute``, ``unknown_statute``, ``wrong_unit``, ``plural_single``,
    ``singular_multiple``; structure ``skipped_level``, ``sequence_gap``, ``sequence_repeat``,
    ``sequence_start``, ``single_child``.
    """

    code: str
    message: str
    start: int
    end: int
    text: str


class Norm(_Model):
    """One cited provision, e.g. § 433 Abs. 2 S. 1 BGB (unit "§", number "433", absatz "2", satz "1").

    ``unit`` is the unit the statute uses (corrected when the author wrote the other one);
    ``written_unit`` is what the text said. ``following`` is "f." or "ff."; ``range_end`` the last number
    of a closed range ("Art. 54 bis 62"). ``statute`` is the canonical abbreviation (None = missing).
    """

    unit: str
    written_unit: str
    number: str
    absatz: str | None = None
    unterabsatz: str | None = None
    gruppe: str | None = None
    satz: str | None = None
    halbsatz: str | None = None
    nummer: str | None = None
    buchstabe: str | None = None
    alternative: str | None = None
    variante: str | None = None
    range_end: str | None = None
    following: str | None = None
    statute: str | None = None
    statute_known: bool = False
    start: int
    end: int
    standard: str = Field(description="normalised standard form, e.g. '§ 433 Abs. 2 S. 1 BGB'")
    key: str = Field(description="paragraph-level key, e.g. '§ 433 BGB' (Absatz etc. dropped)")


class Citation(_Model):
    """A citation group as written, e.g. "Art. 2 Abs. 1 i.V.m. Art. 1 Abs. 1 GG" (two norms)."""

    text: str
    start: int
    end: int
    norms: list[Norm]
    linked: bool = Field(default=False, description="the group joins norms with 'i.V.m.'")


class Heading(_Model):
    """One Gliederung point: its marker ("A.", "aa)", "##"), kind, ordinal, depth and title."""

    marker: str
    kind: str
    ordinal: int | None
    rank: int
    depth: int
    title: str
    start: int
    end: int
    parent: int | None = Field(default=None, description="index of the parent heading, None at the top")
    children: list[int] = Field(default_factory=list)


class Structure(_Model):
    """The Gliederung tree (headings in text order, linked by index), its depth and its problems."""

    headings: list[Heading]
    depth: int
    flat_text: bool = Field(description="the text had (almost) no line breaks; headings were found inline")
    problems: list[Problem]


class StepHit(_Model):
    """A sentence labelled with one Gutachtenstil step by the marker found at ``start``..``end``."""

    step: str
    marker: str
    start: int
    end: int
    sentence_start: int
    sentence_end: int


class Section(_Model):
    """The text under one heading (or before the first heading, ``heading`` None) and its steps."""

    heading: int | None
    title: str
    start: int
    end: int
    words: int
    sentences: int
    steps: list[StepHit]
    present: list[str] = Field(description="steps present, in the order of their first occurrence")
    complete: bool = Field(description="all four steps present")
    in_order: bool = Field(description="first occurrences follow Obersatz, Definition, Subsumtion, Ergebnis")
    result_first: bool = Field(description="the first labelled sentence is an Ergebnis and text follows it")


class Claim(_Model):
    """An examined claim/offence: a heading or Obersatz that names a norm or a claim word.

    ``present`` are the Gutachtenstil steps of its examination: the sections under the heading (its
    whole subtree), or for an Obersatz the section it opens and that section's subtree.
    """

    keys: list[str]
    label: str
    start: int
    end: int
    present: list[str] = Field(default_factory=list)
    complete: bool = False


class Analysis(_Model):
    """The analysis of one Falllösung. Shapes: counts are ints, shares are 0-1 floats (None if undefined)."""

    chars: int
    words: int
    structure: Structure
    sections: list[Section]
    citations: list[Citation]
    citation_problems: list[Problem]
    norms: list[str] = Field(description="sorted set of cited norms in standard form")
    norm_keys: list[str] = Field(description="sorted set of paragraph-level norm keys")
    claims: list[Claim]
    step_counts: dict[str, int]
    share_complete: float | None = Field(description="share of sections (>= 2 sentences) with all four steps")
    share_result_first: float | None = Field(description="share of sections (>= 2 sentences) that are result-first")
    share_claims_complete: float | None = Field(description="share of claims whose examination has all four steps")
    subsumtion_per_1000_words: float | None


class Overlap(_Model):
    """Set overlap of candidate vs reference: precision, recall and F1 (None when undefined)."""

    level: str
    reference: int
    candidate: int
    common: int
    precision: float | None
    recall: float | None
    f1: float | None
    missing: list[str] = Field(description="in the reference, not in the candidate")
    extra: list[str] = Field(description="in the candidate, not in the reference")


class Comparison(_Model):
    """A candidate analysed against a reference solution (Musterlösung)."""

    norms_paragraph: Overlap
    norms_full: Overlap
    claims: Overlap


class Report(_Model):
    """What ``benger inspect-solution`` prints: the analysis, and the comparison when a reference is given."""

    source: str
    analyser_version: str
    analysis: Analysis
    comparison: Comparison | None = None
