"""One entry point: :func:`analyse` a Falllösung, :func:`compare` it with a reference solution."""

from __future__ import annotations

import re

from benger.gutachten._citations import parse_citations
from benger.gutachten._models import Analysis, Citation, Claim, Comparison, Overlap, Section, Structure
from benger.gutachten._rules import STEPS, Rules, default_rules
from benger.gutachten._steps import WORD, analyse_sections
from benger.gutachten._structure import parse_structure

#: bumped when a rule or a definition changes what the analyser reports (shown with every result)
ANALYSER_VERSION = "gutachten@1"


def _share(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def _subtree(structure: Structure, root: int | None) -> set[int | None]:
    """``root`` and every heading below it (None: the text before the first heading)."""
    if root is None:
        return {None}
    out: set[int | None] = set()
    todo = [root]
    while todo:
        i = todo.pop()
        out.add(i)
        todo.extend(structure.headings[i].children)
    return out


def _steps_of(sections: list[Section], headings: set[int | None]) -> list[str]:
    hits = sorted((h.start, h.step) for s in sections if s.heading in headings for h in s.steps)
    present: list[str] = []
    for _, step in hits:
        if step not in present:
            present.append(step)
    return present


def _claims(
    text: str, structure: Structure, sections: list[Section], citations: list[Citation], rules: Rules
) -> list[Claim]:
    """Headings and Obersatz sentences that name a norm or a claim word ("Anspruch", "Strafbarkeit")."""
    words = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in rules.claim_words) + r")\b", re.IGNORECASE)
    spans: list[tuple[int, int, str, set[int | None]]] = [
        (h.start, h.end, h.title, _subtree(structure, i)) for i, h in enumerate(structure.headings)
    ]
    for s in sections:
        scope = _subtree(structure, s.heading)
        spans += [
            (hit.sentence_start, hit.sentence_end, text[hit.sentence_start : hit.sentence_end], scope)
            for hit in s.steps
            if hit.step == "obersatz"
        ]
    out: list[Claim] = []
    seen: set[tuple[int, int]] = set()
    for start, end, label, scope in sorted(spans, key=lambda x: (x[0], x[1])):
        if (start, end) in seen:
            continue
        seen.add((start, end))
        keys = sorted({n.key for c in citations if start <= c.start < end for n in c.norms if n.statute})
        if keys or words.search(label):
            present = _steps_of(sections, scope)
            out.append(
                Claim(
                    keys=keys,
                    label=" ".join(label.split())[:200],
                    start=start,
                    end=end,
                    present=present,
                    complete=set(present) == set(STEPS),
                )
            )
    return out


def analyse(text: str, rules: Rules | None = None) -> Analysis:
    """Analyse one Falllösung: Gliederung, Gutachtenstil steps per section, norm citations, claims.

    Deterministic and model-free; offsets index ``text``. Shares are over sections with >= 2 sentences.
    """
    rules = rules or default_rules()
    citations, citation_problems = parse_citations(text, rules)
    structure = parse_structure(text, rules)
    sections = analyse_sections(text, structure, citations, rules)
    norms = [n for c in citations for n in c.norms]
    counted = [s for s in sections if s.sentences >= 2]
    claims = _claims(text, structure, sections, citations, rules)
    words = len(WORD.findall(text))
    steps = {step: sum(1 for s in sections for h in s.steps if h.step == step) for step in STEPS}
    return Analysis(
        chars=len(text),
        words=words,
        structure=structure,
        sections=sections,
        citations=citations,
        citation_problems=citation_problems,
        norms=sorted({n.standard for n in norms if n.statute}),
        norm_keys=sorted({n.key for n in norms if n.statute}),
        claims=claims,
        step_counts=steps,
        share_complete=_share([s.complete for s in counted]),
        share_result_first=_share([s.result_first for s in counted]),
        share_claims_complete=_share([c.complete for c in claims]),
        subsumtion_per_1000_words=1000 * steps["subsumtion"] / words if words else None,
    )


def overlap(level: str, reference: set[str], candidate: set[str]) -> Overlap:
    """Precision (common / candidate), recall (common / reference) and F1 of two sets; None if undefined."""
    common = reference & candidate
    precision = len(common) / len(candidate) if candidate else None
    recall = len(common) / len(reference) if reference else None
    f1 = None
    if precision is not None and recall is not None:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Overlap(
        level=level,
        reference=len(reference),
        candidate=len(candidate),
        common=len(common),
        precision=precision,
        recall=recall,
        f1=f1,
        missing=sorted(reference - candidate),
        extra=sorted(candidate - reference),
    )


def compare(candidate: Analysis, reference: Analysis) -> Comparison:
    """The candidate's norms and claims against the reference's: paragraph level ("§ 823 BGB"), full
    standard form ("§ 823 Abs. 1 BGB") and the claim norms (headings and Obersätze)."""
    claim_keys = {k for c in reference.claims for k in c.keys}
    cand_claims = {k for c in candidate.claims for k in c.keys}
    return Comparison(
        norms_paragraph=overlap("paragraph", set(reference.norm_keys), set(candidate.norm_keys)),
        norms_full=overlap("full", set(reference.norms), set(candidate.norms)),
        claims=overlap("claims", claim_keys, cand_claims),
    )
