"""The base of every results.json block and the statistics registry (issues 14 and 17).

A *statistic* is one ``StatisticDef``: where it goes in results.json (a dotted ``path``), the pydantic ``model`` its
value validates against, the ``compute`` function that makes it from a :class:`Context`, and the paper table it
reproduces. ``compute_all`` runs every registered statistic in ``order`` and validates each value against its model;
``docs/results-schema.md`` is generated from the same definitions (``python -m benger.analysis.results.docs``).
The statistics are kept in ``STATISTICS``, a :class:`benger.registry.Registry` (one mechanism for every kind).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from benger.errors import ConfigError
from benger.registry import Registry


class Block(BaseModel):
    """One statistic's block: what was computed (``method``), from what (``inputs``), and its values.

    Blocks keep every key the compute function writes (``extra="allow"``); the typed fields are the ones the report
    and the docs rely on. A block whose inputs are missing keeps its shape with ``source = "unavailable"`` and a
    ``reason``; statistics that cannot be computed are ``null``, never 0.
    """

    model_config = ConfigDict(extra="allow")

    method: str = Field(description="one sentence: what was computed and how")
    inputs: dict[str, Any] | list[Any] = Field(description="which data it used: counts, keys, settings")
    unit: str | None = Field(None, description="unit of the main values (raw 0-100, grade points 0-18, ...)")
    paper_ref: str | None = Field(None, description="the paper table / section the block reproduces")
    source: str | None = Field(
        None, description="per_annotation | released_aggregates | released_metadata | unavailable"
    )
    reason: str | None = Field(None, description="why the inputs are unavailable (with source = unavailable)")


class Container(BaseModel):
    """A results.json level that only groups blocks (no ``method``); unknown keys are kept."""

    model_config = ConfigDict(extra="allow")


@dataclass
class Context:
    """What a compute function receives: the study data, the run settings, and the blocks computed so far
    (``results``, nested as in results.json; a statistic with a higher ``order`` may read earlier ones)."""

    data: Any
    seed: int = 0
    n_boot: int = 2000
    n_stacked: int = 500
    include_superseded: bool = False
    results: dict[str, Any] = field(default_factory=dict)
    #: Work shared between statistics of one run, by a key the statistic chooses (e.g. the bootstrap cells both
    #: Appendix A tables use); never part of results.json.
    memo: dict[str, Any] = field(default_factory=dict)

    def get(self, path: str) -> Any:
        """The value at a dotted path of the results computed so far (``KeyError`` if not computed yet)."""
        node: Any = self.results
        for part in path.split("."):
            node = node[part]
        return node


ComputeFn = Callable[[Context], Any]


@dataclass(frozen=True)
class StatisticDef:
    """One statistic of results.json.

    ``path``: dotted key (``"rq5.intra_judge"``); ``model``: the pydantic model of the value, or of each value
    under ``keys`` dict levels (``keys=("judge", "pool")`` means ``{judge: {pool: model}}``); ``compute(ctx)``
    returns the plain-JSON value (dicts, lists, numbers; may be ``None`` when ``optional``); ``paper_ref`` and
    ``unit`` are written into each block that does not set them; ``order`` sorts the run (ties: registration order).
    """

    path: str
    model: type[BaseModel]
    compute: ComputeFn
    keys: tuple[str, ...] = ()
    paper_ref: str | None = None
    unit: str | None = None
    order: int = 1000
    optional: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        if not self.path or any(not p.isidentifier() for p in self.path.split(".")):
            raise ConfigError(f"statistic path {self.path!r} must be dotted identifiers")

    @cached_property
    def adapter(self) -> TypeAdapter[Any]:
        """Validates a whole value: the model nested in ``dict[str, ...]`` once per level of ``keys``."""
        tp: Any = self.model
        for _ in self.keys:
            tp = dict[str, tp]
        if self.optional:
            tp = tp | None
        return TypeAdapter(tp)

    def validate(self, value: Any) -> Any:
        """The value as models (raises ``pydantic.ValidationError`` naming the bad field)."""
        return self.adapter.validate_python(value)

    def blocks(self, value: Any) -> Iterator[Any]:
        """The leaf values (one per ``keys`` combination) of a computed value."""
        yield from _leaves(value, len(self.keys))

    def stamp(self, value: Any) -> Any:
        """Writes ``paper_ref`` / ``unit`` into each leaf block (a dict with ``method``) that lacks them."""
        for leaf in self.blocks(value):
            if isinstance(leaf, dict) and "method" in leaf:
                for key, extra in (("paper_ref", self.paper_ref), ("unit", self.unit)):
                    if extra is not None:
                        leaf.setdefault(key, extra)
        return value


def _leaves(value: Any, depth: int) -> Iterator[Any]:
    if depth == 0:
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _leaves(v, depth - 1)


# ---------------------------------------------------------------- the registry

BUILTIN_MODULE = "benger.analysis.results._builtin"
#: every statistic by path: the built-ins (``_builtin``), the entry point group ``benger.statistics`` (each a
#: module whose import runs ``@statistic``), then ``@statistic`` / ``register`` at run time
STATISTICS: Registry[StatisticDef] = Registry("statistic", "benger.statistics", builtins=BUILTIN_MODULE)


def register(defn: StatisticDef) -> StatisticDef:
    """Adds a statistic for this process; a path that is registered already raises ``ConfigError``."""
    if STATISTICS.has(defn.path):
        raise ConfigError(f"statistic {defn.path!r} is already registered")
    STATISTICS.add(defn.path, defn, description=defn.description, module=getattr(defn.compute, "__module__", None))
    return defn


def statistic(
    path: str,
    model: type[BaseModel],
    *,
    keys: tuple[str, ...] = (),
    paper_ref: str | None = None,
    unit: str | None = None,
    order: int = 1000,
    optional: bool = False,
) -> Callable[[ComputeFn], ComputeFn]:
    """Decorator: registers ``fn(ctx) -> value`` as the statistic at ``path`` (see :class:`StatisticDef`)."""

    def wrap(fn: ComputeFn) -> ComputeFn:
        doc = (fn.__doc__ or "").strip()
        register(StatisticDef(path, model, fn, keys, paper_ref, unit, order, optional, " ".join(doc.split())))
        return fn

    return wrap


def unregister(path: str) -> None:
    """Removes a statistic (built-ins included; they come back only in a new process)."""
    STATISTICS.remove(path)


def all_statistics() -> list[StatisticDef]:
    """Every registered statistic in run order (``order``, then registration order); loads the built-ins."""
    defs = [entry.value for entry in STATISTICS.entries()]
    return sorted(defs, key=lambda d: (d.order, defs.index(d)))


def get_statistic(path: str) -> StatisticDef:
    """The statistic at ``path``; unknown raises ``KeyError``."""
    return STATISTICS.get(path).value


def put(results: dict[str, Any], path: str, value: Any) -> None:
    """Sets ``results[a][b]... = value`` for the dotted path, creating the levels above it."""
    *parents, last = path.split(".")
    node = results
    for part in parents:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(f"statistic {path!r}: {part!r} is a value, not a level of results.json")
    node[last] = value
