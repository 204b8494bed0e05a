"""benger.gutachten: a deterministic, explainable analyser of German Falllösungen (no model involved).

Low layer: depends only on the standard library, pydantic and PyYAML, so metrics and analysis can use it.
"""

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
    "default_rules",
    "load_rules",
    "parse_citations",
]
