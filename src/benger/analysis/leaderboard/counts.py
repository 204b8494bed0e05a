"""A row's generation counts (generations, failed, excluded, unjudged) per judge configuration: each generation of a
system x corpus is counted once per judge configuration (name, config hash), in the row of the rubric that scored it
or, when none did, in the row of the configuration's main rubric (attack finding 9: a judge with a case's own
Bewertungsbogen has two rows, whose Unjdg columns each counted every unjudged generation)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from benger.analysis.leaderboard.sums import GroupKey, RowKey
from benger.store._aggregate_items import RowSums


def judged_by_config(groups: Mapping[GroupKey, RowSums]) -> dict[tuple[RowKey, tuple[str, str]], int]:
    """Per row and judge configuration (name, config hash): its scored generations under all of its rubrics. A
    task's own Bewertungsbogen makes one group per rubric; a generation judged under one rubric is no unjudged
    generation of the other's group, so each group's unjudged count is the row's ok generations less these."""
    out: dict[tuple[RowKey, tuple[str, str]], int] = defaultdict(int)
    for (rk, jkey), s in groups.items():
        out[(rk, (jkey[0], jkey[1]))] += s.n
    return out


def main_rubric_groups(groups: Mapping[GroupKey, RowSums]) -> set[GroupKey]:
    """Per row and judge configuration (name, config hash), the group of its main rubric on the row's corpus: the
    rubric with the most scored generations on that corpus (all systems and judges; then the most unscored
    judgements, then the first rubric id), i.e. the corpus rubric beside a case's own Bewertungsbogen. That group
    counts the row's generations that no group of the configuration holds (unjudged, failed, excluded): each
    generation is counted once per judge configuration, so a judge's Unjdg column sums to its unjudged ones."""
    weight: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (rk, jkey), s in groups.items():
        weight[(rk[2], jkey[2])][0] += s.n
        weight[(rk[2], jkey[2])][1] += s.unscored

    def order(key: GroupKey) -> tuple[int, int, str]:
        n, unscored = weight[(key[0][2], key[1][2])]
        return -n, -unscored, key[1][2]

    best: dict[tuple[RowKey, tuple[str, str]], GroupKey] = {}
    for key in sorted(groups, key=order):
        best.setdefault((key[0], (key[1][0], key[1][1])), key)
    return set(best.values())


def row_counts(cell: Mapping[str, int], n: int, judged: int, main: bool) -> dict[str, int]:
    """A row's generations, failed, excluded and unjudged counts: a judge's row of its main rubric (or a row of no
    judge) holds the system x corpus's generations less those the judge's other rubric rows scored; another
    rubric row holds only the ``n`` it scored (:func:`main_rubric_groups`)."""
    if not main:
        return {"generations": n, "excluded": 0, "failed": 0, "unjudged": 0}
    every = sum(v for k, v in cell.items() if k != "truncated")
    return {
        "generations": every - (judged - n),
        "excluded": cell.get("excluded", 0),
        "failed": cell.get("failed", 0),
        "unjudged": max(cell.get("ok", 0) - judged, 0),
    }
