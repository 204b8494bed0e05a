"""Inline SVG figures of the viewer (no script, no external file): leaderboard bars and judge-vs-reviewer scatter.

Each figure is ``role="img"`` with a ``<title>`` and ``<desc>``; the numbers it draws are also in the table
beside it (the accessible alternative). Coordinates are raw points 0-100 (bars: the rubric's own scale).

The page models (kept for both languages, ``_cache``) hold :class:`Figure` values, drawn when a page is rendered:
:meth:`Figure.svg` gets the page's translator and number format, so every word and number of a figure is in
the page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape


@dataclass
class Bar:
    label: str
    mean: float
    low: float | None
    high: float | None


def _plain(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _same(text: str) -> str:
    return text


@dataclass
class Figure:
    """A figure to draw: ``kind`` (``bars`` / ``scatter``) and that function's arguments but the language's."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict)

    def svg(self, translate: Callable[[str], str] = _same, fmt: Callable[..., str] = _plain) -> Markup:
        draw = bars if self.kind == "bars" else scatter
        return draw(**self.args, translate=translate, fmt=fmt)


def bars(
    title: str,
    items: Sequence[Bar],
    fig_id: str,
    top: float = 100.0,
    pass_mark: float | None = 50.0,
    *,
    translate: Callable[[str], str] = _same,
    fmt: Callable[..., str] = _plain,
) -> Markup:
    """Horizontal bars of the mean raw score on 0..``top`` (the paper's 0-100, or a user's own rubric's scale),
    whiskers = the 95% CI, each bar's value right of its bar and whisker (a whisker never crosses a value), a
    dotted pass line at ``pass_mark`` (none: no pass line); ``fmt``: the page's number format
    (``_render.number``)."""
    row, left, width = 22, 170, 360
    height = row * len(items) + 40
    x = lambda v: left + width * max(0.0, min(top, v)) / top  # noqa: E731
    parts = [
        f'<svg class="figure" role="img" aria-labelledby="{fig_id}-t {fig_id}-d" viewBox="0 0 {left + width + 60} '
        f'{height}" width="{left + width + 60}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{fig_id}-t">{escape(title)}</title>',
        f'<desc id="{fig_id}-d">{escape("; ".join(f"{b.label}: {fmt(b.mean)}" for b in items))}</desc>',
    ]
    for i, b in enumerate(items):
        y = 10 + i * row
        parts.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end" class="lbl">{escape(b.label[:26])}</text>')
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{x(b.mean) - left:.1f}" height="14" class="bar"/>')
        end = b.mean
        if b.low is not None and b.high is not None:
            parts.append(f'<line x1="{x(b.low):.1f}" x2="{x(b.high):.1f}" y1="{y + 10}" y2="{y + 10}" class="ci"/>')
            end = max(end, b.high)  # the value stands right of the whisker, never under it
        parts.append(f'<text x="{x(end) + 4:.1f}" y="{y + 14}" class="val">{fmt(b.mean)}</text>')
    axis = 10 + row * len(items)
    if pass_mark is not None:
        parts.append(f'<line x1="{x(pass_mark):.1f}" x2="{x(pass_mark):.1f}" y1="6" y2="{axis}" class="pass"/>')
    for tick in (top * q / 4 for q in range(5)):
        parts.append(f'<text x="{x(tick):.1f}" y="{axis + 16}" text-anchor="middle" class="tick">{tick:g}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


@dataclass
class Point:
    x: float
    y: float
    label: str
    group: str


#: A scatter point's group (its pick pool) -> the legend's words for it (the viewer's German, translated when drawn).
GROUPS = {"llm": "LLM-Picks", "human": "menschliche Picks"}
#: The legend's words for the dashed diagonal.
DIAGONAL = "gestrichelt: Judge = Gutachter*innen"
#: The height of one legend line (px).
LINE = 18


def scatter(
    title: str,
    points: Sequence[Point],
    fig_id: str,
    x_label: str,
    y_label: str,
    *,
    translate: Callable[[str], str] = _same,
    fmt: Callable[..., str] = _plain,
) -> Markup:
    """Judge score (y) against the mean reviewer score (x) per pick, both 0-100, with the diagonal y = x and a
    legend under the plot, one line each: each group's mark (:data:`GROUPS`, in that order; another group by its
    name) and the diagonal; ``x_label`` is translated (the viewer's words), ``title`` and ``y_label`` are names (a
    judge's)."""
    x_label = translate(x_label)
    size, pad = 300, 40
    s = lambda v: pad + size * max(0.0, min(100.0, v)) / 100  # noqa: E731
    total = size + 2 * pad
    groups = [g for g in GROUPS if any(p.group == g for p in points)]
    groups += sorted({p.group for p in points} - set(groups))
    band = LINE * (len(groups) + 1) + 6
    counts = ", ".join(f"{translate(GROUPS.get(g, g))} {sum(p.group == g for p in points)}" for g in groups)
    parts = [
        f'<svg class="figure" role="img" aria-labelledby="{fig_id}-t {fig_id}-d" viewBox="0 0 {total} {total + band}" '
        f'width="{total}" height="{total + band}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{fig_id}-t">{escape(title)}</title>',
        f'<desc id="{fig_id}-d">{len(points)} {escape(translate("Picks"))}'
        f"{escape(f' ({counts})') if counts else ''}; x: {escape(x_label)}, y: {escape(y_label)}</desc>",
        f'<rect x="{pad}" y="{pad}" width="{size}" height="{size}" class="frame"/>',
        f'<line x1="{s(0)}" y1="{total - s(0)}" x2="{s(100)}" y2="{total - s(100)}" class="diag"/>',
    ]
    for p in points:
        parts.append(
            f'<circle cx="{s(p.x):.1f}" cy="{total - s(p.y):.1f}" r="4" class="pt {escape(p.group)}">'
            f"<title>{escape(p.label)}: {fmt(p.x)} / {fmt(p.y)}</title></circle>"
        )
    for tick in (0, 50, 100):
        parts.append(f'<text x="{s(tick)}" y="{total - pad + 16}" text-anchor="middle" class="tick">{tick}</text>')
        parts.append(f'<text x="{pad - 6}" y="{total - s(tick) + 4}" text-anchor="end" class="tick">{tick}</text>')
    parts.append(f'<text x="{total / 2}" y="{total - 6}" text-anchor="middle" class="lbl">{escape(x_label)}</text>')
    parts.append(
        f'<text x="12" y="{total / 2}" transform="rotate(-90 12 {total / 2})" text-anchor="middle" class="lbl">'
        f"{escape(y_label)}</text>"
    )
    parts.append(_legend(groups, pad, total, translate))
    parts.append("</svg>")
    return Markup("".join(parts))


def _legend(groups: list[str], left: float, top: float, translate: Callable[[str], str]) -> str:
    """One line per entry from ``top`` down (:data:`LINE` apart): each group's mark and words, then the dashed
    diagonal's line and words."""
    out = ['<g class="legend">']
    for i, g in enumerate([*groups, None]):
        y = top + LINE * i + LINE / 2
        if g is None:
            out.append(f'<line x1="{left:g}" x2="{left + 14:g}" y1="{y:g}" y2="{y:g}" class="diag"/>')
        else:
            out.append(f'<circle cx="{left + 7:g}" cy="{y:g}" r="4" class="pt {escape(g)}"/>')
        words = translate(DIAGONAL if g is None else GROUPS.get(g, g))
        out.append(f'<text x="{left + 20:g}" y="{y + 4:g}" class="lbl">{escape(words)}</text>')
    out.append("</g>")
    return "".join(out)
