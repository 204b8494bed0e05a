"""Small hand-made records shared by the store tests."""

from __future__ import annotations

from typing import Any

from benger.schema import Corpus, FalloesungTask, PrincipleItem


def make_corpus(name: str = "demo", n: int = 3) -> Corpus:
    """A small Falllösung corpus whose task ids run backwards (t3, t2, t1), so id order != corpus order."""
    ids = [f"{name}-t{n - i}" for i in range(n)]
    tasks = [
        FalloesungTask(
            task_id=tid,
            corpus=name,
            area=("zivilrecht", "Strafrecht", "public")[i % 3],
            facts=f"Sachverhalt {i}: A verkauft B ein Fahrrad.",
            reference=f"Lösung {i}: B hat einen Anspruch aus § 433 II BGB.",
            difficulty="mittel",
            meta={"i": i},
        )
        for i, tid in enumerate(ids)
    ]
    return Corpus(name=name, tasks=tasks, description=f"Korpus {name}")


def make_principles(name: str = "gp") -> Corpus:
    """Two Grundprinzipien items."""
    items = [
        PrincipleItem(
            task_id=f"{name}-0001",
            corpus=name,
            area="strafrecht",
            case="A nimmt B das Rad weg.",
            question="Diebstahl?",
            gold_answer="Ja.",
            gold_reasoning="Wegnahme einer fremden Sache.",
            principle="Analogieverbot",
            authors="X",
        ),
        PrincipleItem(
            task_id=f"{name}-0002",
            corpus=name,
            area="zivilrecht",
            case="A schenkt B ein Buch.",
            question="Kaufvertrag?",
            gold_answer="nein",
            gold_reasoning="Es fehlt der Kaufpreis.",
        ),
    ]
    return Corpus(name=name, tasks=items)


def dump(store: Any) -> dict[str, list[str]]:
    """Every row of every table, as sorted text: equal dumps = an unchanged store."""
    from sqlalchemy import select

    from benger.store import Base

    out: dict[str, list[str]] = {}
    with store.engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            out[table.name] = sorted(repr(tuple(row)) for row in conn.execute(select(table)))
    return out
