"""A row's generation counts (generations, failed, excluded, unjudged) per judge configuration: each generation of a
system x corpus is counted once per judge configuration (name, config hash), in the row of the rubric that scored it
or, when none did, in the row of the configuration's main rubric (attack finding 9: a judge with a case's own
Bewertungsbogen has two rows, whose Unjdg columns each counted every unjudged generation)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

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


#: (row key, rubric id of a task's own Bewertungsbogen) -> {"failed": n, "excluded": n} of that row's generations
#: of the tasks with that Bewertungsbogen (``store._aggregate_items.own_rubric_outcomes``; superseded ones not)
OwnRubricCounts = Mapping[tuple[RowKey, str], Mapping[str, int]]


def own_rubric_counts(rows: Iterable[tuple[str, str, str, str, int, Any]]) -> dict[tuple[RowKey, str], dict[str, int]]:
    """:data:`OwnRubricCounts` of ``rows`` (system, config hash, corpus, status, count, the task's own
    Bewertungsbogen as stored), each Bewertungsbogen parsed once for its id."""
    import json

    from benger.judge import rubric_from_data

    ids: dict[str, str] = {}
    out: dict[tuple[RowKey, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for system, config_hash, corpus, status, n, data in rows:
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        if text not in ids:
            ids[text] = rubric_from_data(data, "a task's Bewertungsbogen").id
        out[((system, config_hash, corpus), ids[text])][status] += n
    return {key: dict(cell) for key, cell in out.items()}


def own_rubric_moves(
    groups: Mapping[GroupKey, RowSums], own: OwnRubricCounts, mains: set[GroupKey]
) -> dict[GroupKey, dict[str, int]]:
    """Per group, the failed and excluded generations it takes from, or (negative) gives to, its judge
    configuration's main rubric group: a case's own Bewertungsbogen is the rubric its failed and excluded
    generations would have been judged under, so the configuration's group of that rubric counts them (a row of
    no scored generation where the system has none under it: a key that ``groups`` lacks), never its main rubric's
    row, which counted them as generations of its rubric. Where the configuration judged nothing under that
    rubric on the corpus, the main group keeps them."""
    judged_under = {(rk[2], jkey) for rk, jkey in groups}  # (corpus, judge configuration) of every group
    moves: dict[GroupKey, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for rk, (judge, jhash, rubric) in sorted(mains):
        for (own_rk, own_rubric), cell in sorted(own.items()):
            target = (rk, (judge, jhash, own_rubric))
            if own_rk != rk or own_rubric == rubric or (rk[2], target[1]) not in judged_under:
                continue
            for status, count in cell.items():
                moves[target][status] += count
                moves[(rk, (judge, jhash, rubric))][status] -= count
    return moves


def row_counts(
    cell: Mapping[str, int], n: int, judged: int, main: bool, moved: Mapping[str, int] | None = None
) -> dict[str, int]:
    """A row's generations, failed, excluded and unjudged counts: a judge's row of its main rubric (or a row of no
    judge) holds the system x corpus's generations less those the judge's other rubric rows scored; another
    rubric row holds only the ``n`` it scored (:func:`main_rubric_groups`); ``moved`` (:func:`own_rubric_moves`)
    adds the failed and excluded generations of a case's own Bewertungsbogen to that rubric's row and takes
    them from the main row."""
    failed, excluded = (moved or {}).get("failed", 0), (moved or {}).get("excluded", 0)
    if not main:
        return {"generations": n + failed + excluded, "excluded": excluded, "failed": failed, "unjudged": 0}
    every = sum(v for k, v in cell.items() if k != "truncated")
    return {
        "generations": every - (judged - n) + failed + excluded,
        "excluded": cell.get("excluded", 0) + excluded,
        "failed": cell.get("failed", 0) + failed,
        "unjudged": max(cell.get("ok", 0) - judged, 0),
    }
