"""Two judgements of one case on the embedded judge: the second evaluates only its own suffix (llama.cpp keeps the
previous call's KV cache and reuses its longest common token prefix: the rubric, Sachverhalt and Musterlösung
that every judgement of the case starts with, cut to a batch boundary by ``benger.llm._llama.align_cache``), and
its reply is the one a cold cache gives (temperature 0). Counted from llama-cpp-python's own evaluations
(``Llama.eval``), not from times, on the packaged SmolLM2."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from benger.llm import ChatMessage, ChatRequest, create_model
from benger.pipeline._demo import demo_config
from benger.pipeline._orchestrate import run_prompts
from benger.pipeline._units import rubric_for_kind
from benger.schema import SystemConfig

TASK = "K kauft von V ein gebrauchtes Fahrrad für 300 Euro. V liefert nicht, weil er es inzwischen an D verkauft hat."
REFERENCE = "K hat keinen Anspruch auf Lieferung aus § 433 Abs. 1 BGB, da V nach § 275 Abs. 1 BGB frei ist."
CANDIDATES = (
    "Ein Anspruch des K gegen V aus § 433 Abs. 1 S. 1 BGB ist entstanden, aber nach § 275 Abs. 1 BGB ausgeschlossen.",
    "K kann von V die Lieferung des Fahrrads verlangen, denn der Kaufvertrag ist wirksam.",
)


class Evaluations:
    """The tokens each ``Llama.eval`` of one instance takes, grouped by ``create_completion`` call."""

    def __init__(self, llama: Any) -> None:
        self.calls: list[list[int]] = []
        eval_, complete = llama.eval, llama.create_completion

        def counted_eval(tokens: Any) -> Any:
            self.calls[-1].append(len(tokens))
            return eval_(tokens)

        def counted_complete(*args: Any, **kwargs: Any) -> Any:
            self.calls.append([])
            return complete(*args, **kwargs)

        llama.eval, llama.create_completion = counted_eval, counted_complete

    def take(self) -> list[list[int]]:
        calls, self.calls = self.calls, []
        return calls


@pytest.fixture(scope="module")
def judge() -> Any:
    pytest.importorskip("llama_cpp")
    base = demo_config().resolved_judges()[0]
    params = {**base.params, "n_ctx": 4096, "n_threads": 1}
    system = SystemConfig.model_validate(
        {**base.model_dump(), "name": "smollm2 judge", "model": "smollm2-135m", "params": params}
    )
    model: Any = create_model(system)
    from benger.llm._llama import load_llama

    handle = load_llama(model.key)
    return model, handle.llama, Evaluations(handle.llama)


def _prompt(candidate: str) -> str:
    prompts = run_prompts(demo_config())
    rubric = rubric_for_kind("falloesung")
    return prompts.judge_template(rubric).render(
        rubric, task=TASK, reference=REFERENCE, candidate=candidate, brief=prompts.judge_brief
    )


def _judge(model: Any, candidate: str) -> str:
    prompts = run_prompts(demo_config())
    system = model.system
    request = ChatRequest(messages=[ChatMessage(role="user", content=_prompt(candidate))],
                          temperature=system.temperature, max_tokens=system.max_output_tokens, seed=system.seed,
                          json_schema=prompts.judge_schema(rubric_for_kind("falloesung")),
                          params=dict(system.params))  # fmt: skip
    return str(asyncio.run(model._call(request)).text)


def _common(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


@pytest.mark.slow
def test_the_second_judgement_of_a_case_evaluates_only_its_own_suffix(judge: Any) -> None:
    model, llama, evaluations = judge
    from benger.llm._fill import chat_prompt

    tokens = [
        llama.tokenize(chat_prompt(llama, [{"role": "user", "content": _prompt(c)}]).encode(), special=True)
        for c in CANDIDATES
    ]
    shared = _common(*tokens)
    head = _prompt("").split("=== Zu bewertende Bearbeitung ===")[0]
    assert shared >= len(llama.tokenize(head.encode(), add_bos=False)) > 2000  # rubric, Sachverhalt, Musterlösung

    llama.reset()
    _judge(model, CANDIDATES[0])
    first = evaluations.take()
    keys = first[0][0] - len(tokens[0])  # a cold cache: the whole prompt and the reply's first keys
    assert 0 < keys < 40
    _judge(model, CANDIDATES[1])
    second = evaluations.take()
    # only the candidate, what follows it and the keys, from the batch boundary before them (align_cache)
    kept = shared // llama.n_batch * llama.n_batch
    assert second[0][0] == len(tokens[1]) - kept + keys
    assert kept > shared - llama.n_batch
    # every later call of the schema fill evaluates the keys it inserts and the last decoded token, once: the
    # reply is never evaluated again (in batches: the call's first eval; then one token per decode)
    batches = [call[0] for call in second[1:] if call]
    assert sum(batches) < 20 * len(batches), batches


@pytest.mark.slow
def test_a_judgement_after_a_cached_prefix_is_the_cold_one(judge: Any) -> None:
    model, llama, evaluations = judge
    llama.reset()
    cold = _judge(model, CANDIDATES[1])
    cold_prompt = evaluations.take()[0][0]
    _judge(model, CANDIDATES[0])  # leaves the case's prefix in the cache
    evaluations.take()
    warm = _judge(model, CANDIDATES[1])
    assert evaluations.take()[0][0] < cold_prompt - 2000  # the prefix came from the cache
    assert warm == cold


class _Cache:
    """What ``align_cache`` reads and sets of a ``Llama``."""

    def __init__(self, cached: list[int], n_batch: int = 4) -> None:
        self.input_ids, self.n_tokens, self.n_batch, self._requires_eval = cached, len(cached), n_batch, False


@pytest.mark.parametrize(
    ("cached", "prompt", "kept"),
    [
        (list(range(10)), [*range(9), 99], 8),  # common prefix 9 -> the batch boundary 8
        (list(range(10)), [*range(8), 99], 8),  # on a boundary: all of it
        (list(range(10)), [*range(3), 99], 0),  # less than a batch: nothing
        (list(range(8)), list(range(8)), 4),  # the same prompt: its last token is evaluated again, so from 4
        ([], [1, 2, 3], 0),
    ],
)
def test_the_cache_is_cut_to_a_batch_boundary(cached: list[int], prompt: list[int], kept: int) -> None:
    from benger.llm._llama import align_cache

    llama = _Cache(cached)
    assert align_cache(llama, prompt) == kept
    assert llama.n_tokens == kept
    assert llama._requires_eval == (kept < len(cached))
