"""Pure, seeded designs: the arm of each participant-task pair and the review assignment of the picks.

Nothing here touches the database, so the designs are tested on their own (tests/study/test_assign.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from benger.schema import Condition
from benger.study._errors import StudyError

ARMS: tuple[Condition, Condition] = ("traditional", "co_creation")
BLIND_SLOTS: tuple[str, ...] = ("A", "B", "C")
CREATOR_SLOT = "creator"


def assign_arms(task_ids: Sequence[str], position: int, seed: int) -> dict[str, Condition]:
    """The arm of each task for the participant enrolled at ``position`` (0, 1, 2, ...).

    Tasks get a seeded random rank; participant ``k`` works task ``j`` in arm ``(rank_j + k + flip) % 2``
    where ``flip`` is a seeded coin per pair of participants (2m, 2m+1). Each participant therefore gets
    the two arms within one task of each other, and each task's arms differ by at most one across the
    participants, while the pattern itself is random and reproducible from the seed.
    """
    if position < 0:
        raise ValueError("position must be >= 0")
    ranks = random.Random(f"{seed}:arms").sample(range(len(task_ids)), len(task_ids))
    flip = random.Random(f"{seed}:pair:{position // 2}").randrange(2)
    return {task: ARMS[(ranks[j] + position + flip) % 2] for j, task in enumerate(task_ids)}


@dataclass(frozen=True)
class PickSpec:
    """A pick as the assignment sees it: which task, which area, how hard, where it came from."""

    pick_id: str
    task_id: str
    area: str
    provenance: str
    difficulty: str | None = None


@dataclass(frozen=True)
class ReviewSlot:
    """One review of the design: a grader reviews a pick as ``blind`` (slot A/B/C) or ``creator``."""

    pick_id: str
    grader: str
    role: str
    slot: str


def authored_areas(picks: Iterable[PickSpec], authors: Mapping[str, str]) -> dict[str, set[str]]:
    """The areas in which each author wrote a task (read from the picks' tasks)."""
    areas: dict[str, set[str]] = {}
    for pick in picks:
        author = authors.get(pick.task_id)
        if author is not None:
            areas.setdefault(author, set()).add(pick.area)
    return areas


def _eligible(
    pick: PickSpec, roster: Sequence[str], authored: Mapping[str, set[str]], creator: str, submitter: str | None
) -> list[str]:
    """Blind graders who may review ``pick``: not its author, not its submitter, no task authored in its area."""
    return [g for g in roster if g not in (creator, submitter) and pick.area not in authored.get(g, set())]


def assign_reviews(
    picks: Sequence[PickSpec],
    authors: Mapping[str, str],
    blind_graders: Sequence[str],
    seed: int,
    n_blind: int = 3,
    extra_authored: Mapping[str, set[str]] | None = None,
    submitters: Mapping[str, str] | None = None,
) -> list[ReviewSlot]:
    """One creator review (the task's author) and ``n_blind`` blind reviews by distinct graders per pick.

    ``submitters`` maps a pick id to the account that submitted the picked solution (human picks; an
    account may hold the participant and the grader role): that account never reviews the pick blind.
    A grader never reviews blind in an area in which they authored a task. Blind work is balanced: picks
    with the fewest eligible graders are served first, each slot goes to the least-loaded eligible
    grader (seeded tie-break), then single reviews move from a grader to an eligible one with at least
    two fewer reviews until no such move exists. Raises StudyError (an InputError) when a pick has no author or fewer
    than ``n_blind`` eligible graders.
    """
    if n_blind > len(BLIND_SLOTS):
        raise ValueError(f"at most {len(BLIND_SLOTS)} blind reviews per pick")
    roster = sorted(set(blind_graders))
    authored = authored_areas(picks, authors)
    for grader, areas in (extra_authored or {}).items():
        authored.setdefault(grader, set()).update(areas)
    rng = random.Random(f"{seed}:reviews")
    tie = {g: rng.random() for g in roster}
    order = list(picks)
    rng.shuffle(order)
    eligible: dict[str, list[str]] = {}
    for pick in order:
        if pick.task_id not in authors:
            raise StudyError(
                "Aufgabe {task} hat keine Autorin / keinen Autor, also fehlt die Ersteller-Bewertung von Pick {pick}.",
                field="author",
                task=pick.task_id,
                pick=pick.pick_id,
            )
        eligible[pick.pick_id] = _eligible(
            pick, roster, authored, authors[pick.task_id], (submitters or {}).get(pick.pick_id)
        )
        if len(eligible[pick.pick_id]) < n_blind:
            raise StudyError(
                "Pick {pick} ({area}) hat {n} mögliche Blindbewerter/innen, braucht {needed}.",
                field="graders",
                pick=pick.pick_id,
                area=pick.area,
                n=len(eligible[pick.pick_id]),
                needed=n_blind,
            )
    order.sort(key=lambda p: len(eligible[p.pick_id]))
    load: Counter[str] = Counter({g: 0 for g in roster})
    chosen: dict[str, list[str]] = {}
    for pick in order:
        ranked = sorted(eligible[pick.pick_id], key=lambda g: (load[g], tie[g]))
        chosen[pick.pick_id] = ranked[:n_blind]
        load.update(chosen[pick.pick_id])
    _rebalance(order, chosen, eligible, load, tie)
    slots: list[ReviewSlot] = []
    for pick in picks:
        if authors[pick.task_id] != (submitters or {}).get(pick.pick_id):  # nobody reviews their own solution
            slots.append(ReviewSlot(pick.pick_id, authors[pick.task_id], "creator", CREATOR_SLOT))
        graders = list(chosen[pick.pick_id])
        rng.shuffle(graders)
        slots.extend(ReviewSlot(pick.pick_id, g, "blind", BLIND_SLOTS[i]) for i, g in enumerate(graders))
    return slots


def _rebalance(
    order: Sequence[PickSpec],
    chosen: dict[str, list[str]],
    eligible: Mapping[str, list[str]],
    load: Counter[str],
    tie: Mapping[str, float],
) -> None:
    """Move single reviews to a grader with >= 2 fewer until none can move (the sum of squared loads drops)."""
    moved = True
    while moved:
        moved = False
        for pick in order:
            current = chosen[pick.pick_id]
            for i, grader in enumerate(current):
                options = [h for h in eligible[pick.pick_id] if h not in current and load[grader] - load[h] >= 2]
                if options:
                    target = min(options, key=lambda h: (load[h], tie[h]))
                    current[i] = target
                    load[grader] -= 1
                    load[target] += 1
                    moved = True


def design_violations(
    slots: Sequence[ReviewSlot],
    picks: Sequence[PickSpec],
    authors: Mapping[str, str],
    blind_graders: Sequence[str],
    n_blind: int = 3,
    submitters: Mapping[str, str] | None = None,
) -> list[str]:
    """The hard constraints a review design breaks (an empty list when it satisfies all of them).

    ``submitters`` (pick id -> account that submitted the picked solution) adds the self-review check.
    """
    problems: list[str] = []
    authored = authored_areas(picks, authors)
    roster = set(blind_graders)
    by_pick: dict[str, list[ReviewSlot]] = {}
    for slot in slots:
        by_pick.setdefault(slot.pick_id, []).append(slot)
    for pick in picks:
        mine = by_pick.get(pick.pick_id, [])
        creators = [s for s in mine if s.role == "creator"]
        blind = [s for s in mine if s.role == "blind"]
        submitter = (submitters or {}).get(pick.pick_id)
        expected = [] if authors.get(pick.task_id) == submitter else [authors.get(pick.task_id)]
        if [s.grader for s in creators] != expected:
            problems.append(
                f"{pick.pick_id}: creator reviews {[s.grader for s in creators]}, expected {expected} (the author, "
                "unless the author submitted the solution)"
            )
        graders = [s.grader for s in blind]
        if len(graders) != n_blind or len(set(graders)) != n_blind:
            problems.append(f"{pick.pick_id}: blind graders {graders} are not {n_blind} distinct graders")
        for grader in graders:
            if grader not in roster:
                problems.append(f"{pick.pick_id}: {grader} is not a blind grader")
            if pick.area in authored.get(grader, set()):
                problems.append(f"{pick.pick_id}: {grader} reviews blind in {pick.area}, where they authored a task")
            if grader == submitter:
                problems.append(f"{pick.pick_id}: {grader} reviews blind the solution they submitted")
        if len(mine) != len(creators) + len(blind):
            problems.append(f"{pick.pick_id}: unknown review roles")
    unknown = set(by_pick) - {p.pick_id for p in picks}
    if unknown:
        problems.append(f"reviews of unknown picks {sorted(unknown)}")
    return problems


def improving_moves(
    slots: Sequence[ReviewSlot],
    picks: Sequence[PickSpec],
    authors: Mapping[str, str],
    blind_graders: Sequence[str],
    submitters: Mapping[str, str] | None = None,
) -> list[tuple[str, str, str]]:
    """Single blind reviews (pick, from, to) that could move to an eligible grader with >= 2 fewer reviews.

    An empty list means the blind workload is balanced as far as single moves can balance it.
    """
    authored = authored_areas(picks, authors)
    load: Counter[str] = Counter({g: 0 for g in blind_graders})
    on_pick: dict[str, set[str]] = {}
    for slot in slots:
        if slot.role == "blind":
            load[slot.grader] += 1
            on_pick.setdefault(slot.pick_id, set()).add(slot.grader)
    moves: list[tuple[str, str, str]] = []
    for pick in picks:
        here = on_pick.get(pick.pick_id, set())
        for grader in sorted(here):
            submitter = (submitters or {}).get(pick.pick_id)
            for other in _eligible(pick, sorted(blind_graders), authored, authors.get(pick.task_id, ""), submitter):
                if other not in here and load[grader] - load[other] >= 2:
                    moves.append((pick.pick_id, grader, other))
    return moves
