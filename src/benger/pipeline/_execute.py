"""Execute one unit completely: load inputs from the store, prompt, call the model, validate, persist, return.

These two coroutines are the whole work of a worker; the runner only schedules them.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from benger.errors import InputError
from benger.judge import ParsedJudgement, Unscored, parse_judgement
from benger.llm import ChatMessage, ChatModel, ChatRequest, ChatResponse, compute_cost
from benger.llm._errors import ContentFilterError, ContextOverflowError, ProviderError
from benger.llm._refusal import Refusal, RefusedOutput, detect_refusal, refusal_phrase
from benger.llm._reply import AmbiguousOutput, MalformedOutput, split_reasoning
from benger.llm._retry import RetryPolicy, retry_async
from benger.pipeline._fit import TooLong, unit_fit_problem
from benger.pipeline._prompts import PromptSet, default_prompts
from benger.pipeline._reading import ShortOutput, answer_tokens, parse_generation
from benger.pipeline._units import (
    GenerationUnit,
    JudgeUnit,
    generation_id,
    judgement_id,
)
from benger.pipeline._writer import persist
from benger.schema import FalloesungTask, Generation, HumanSolution, Judgement, PrincipleItem

__all__ = ["MIN_OUTPUT_TOKENS", "REASK_POLICY", "execute_generation", "execute_judgement", "parse_generation"]

# Re-asks after a malformed reply: the one retry policy's budget, no waiting (the model answered; it only
# answered badly).
REASK_POLICY = RetryPolicy(max_retries=3, initial_wait=0.0, jitter=0.0)
MIN_OUTPUT_TOKENS = 200
MAX_KEPT_REPLY = 4000  # characters of the last malformed reply kept in meta for inspection
MAX_KEPT_REASONING = 32_000  # characters of the final reply's reasoning kept in meta["reasoning"]
_REASK_NOTE = (
    "Hinweis: Deine vorige Antwort war nicht verwertbar ({reason}). Antworte erneut und gib ausschließlich "
    "ein einziges gültiges JSON-Objekt im verlangten Format aus."
)
_SHORT_NOTE = (
    "Hinweis: Deine vorige Falllösung war zu kurz ({reason}). Antworte erneut mit einer vollständigen "
    "Falllösung im verlangten Format."
)


class UnitStore(Protocol):
    """The store methods the units use (benger.store.Store implements them)."""

    def get_task(self, task_id: str, corpus: str | None = None) -> FalloesungTask | PrincipleItem | None: ...
    def get_generation_by_id(self, generation_id: str) -> Generation | None: ...
    def get_human_solution(self, solution_id: str) -> HumanSolution | None: ...
    def save_generation(self, gen: Generation) -> Any: ...
    def save_judgement(self, judgement: Judgement) -> Any: ...
    @property
    def inline_writes(self) -> bool: ...
    def write_batch(self) -> AbstractContextManager[None]: ...


@dataclass
class _Tally:
    """Tokens, cost and time summed over every attempt of one unit.

    ``attempts``: model calls (the first ask and each re-ask), answered or failed; ``provider_retries``:
    HTTP retries inside those calls; their sum is the number of HTTP requests sent."""

    attempts: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float | None = None
    latency: float = 0.0
    provider_retries: int = 0
    last_bad_reply: str | None = None
    reasoning: str | None = None
    estimated: bool = False
    structured_output: str | None = None

    def add_failure(self, error: ProviderError) -> None:
        self.attempts += 1
        self.provider_retries += error.retries

    def meta(self, failed: bool) -> dict[str, Any]:
        """The counters every record carries in its meta (and the reasoning of the last reply)."""
        meta: dict[str, Any] = {
            "attempts": self.attempts,
            "provider_retries": self.provider_retries,
            "http_attempts": self.attempts + self.provider_retries,
        }
        if self.estimated:  # the server sent no usage for at least one reply: the counts are estimates
            meta["tokens_estimated"] = True
        if self.structured_output is not None:
            meta["structured_output"] = self.structured_output
        if self.reasoning:
            meta["reasoning"] = self.reasoning[:MAX_KEPT_REASONING]
            meta["reasoning_chars"] = len(self.reasoning)
        if failed and self.last_bad_reply:
            meta["last_bad_reply"] = self.last_bad_reply
        return meta

    def add(self, response: ChatResponse, prices: tuple[float | None, float | None]) -> None:
        self.attempts += 1
        self.estimated = self.estimated or response.usage.estimated
        self.structured_output = response.structured_output or self.structured_output
        self.reasoning = split_reasoning(response.text, response.reasoning)[1]
        self.input_tokens += response.usage.input_tokens
        self.output_tokens += response.usage.output_tokens
        self.latency += response.latency_s
        self.provider_retries += response.retries
        cost = response.cost_usd if response.cost_usd is not None else compute_cost(response.usage, *prices)
        if cost is not None:
            self.cost = (self.cost or 0.0) + cost


def _request(
    system_messages: list[ChatMessage], unit_system: Any, schema: dict[str, Any] | None, name: str
) -> ChatRequest:
    return ChatRequest(
        messages=system_messages,
        temperature=unit_system.temperature,
        max_tokens=unit_system.max_output_tokens,
        seed=unit_system.seed,
        json_schema=schema,
        schema_name=name,
        params=dict(unit_system.params),
    )


async def _ask(
    model: ChatModel, base: ChatRequest, parse: Any, tally: _Tally, policy: RetryPolicy, prices: Any
) -> tuple[ChatResponse, Any]:
    """Call the model, re-asking with a correction note on a malformed or short reply (``policy``'s budget).

    A refusal (provider field, content filter, or a refusal phrase in a reply without a usable answer)
    raises ``RefusedOutput`` at once; ``AmbiguousOutput`` is final too; both are never re-asked."""
    last_error: list[MalformedOutput] = []

    async def attempt() -> tuple[ChatResponse, Any]:
        request = base
        if last_error:
            template = _SHORT_NOTE if isinstance(last_error[-1], ShortOutput) else _REASK_NOTE
            note = ChatMessage(role="user", content=template.format(reason=last_error[-1].reason))
            request = base.model_copy(update={"messages": [*base.messages, note]})
        try:
            response = await model.complete(request)
        except ProviderError as exc:
            tally.add_failure(exc)
            raise
        tally.add(response, prices)
        refusal = detect_refusal(response)
        if refusal is not None:
            raise RefusedOutput(refusal)
        try:
            return response, parse(response)
        except MalformedOutput as exc:
            phrase = refusal_phrase(split_reasoning(response.text, response.reasoning)[0])
            if phrase is not None:
                raise RefusedOutput(phrase) from exc
            last_error.append(exc)
            tally.last_bad_reply = response.text[:MAX_KEPT_REPLY]
            raise

    # retry_async asks once outside its retry loop: most replies are fine at the first ask
    return await retry_async(policy, attempt, retry_on=(MalformedOutput,))


async def execute_generation(
    unit: GenerationUnit,
    store: UnitStore,
    model: ChatModel,
    prompts: PromptSet | None = None,
    *,
    reask_policy: RetryPolicy = REASK_POLICY,
    min_output_tokens: int = MIN_OUTPUT_TOKENS,
    task: FalloesungTask | PrincipleItem | None = None,
    config_hash: str | None = None,
    system_hash: str | None = None,
) -> Generation:
    """Generate, validate and persist one output; returns the saved Generation.

    Status: ``ok``; ``excluded`` — final, not redone: malformed after the re-ask budget, a Falllösung
    shorter than ``min_output_tokens`` answer tokens after the re-ask budget (at once when the reply was
    cut off by the token limit: a re-ask cannot be longer), refused / content filter (one call, no
    re-ask), ambiguous (several different valid objects); ``failed`` (provider error after the retry
    budget) — retried on the next run. ``task`` skips the store look-up when the caller has it;
    ``config_hash`` (``prompts.generation_config_hash(unit.system, task.kind)``) and ``system_hash``
    (``unit.system.config_hash()``) skip recomputing them when the caller keeps them per system.
    """
    prompts = prompts or default_prompts()
    if task is None or task.task_id != unit.task_id or unit.corpus not in (None, task.corpus):
        task = store.get_task(unit.task_id, unit.corpus)
    if task is None:
        where = f" of corpus {unit.corpus!r}" if unit.corpus is not None else ""
        raise InputError(f"task {unit.task_id!r}{where} is not in the store")
    prompt_hash = prompts.hash_for(task.kind)
    if config_hash is None:
        config_hash = prompts.generation_config_hash(unit.system, task.kind)
    base = _request(prompts.generation_messages(task), unit.system, prompts.schema_for(task), f"benger_{task.kind}")
    prices = (unit.system.price_in_per_mtok, unit.system.price_out_per_mtok)
    plain = prompts.falloesung_format == "text"
    tally = _Tally()
    fields: dict[str, Any] = {}
    quoted = [m.content for m in base.messages]
    is_fall = isinstance(task, FalloesungTask)

    def parse(r: ChatResponse) -> tuple[str, Any]:
        text, answer = parse_generation(
            r.text, task, truncated=r.truncated, plain_text=plain, reasoning=r.reasoning, quoted=quoted
        )
        if is_fall and not r.truncated and answer_tokens(r) < min_output_tokens:
            raise ShortOutput(answer_tokens(r), min_output_tokens, text)
        return text, answer

    try:
        too_long = await unit_fit_problem(unit.system, base.messages)
        if too_long is not None:
            raise TooLong(too_long)
        response, (text, answer) = await _ask(model, base, parse, tally, reask_policy, prices)
        fields.update(text=text, answer=answer, finish_reason=response.finish_reason, truncated=response.truncated)
        if is_fall and answer_tokens(response) < min_output_tokens:  # cut off by the limit: no re-ask helps
            mark = " (estimated)" if response.usage.estimated else ""
            fields.update(status="excluded", reason=f"short: {answer_tokens(response)} output tokens{mark}")
        else:
            fields.update(status="ok")
    except TooLong as exc:
        fields.update(status="excluded", reason=exc.reason)
    except ContextOverflowError as exc:
        fields.update(status="excluded", reason=f"too long (server): {exc}"[:500])
    except ShortOutput as exc:
        fields.update(status="excluded", text=exc.text, reason=f"{exc.reason} after {tally.attempts} attempts")
    except MalformedOutput as exc:
        fields.update(status="excluded", reason=f"malformed after {tally.attempts} attempts: {exc.reason}")
    except AmbiguousOutput as exc:
        fields.update(status="excluded", reason=exc.reason)
    except RefusedOutput as exc:
        fields.update(status="excluded", refused=True, reason=exc.refusal.describe())
    except ContentFilterError as exc:
        fields.update(status="excluded", refused=True, reason=Refusal("content_filter", str(exc)).describe())
    except ProviderError as exc:
        fields.update(status="failed", reason=f"{type(exc).__name__}: {exc}")
    gen = Generation(
        generation_id=generation_id(unit.task_id, config_hash, unit.run_index, task.corpus),
        task_id=unit.task_id,
        corpus=task.corpus,
        system=unit.system.name,
        config_hash=config_hash,
        run_index=unit.run_index,
        input_tokens=tally.input_tokens,
        output_tokens=tally.output_tokens,
        latency_s=round(tally.latency, 6),
        cost_usd=tally.cost,
        meta={
            "system_config_hash": system_hash or unit.system.config_hash(),
            "prompt_hash": prompt_hash,
            **tally.meta(failed=fields.get("status") != "ok"),
            "completed_at": time.time(),
        },
        **fields,
    )
    await persist(store, store.save_generation, gen)
    return gen


def _target_texts(store: Any, unit: JudgeUnit) -> tuple[FalloesungTask | PrincipleItem, str]:
    """The task of a judge target and the candidate text the judge reads."""
    if unit.target_kind == "generation":
        gen: Generation | None = store.get_generation_by_id(unit.target_id)
        if gen is None:
            raise InputError(f"generation {unit.target_id!r} is not in the store")
        task_id, corpus, text, answer = gen.task_id, gen.corpus, gen.text, gen.answer
    else:
        sol: HumanSolution | None = store.get_human_solution(unit.target_id)
        if sol is None:
            raise InputError(f"human solution {unit.target_id!r} is not in the store")
        task_id, corpus, text, answer = sol.task_id, sol.corpus, sol.text, None
    task = store.get_task(task_id, corpus)
    if task is None:
        raise InputError(f"task {task_id!r} is not in the store")
    return task, judge_candidate(task, text, answer)


def judge_candidate(task: FalloesungTask | PrincipleItem, text: str, answer: str | None) -> str:
    """The candidate text the judge reads: the solution, or for a Grundprinzip item the answer and reasoning."""
    if isinstance(task, PrincipleItem) and answer is not None:
        return f"Antwort: {answer}\nBegründung: {text}"
    return text


def task_and_reference(task: FalloesungTask | PrincipleItem) -> tuple[str, str]:
    """The task text and the reference text shown to the judge."""
    if isinstance(task, FalloesungTask):
        return task.facts, task.reference
    return (
        f"Fall: {task.case}\n\nFrage: {task.question}",
        f"Antwort: {task.gold_answer}\nBegründung: {task.gold_reasoning}",
    )


def _parse_or_raise(response: ChatResponse, rubric: Any, prompt: str) -> ParsedJudgement:
    result = parse_judgement(response.text, rubric, reasoning=response.reasoning, quoted=[prompt])
    if isinstance(result, Unscored):
        if result.kind == "ambiguous":
            raise AmbiguousOutput(result.reason, 2)
        raise MalformedOutput(result.reason)
    return result


async def execute_judgement(
    unit: JudgeUnit,
    store: Any,
    model: ChatModel,
    prompts: PromptSet | None = None,
    *,
    reask_policy: RetryPolicy = REASK_POLICY,
) -> Judgement:
    """Judge one target and persist the Judgement (``scored``, or ``unscored`` with the reason — never 0).

    Unscored reasons start with ``unparseable after N attempts``, ``ambiguous``, ``refused`` or
    ``provider error``; a refusal sets ``meta["refused"]``."""
    prompts = prompts or default_prompts()
    rubric = unit.rubric
    template = prompts.judge_template(rubric)
    task, candidate = _target_texts(store, unit)
    task_text, reference = task_and_reference(task)
    prompt = template.render(
        rubric, task=task_text, reference=reference, candidate=candidate, brief=prompts.judge_brief
    )
    base = _request(
        [ChatMessage(role="user", content=prompt)], unit.judge, prompts.judge_schema(rubric), "benger_judgement"
    )
    prices = (unit.judge.price_in_per_mtok, unit.judge.price_out_per_mtok)
    judge_hash = prompts.judge_config_hash(unit.judge, rubric)
    tally = _Tally()
    fields: dict[str, Any]
    try:
        too_long = await unit_fit_problem(unit.judge, base.messages)
        if too_long is not None:
            raise TooLong(too_long)
        _, parsed = await _ask(model, base, lambda r: _parse_or_raise(r, rubric, prompt), tally, reask_policy, prices)
        fields = {
            "status": "scored",
            "dimensions": parsed.dimensions,
            "justifications": parsed.justifications,
            "total": parsed.total,
            "grade_points": parsed.grade_points,
            "passed": parsed.passed,
            "model_total": parsed.model_total,
            "answer": parsed.answer,
        }
        extra = {"total_mismatch": parsed.total_mismatch, "overall": parsed.overall}
        if parsed.correction_after is not None:
            extra["correction_after_json"] = parsed.correction_after
    except TooLong as exc:
        fields = {"status": "unscored", "reason": exc.reason}
        extra = {"too_long": True}
    except ContextOverflowError as exc:
        fields = {"status": "unscored", "reason": f"too long (server): {exc}"[:500]}
        extra = {"too_long": True}
    except MalformedOutput as exc:
        fields = {"status": "unscored", "reason": f"unparseable after {tally.attempts} attempts: {exc.reason}"}
        extra = {}
    except AmbiguousOutput as exc:
        fields = {"status": "unscored", "reason": exc.reason}
        extra = {"ambiguous": True}
    except RefusedOutput as exc:
        fields = {"status": "unscored", "reason": exc.refusal.describe()}
        extra = {"refused": True}
    except ContentFilterError as exc:
        fields = {"status": "unscored", "reason": Refusal("content_filter", str(exc)).describe()}
        extra = {"refused": True}
    except ProviderError as exc:
        fields = {"status": "unscored", "reason": f"provider error: {type(exc).__name__}: {exc}"}
        extra = {}
    judgement = Judgement(
        judgement_id=judgement_id(unit.target_kind, unit.target_id, judge_hash, rubric.id, unit.repeat_index),
        target_kind=unit.target_kind,
        target_id=unit.target_id,
        judge=unit.judge.name,
        judge_config_hash=judge_hash,
        rubric_id=rubric.id,
        repeat_index=unit.repeat_index,
        meta={
            **extra,
            "task_id": task.task_id,
            "template_hash": template.hash,
            **tally.meta(failed=fields["status"] != "scored"),
            "input_tokens": tally.input_tokens,
            "output_tokens": tally.output_tokens,
            "cost_usd": tally.cost,
            "latency_s": round(tally.latency, 6),
            "completed_at": time.time(),
        },
        **fields,
    )
    await persist(store, store.save_judgement, judgement)
    return judgement
