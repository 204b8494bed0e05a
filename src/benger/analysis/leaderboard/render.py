"""Exports of the leaderboard: JSON, CSV, Markdown, a rich table.

Every row of the CSV/JSON carries its provenance: system config id and hash, judge, judge config id and hash,
rubric id (with its content hash), prompt-set hash (when the generations record one), the metric signatures
and the benger version. Undefined numbers (a mean without scores) are empty in CSV, ``null`` in JSON and "–" in
the tables; a row with too few units for an interval (n < 3) says "no interval (n < 3)" in its CI cell and in its
CSV ``ci_method``, naming no method.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, get_args

from benger.analysis._percent import scale_text
from benger.analysis.leaderboard.metrics import short_label
from benger.analysis.leaderboard.scales import row_rubrics
from benger.analysis.leaderboard.validity import NOT_MEANINGFUL
from benger.spreadsheet import write_csv
from benger.stats import NO_INTERVAL

if TYPE_CHECKING:
    from benger.analysis.leaderboard.model import Leaderboard, LeaderboardRow

HEADERS = (
    "Rank",
    "System",
    "Config",
    "Tier",
    "Judge",
    "Judge cfg",
    "Corpus",
    "n",
    "Mean",
    "95% CI",
    "Grade pts",
    "Pass",
    "Ja/Nein acc. (answered/all)",
    "Failed",
    "Excluded",
    "Truncated",
    "Unjudged",
    "Unscored",
    "Vs paper",
    "Judge status",
)
_LEFT = {"System", "Config", "Tier", "Judge", "Judge cfg", "Corpus"}


def _f(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def to_json(board: Leaderboard) -> str:
    """The whole board (rows, rankings, method, provenance) as JSON; undefined numbers are ``null``."""
    return json.dumps(board.model_dump(), indent=2, ensure_ascii=False, allow_nan=False, default=str)


def to_csv(board: Leaderboard) -> str:
    """One line per row with its provenance columns; metric columns carry their signature."""
    # The columns are the fields of the board's row model, read from the board itself: this module imports no
    # model module (the model's ``to_csv`` calls this one).
    (row_model,) = get_args(type(board).model_fields["rows"].annotation)
    fields = [f for f in row_model.model_fields if f != "metrics"]
    metric_fields = [
        name for m in board.metric_signatures for name in (f"metric_{m}", f"metric_{m}_n", f"metric_{m}_signature")
    ]
    extra = ["ci_method", "benger_version"]
    lines = []
    for row in board.rows:
        cells: dict[str, Any] = {k: "" if v is None else v for k, v in row.model_dump(exclude={"metrics"}).items()}
        for m, signature in board.metric_signatures.items():
            value = row.metrics.get(m)
            cells[f"metric_{m}"] = "" if value is None else value.mean
            cells[f"metric_{m}_n"] = 0 if value is None else value.n
            cells[f"metric_{m}_signature"] = signature
        cells["ci_method"] = interval_note(board, row)
        cells["benger_version"] = board.benger_version
        lines.append(cells)
    return write_csv(lines, fields + metric_fields + extra)


def interval_note(board: Leaderboard, row: LeaderboardRow) -> str:
    """The row's interval method: the board's sentence, or "no interval (n < 3)" where none was computed (too
    few units), never the name of a method that did not run."""
    return board.ci_method if row.ci_kind is not None else NO_INTERVAL


def _interval(row: LeaderboardRow) -> str:
    """The printed CI cell: ``[low, high]``; "no interval (n < 3)" for a scored row without one; "–" without
    a score."""
    if row.ci_low is not None and row.ci_high is not None:
        return f"[{_f(row.ci_low)}, {_f(row.ci_high)}]"
    return NO_INTERVAL if row.n else "–"


def _pass(row: LeaderboardRow) -> str:
    """The Pass cell: the rate, "unknown" where no judgement of a scored row carries a pass value (the reason is
    the row's ``pass_note`` and a provenance line), "–" without a score."""
    if row.pass_rate is None and row.pass_note is not None:
        return "unknown"
    return _pct(row.pass_rate)


def _grade(row: LeaderboardRow) -> str:
    """The grade cell: grade points (Notenpunkte) under the paper's scale, the percent of the rubric's total under
    a user's own rubric (``scales.with_scales`` decides which; a provenance line names the rubric), else "–"."""
    if row.mean_grade_points is None and row.mean_percent is not None:
        return f"{row.mean_percent:.0f}%"
    return _f(row.mean_grade_points)


def _accuracy(row: LeaderboardRow) -> str:
    if row.answer_items == 0:
        return "–"
    return f"{_pct(row.accuracy)} ({row.answered}/{row.answer_items})"


def _rank(row: LeaderboardRow) -> str:
    """The Rank cell: "–" unranked; "(2)" for a row on too few items (``few_items``: the order of its mean only)."""
    if row.rank is None:
        return "–"
    return f"({row.rank})" if row.few_items else str(row.rank)


def _vs_paper(row: LeaderboardRow) -> str:
    """Short form of ``row.comparable``: paper / yes / no (the full reason is in the CSV/JSON and the notes)."""
    reason = row.comparable or ""
    if reason == "paper reference":
        return "paper"
    if reason.startswith("comparable"):
        return "yes"
    if reason.startswith("not comparable"):
        return "no"
    return "–"


def _judge_status(row: LeaderboardRow) -> str:
    """The judge's validation status (a failed judge's label ends "scores not meaningful", issue 24)."""
    return row.judge_status or "–"


def cells(board: Leaderboard, row: LeaderboardRow) -> list[str]:
    """The printed cells of one row (``HEADERS`` then one column per metric)."""
    ci = _interval(row)
    return [
        _rank(row),
        row.display or row.system,
        row.config_id,
        row.tier or "–",
        row.judge or "–",
        row.judge_config_id or "–",
        row.corpus,
        str(row.n),
        _f(row.mean),
        ci,
        _grade(row),
        _pass(row),
        _accuracy(row),
        str(row.failed),
        str(row.excluded),
        str(row.truncated),
        str(row.unjudged),
        str(row.unscored),
        _vs_paper(row),
        _judge_status(row),
    ] + [_f(row.metrics[m].mean if m in row.metrics else None, 3) for m in board.metric_signatures]


def headers(board: Leaderboard) -> list[str]:
    return [*_grade_header(board, HEADERS, "Grade pts"), *(short_label(m) for m in board.metric_signatures)]


def _grade_header(board: Leaderboard, names: tuple[str, ...], grade: str) -> list[str]:
    """``names`` with the grade column's header saying "/ %" where a row of ``board`` holds a percent there (a
    user's own rubric: :func:`_grade`)."""
    percent = any(r.mean_percent is not None for r in board.rows)
    return [f"{name} / %" if percent and name == grade else name for name in names]


def provenance_lines(board: Leaderboard) -> list[str]:
    """What every number means: aggregation, CI method, rubric per judge group, metric signatures, version."""
    lines = [f"Aggregation: {board.aggregation}.", f"CI: {board.ci_method}."]
    n_sup = sum(r.superseded for r in board.rows)
    if board.superseded == "included":
        lines.append(
            f"Superseded generations included in their system's row ({n_sup}; the paper's Table 1; "
            "--exclude-superseded leaves them out)."
        )
    else:
        lines.append("Superseded generations excluded (--include-superseded gives the paper's Table 1).")
    if board.pooled_judges:
        pooled = ", ".join(f"{judge} ({n} generations)" for judge, n in board.pooled.items())
        lines.append(
            f"Judges pooled (--pool-judges): {pooled or 'none'}; per generation the mean over the judges that "
            "scored it (a judge that scored only some generations, e.g. validation picks, enters only theirs)."
        )
    if board.left_out:
        named = ", ".join(f"{judge} [{jhash[:8]}, {rubric}]" for judge, jhash, rubric in board.left_out)
        lines.append(
            f"Left out: {named}: validation-only (every generation it judged is reviewed, while another judgement "
            "under its rubric and corpus is of an unreviewed one); --judge NAME shows its rows."
        )
    per_config: dict[tuple[str, str, str, str | None, str | None], int] = {}
    for r in board.rows:
        key = (r.system, r.config_hash, r.corpus, r.judge, r.judge_config_hash)
        per_config[key] = per_config.get(key, 0) + 1
    if any(n > 1 for (*_, judge, _), n in per_config.items() if judge):
        lines.append(
            "Fail, Excl, Unjdg (JSON: generations) of a judge with several rubrics on a corpus: each generation "
            "once, in the row of the rubric that scored it, else in the row of the corpus's main rubric (most scored "
            "generations)."
        )
    for group in board.groups():
        rubrics = sorted({r.rubric for r in board.rows if r.group == group and r.rubric})
        configs = sorted({r.judge_config_id for r in board.rows if r.group == group and r.judge_config_id})
        if rubrics:
            scale = scale_text(board.rubric_scales, {rid for r in rubrics for rid in row_rubrics(r)})
            lines.append(
                f"Judge group {group}: judge config {', '.join(configs) or '–'}; rubric {', '.join(rubrics)}; "
                f"Mean: {scale}."
            )
    own = {r.rubric: board.rubric_scales.get(r.rubric) for r in board.rows if r.mean_percent is not None and r.rubric}
    for rubric, total in sorted(own.items()):
        lines.append(
            f"Grade pts of rubric {rubric}: percent of its total {total:g} (the paper's 0-18 grade points are "
            "defined for its 100-point rubric only)."
            if total is not None
            else f"Grade pts of rubric {rubric}: percent of its totals (the paper's 0-18 grade points are defined "
            "for its 100-point rubric only)."
        )
    few = [r for r in board.rows if r.few_items]
    if few:
        smallest = min(r.n for r in few)
        lines.append(
            f"Too few for a ranking: {len(few)} of {sum(1 for r in board.rows if r.n)} scored rows rest on fewer "
            f"than {board.min_ranked_n} scored generations (the smallest n = {smallest}); their ranks, in parentheses, "
            "order the means only."
        )
    failed = sorted({f"{r.judge} [{r.judge_config_id}]" for r in board.rows if not r.scores_meaningful})
    if failed:
        lines.append(f"Judge validation failed for {', '.join(failed)}: those rows' {NOT_MEANINGFUL}.")
    passes: dict[str, list[str]] = {}
    for r in board.rows:
        if r.pass_note:
            passes.setdefault(r.pass_note, []).append(f"{r.display or r.system} [{r.config_id}] {r.corpus}")
    lines += [f"Pass of {', '.join(rows)}: {note}." for note, rows in sorted(passes.items())]
    reasons = sorted({r.comparable for r in board.rows if r.comparable and r.comparable.startswith("not comparable")})
    lines += [f"Vs paper: {reason}." for reason in reasons]
    if board.metric_signatures:
        sigs = "; ".join(f"{m} = {s}" for m, s in board.metric_signatures.items())
        lines.append(f"Metric signatures (most frequent per metric unless chosen): {sigs}.")
    for name, others in board.system_aliases.items():
        lines.append(
            f"System {name}: the configuration of {', '.join(others)} (a name is a label): its results keep the "
            "name they were made under."
        )
    lines.append(f"benger {board.benger_version}.")
    return lines


def to_markdown(board: Leaderboard) -> str:
    """One Markdown table per judge group (ranks are within a group), then the provenance lines."""
    out: list[str] = []
    head = headers(board)
    for group in board.groups():
        out.append(f"### Judge: {group}")
        out.append("")
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join("---" for _ in head) + "|")
        out += ["| " + " | ".join(cells(board, r)) + " |" for r in board.rows if r.group == group]
        out.append("")
    out += provenance_lines(board)
    return "\n".join(out) + "\n"


_RICH = ("Rank", "System", "Config", "Judge", "Corpus", "n", "Mean", "95% CI", "GP", "Pass",
         "Acc. (ans/all)", "Fail", "Excl", "Trunc", "Unjdg", "Unsc", "Vs paper", "Judge status")  # fmt: skip
_RICH_SKIP = (3, 5)  # tier and judge config id: in the exports, the Markdown and (per judge group) the caption


def to_rich(board: Leaderboard) -> Any:
    """A rich Table: one section per judge group, then per system configuration. Metric means are in the
    Markdown/CSV/JSON exports (named in the caption), to keep the terminal table readable."""
    from rich.table import Table
    from rich.text import Text

    ranks = (
        "Ranks are over the pooled judges (--pool-judges). "
        if board.pooled_judges
        else "Ranks are within a judge group (judges are never mixed). "
    )
    caption = ranks + " ".join(provenance_lines(board))
    if board.metric_signatures:
        caption += " Metric means: see the --out exports."
    # a Text: a split group's label "J [3fd396f8, kurz3@1+...]" is text on every console, never a markup tag
    # (rich-escaping it printed "\\[" on benger's consoles, which print with markup off)
    table = Table(title="BenGER leaderboard", caption=Text(caption), caption_justify="left")
    for header in _grade_header(board, _RICH, "GP"):
        left = header in _LEFT
        table.add_column(header, justify="left" if left else "right", overflow="fold", no_wrap=not left)
    previous: str | None = None
    for row in board.rows:
        key = row.group
        if previous is not None and key != previous:
            table.add_section()
        values = cells(board, row)[: len(HEADERS)]
        table.add_row(*(v for i, v in enumerate(values) if i not in _RICH_SKIP))
        previous = key
    return table
