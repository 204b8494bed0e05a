"""The rubric of a corpus's tasks when its stored judgements and reviews are read (analyze, the report,
validate-judge, import-reviews): the one the store's judgements of the corpus were made with, found by its id in
the registry or among the rubrics the store keeps (``benger.judge.stored_rubric``), so no ``--rubric`` file is
needed; a rubric given by the user wins, unless the store keeps the rubric its judgements were made with and the
given one is another (refused, naming both)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from benger.errors import BengerError, InputError
from benger.judge import Rubric, stored_rubric
from benger.judge._rubric import BUILTIN_RUBRICS
from benger.pipeline._units import _task_rubric, resolve_rubric


def corpus_rubrics(
    store: Any, corpora: Iterable[str], given: Mapping[str, Rubric] | None = None, *, option: str = "--rubric"
) -> dict[str, Rubric]:
    """corpus -> the rubric of its tasks without their own Bewertungsbogen (``rubric_for_task``'s ``rubrics``).

    ``given[corpus]`` when named (``option``: how the user named it, for the message); else the one own rubric
    (not the paper's, not a task's own Bewertungsbogen) its judgements were made with, when the registry or the
    store holds it. A corpus judged under the paper's rubrics only, under several own rubrics or under one
    neither holds is left out (the readers then refuse what needs it, naming ``--rubric``). InputError when
    ``given`` names a rubric other than the one(s) the store keeps for the corpus's judgements."""
    chosen = dict(given or {})
    for corpus in corpora:
        own = _judged_own_rubrics(store, corpus)
        if not own:
            continue
        named = chosen.get(corpus)
        kept = {rid for rid in own if stored_rubric(store, rid) is not None}
        if named is not None:
            if kept and named.id not in own:
                raise InputError(
                    f"{option} {corpus}=...: rubric {named.id} (content hash {named.content_hash[:8]}) is not the "
                    f"rubric the store's judgements of corpus {corpus!r} were made with ({', '.join(sorted(own))}; "
                    f"the store keeps it): leave {option} out to use the kept rubric, or give that rubric's file",
                    field=option,
                )
            continue
        known = [r for r in (_known(store, rid) for rid in sorted(own)) if r is not None]
        if len(known) == 1:
            chosen[corpus] = known[0]
    return chosen


def _judged_own_rubrics(store: Any, corpus: str) -> set[str]:
    """The ids of the own rubrics the judgements of ``corpus`` were made with (not the paper's two, not a
    task's own Bewertungsbogen)."""
    own = {rid for rid in store.judged_rubric_ids(corpus) if rid.split("@", 1)[0] not in BUILTIN_RUBRICS}
    if not own:
        return own
    per_task = {_task_rubric(t).id for t in store.load_corpus(corpus).tasks if t.rubric is not None}
    return own - per_task


def _known(store: Any, rubric_id: str) -> Rubric | None:
    try:
        return resolve_rubric(rubric_id, store)
    except BengerError:
        return None
