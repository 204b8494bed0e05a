"""Builders shared by the study and web tests: a real store with a small Falllösung corpus and users."""

from __future__ import annotations

import secrets
from pathlib import Path

from benger.judge import falloesung_rubric
from benger.schema import AREAS, Corpus, FalloesungTask, Generation, Judgement, SystemConfig
from benger.store import Store, open_store
from benger.study import create_study, create_user, open_study
from benger.study._models import StudyUser

PASSWORD = "geheim-123"
REFERENCE_MARK = "MUSTERLOESUNG-GEHEIM"
DIFFICULTIES = ("Leicht", "Schwer")
#: A complete review: half of every dimension's maximum (50 of 100 raw points).
HALF_MARKS = {
    "ergebnisrichtigkeit": 10,
    "vollstaendigkeit": 5,
    "rechtsgrundlagen": 5,
    "rechtskenntnis": 7.5,
    "subsumtion": 7.5,
    "schwerpunktsetzung": 5,
    "methodischer_stil": 5,
    "gliederung": 2.5,
    "sprache": 1.5,
    "formalia": 1,
}


def mini_corpus(name: str = "mini") -> Corpus:
    """Six tasks, two per area; every reference carries REFERENCE_MARK so leaks are easy to find."""
    tasks = []
    for a, area in enumerate(AREAS):
        for k in range(2):
            n = 2 * a + k + 1
            tasks.append(
                FalloesungTask(
                    task_id=f"{name}-t{n}",
                    corpus=name,
                    area=area,
                    title=f"Fall {n}",
                    facts=f"Sachverhalt {n}: A verkauft B ein Fahrrad.",
                    reference=f"{REFERENCE_MARK} {n}",
                    difficulty=DIFFICULTIES[k],
                )
            )
    return Corpus(name=name, tasks=tasks)


SYSTEMS = (
    ("sys-flag-a", "flagship"),
    ("sys-flag-b", "flagship"),
    ("sys-eff", "efficiency"),
    ("sys-open", "open_reference"),
)


def add_generations(store: Store, corpus: Corpus) -> None:
    """One 300-token generation per system and task."""
    for name, tier in SYSTEMS:
        system = SystemConfig(name=name, provider="openai-compatible", model=name, tier=tier)  # type: ignore[arg-type]
        store.upsert_system(system)
        for task in corpus.tasks:
            store.save_generation(
                Generation(
                    generation_id=f"g-{name}-{task.task_id}",
                    task_id=task.task_id,
                    system=name,
                    config_hash=system.config_hash(),
                    text=f"Gutachten zu {task.title}",
                    output_tokens=300,
                )
            )


def new_store(tmp_path: Path, corpus: Corpus | None = None) -> Store:
    store = open_store(tmp_path / "benger.db")
    corpus = corpus or mini_corpus()
    store.add_corpus(corpus)
    add_generations(store, corpus)
    return store


def open_new_study(store: Store, name: str, seed: int, time_limit_s: int = 7200) -> int:
    """A new study over the mini corpus, opened for participants (create_study makes a draft)."""
    study = create_study(store, name, "mini", seed=seed, time_limit_s=time_limit_s)
    open_study(store, study)
    return study


_HASH: list[str] = []


def user(store: Store, name: str, *roles: str) -> int:
    """Create an account with PASSWORD; the argon2 hash is computed once and reused (hashing is slow on purpose)."""
    if not _HASH:
        with store.session() as session:
            created = create_user(session, name, PASSWORD, list(roles))
            _HASH.append(created.password_hash)
            return created.id
    with store.session() as session:
        row = StudyUser(
            username=name,
            password_hash=_HASH[0],
            roles=" ".join(roles),
            pseudonym=f"u-{secrets.token_hex(6)}",
            active=True,
        )
        session.add(row)
        session.flush()
        return row.id


def scored_judgement(sid: str, judge: str, marks: dict[str, float]) -> Judgement:
    """A scored judgement of a study submission (the mirrored HumanSolution) under the built-in rubric."""
    rubric = falloesung_rubric()
    total = sum(marks.values())
    return Judgement(
        judgement_id=f"j-{judge}-{sid}",
        target_kind="human_solution",
        target_id=sid,
        judge=judge,
        judge_config_hash=f"{judge:0<64}"[:64],
        rubric_id=rubric.id,
        status="scored",
        dimensions=marks,
        justifications={k: f"Begründung {k}" for k in marks},
        total=total,
        grade_points=rubric.grade_points(total),
        passed=rubric.passed(total),
    )
