"""benger.gutachten: a deterministic, explainable analyser of German Falllösungen (no model involved).

Low layer: depends only on the standard library, pydantic and PyYAML, so metrics and analysis can use it.
"""

from benger.gutachten._analyse import ANALYSER_VERSION, analyse, compare, overlap
from benger.gutachten._citations import CitationParser, parse_citations
from benger.gutachten._models import (
    Analysis,
    Citation,
    Claim,
    Comparison,
    Heading,
    Norm,
    Overlap,
    Problem,
    Report,
    Section,
    StepHit,
    Structure,
)
from benger.gutachten._rules import Rules, default_rules, load_rules

__all__ = [
    "ANALYSER_VERSION",
    "Analysis",
    "Citation",
    "CitationParser",
    "Claim",
    "Comparison",
    "Heading",
    "Norm",
    "Overlap",
    "Problem",
    "Report",
    "Rules",
    "Section",
    "StepHit",
    "Structure",
    "analyse",
    "compare",
    "default_rules",
    "load_rules",
    "overlap",
    "parse_citations",
]
