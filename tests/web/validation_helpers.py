"""Helpers of the validation tests: own blind and creator reviews of a store's generations."""

from __future__ import annotations

from pathlib import Path

from benger.judge import falloesung_rubric
from benger.store import Store

#: blind reviewers' share of each dimension's maximum, per generation (in stored order), and the creator's
BLIND = {
    "R1": (0.3, 0.6, 0.9, 0.2, 0.7, 0.5),
    "R2": (0.4, 0.5, 0.8, 0.3, 0.6, 0.4),
    "R3": (0.5, 0.4, 0.7, 0.4, 0.9, 0.6),
}
CREATOR = (0.5,) * 6


def _dims(share: float) -> dict[str, int]:
    return {d.key: int(d.max * share) for d in falloesung_rubric().dimensions}


def import_reviews(
    store: Store, path: Path, corpus: str, blind: dict[str, tuple[float, ...]] = BLIND
) -> dict[str, list[int]]:
    """Blind and creator reviews of the generations of ``corpus`` (as ``benger import-reviews`` imports them);
    the blind raw totals per generation id."""
    from benger.corpora._reviews import load_reviews_file

    keys = [d.key for d in falloesung_rubric().dimensions]
    gens = sorted(store.generations(corpus=corpus, status="ok"), key=lambda g: g.generation_id)
    lines, totals = ["solution_id,reviewer,role," + ",".join(keys)], {}
    for i, g in enumerate(gens):
        for reviewer, shares in blind.items():
            dims = _dims(shares[i])
            lines.append(f"{g.generation_id},{reviewer},blind," + ",".join(str(dims[k]) for k in keys))
            totals.setdefault(g.generation_id, []).append(sum(dims.values()))
        dims = _dims(CREATOR[i])
        lines.append(f"{g.generation_id},C,creator," + ",".join(str(dims[k]) for k in keys))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store.add_human_reviews(load_reviews_file(path, store))
    return totals
