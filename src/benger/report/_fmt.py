"""Number formatting for the tables: ``None`` stays ``None`` (printed as a dash), never 0."""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from benger.analysis.leaderboard.validity import NOT_MEANINGFUL
from benger.analysis.results import Block
from benger.analysis.results._models import Leaderboard, Meta
from benger.judge._released import LEGACY_JUDGE_LABELS, PAPER_JUDGE_LABELS

JUDGE_LABELS = {**PAPER_JUDGE_LABELS, **{k: f"{v} (legacy)" for k, v in LEGACY_JUDGE_LABELS.items()}}
POOL_LABELS = {"human": "Human-written picks", "llm": "LLM-generated picks"}


def num(value: Any) -> float | None:
    """``value`` as a finite float, else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    x = float(value)
    return x if math.isfinite(x) else None


def _round(x: float, digits: int) -> Decimal:
    # half away from zero on the shortest decimal repr, so 69.25 prints as 69.3 (not banker's 69.2)
    q = Decimal(1).scaleb(-digits)
    d = Decimal(repr(x)).quantize(q, rounding=ROUND_HALF_UP)
    return d if d != 0 else abs(d)


def f(value: Any, digits: int = 1) -> str | None:
    """Fixed-point number rounded half up, e.g. ``f(69.25, 1) == "69.3"``."""
    x = num(value)
    return None if x is None else f"{_round(x, digits):f}"


def dash(text: str | None) -> str:
    """A formatted number inside a longer cell text: "—" where it is undefined (``f`` and friends give None)."""
    return "—" if text is None else text


def signed(value: Any, digits: int = 1) -> str | None:
    """Number with an explicit sign: ``+15.7`` / ``-0.5``."""
    x = num(value)
    if x is None:
        return None
    d = _round(x, digits)
    return f"{d:f}" if d < 0 else f"+{d:f}"


def pct(value: Any) -> str | None:
    """A fraction 0-1 printed as a whole percent: ``0.933 -> "93%"``."""
    x = num(value)
    return None if x is None else f"{_round(100 * x, 0):f}%"


def pm(estimate: Any, halfwidth: Any, digits: int = 1) -> str | None:
    """``"69.3 ± 5.6"``; the half-width is left out where it is missing."""
    e = f(estimate, digits)
    if e is None:
        return None
    h = f(halfwidth, digits)
    return e if h is None else f"{e} ± {h}"


def ci(low: Any, high: Any, digits: int = 1, sign: bool = False) -> str | None:
    """An interval ``"[+9.2, +22.2]"`` (signed when ``sign``)."""
    fmt = signed if sign else f
    lo, hi = fmt(low, digits), fmt(high, digits)
    return None if lo is None or hi is None else f"[{lo}, {hi}]"


def pval(value: Any) -> str | None:
    """A p-value with 4 decimals, or ``<0.0001``."""
    x = num(value)
    if x is None:
        return None
    return "<0.0001" if x < 0.0001 else f"{x:.4f}"


def integer(value: Any) -> str | None:
    """An integer count."""
    x = num(value)
    return None if x is None else str(round(x))


def judge_label(key: str, labels: Mapping[str, str] | None = None) -> str:
    """Display name of a judge key (from ``labels``, i.e. ``meta.judge_labels``, if given, else the known release
    keys); ``<judge>_mean3`` / ``<judge>_pass<i>`` keys name the base judge's repeats."""
    if labels and key in labels:
        return str(labels[key])
    if key in JUDGE_LABELS:
        return JUDGE_LABELS[key]
    for suffix, text in (("_mean3", " (mean of 3 passes)"), ("_pass", " pass ")):
        if suffix in key:
            base, _, rest = key.partition(suffix)
            return f"{judge_label(base, labels)}{text}{rest}".rstrip()
    return key


def judge_note(meta: Meta) -> str:
    """The note of every judge-based table: which judge scored it and that judge's validation status
    (``meta.judge_status``, from :func:`benger.analysis.leaderboard.judge_status`); a failed judge's note says its
    scores are not meaningful."""
    js = meta.judge_status
    if js is None:
        return f"Judge: {judge_label(meta.primary_judge, meta.judge_labels)}; validation status not recorded."
    config = f", config {js.judge_config_hash[:8]}" if js.judge_config_hash else ""
    text = f"Judge: {judge_label(js.judge, meta.judge_labels)}{config}; {js.label}."
    return text if js.scores_meaningful or NOT_MEANINGFUL in js.label else f"{text[:-1]} — {NOT_MEANINGFUL}."


def pool_label(key: str) -> str:
    """Display name of a pool key."""
    return POOL_LABELS.get(key, key)


def provenance(b: Block | None) -> tuple[str, str]:
    """``(inputs, method)`` strings of a results block (``("", "")`` for an absent one): a list of inputs is
    joined with commas, a dict printed as ``key=value`` pairs."""
    if b is None:
        return "", ""
    inputs: Any = b.inputs
    if isinstance(inputs, list | tuple):
        inputs = ", ".join(str(x) for x in inputs)
    elif isinstance(inputs, Mapping):
        inputs = ", ".join(f"{k}={_plain(v)}" for k, v in inputs.items())
    return str(inputs or ""), str(b.method or "")


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def display_names(lb: Leaderboard) -> dict[str, str]:
    """System id -> display name, from the leaderboard rows."""
    return {r.system: r.display or r.system for r in lb.rows if r.system}
