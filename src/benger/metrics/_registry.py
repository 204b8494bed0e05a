"""The metric registry (issue 17): a metric is one ``MetricDef``; its signature is derived from its parameters.

Where metrics come from, in this order:

1. every module of the package ``benger.metrics.defs`` (a module-level ``METRICS`` list of ``MetricDef``) -
   adding a built-in metric is adding one file there;
2. the Python entry point group ``benger.metrics`` of installed distributions: each entry point names a
   ``MetricDef``, a list of them, or a function returning either (``my_pkg.metrics:METRIC``);
3. ``register(defn)`` at run time (notebooks, tests).

They are kept in ``METRICS``, a :class:`benger.registry.Registry` (the one mechanism every kind of extension uses).

The signature of a metric is ``key|name:value|...|norm:<text normalisation id>|v:<package>-<version>...``: the
parameters exactly as they are passed to the compute function, then benger's text normalisation
(``benger.text``), then the versions of the packages that compute it. There are no hand-written signature
strings, so a signature cannot drift from what was computed. Optional dependencies are imported only when a
metric is used; a missing one raises ``MissingDependencyError`` naming the extra to install.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Protocol

from benger.errors import ConfigError
from benger.metrics._lexical import Score
from benger.registry import BUILTIN, RUNTIME, Registry, require_module
from benger.text import TEXT_NORMALISATION_ID

ENTRY_POINT_GROUP = "benger.metrics"
#: the store keeps signatures in a 300-character column
MAX_SIGNATURE_LENGTH = 300

ComputeFn = Callable[[Sequence[str], Sequence[str], Mapping[str, Any]], list[Score]]
ResolveFn = Callable[[dict[str, Any], Sequence[str]], dict[str, Any]]


class SignaturePart(Protocol):
    """A parameter value that is not a plain str/int/float/bool/None names itself in the signature."""

    @property
    def signature_id(self) -> str: ...  # pragma: no cover - protocol


@dataclass(frozen=True)
class TextCorpus:
    """A fixed list of texts a metric fits weights on (IDF); in a signature: ``<role>-<sha256[:8]>-n<count>``.

    The fingerprint is over the distinct normalised texts in sorted order, so the same corpus in another
    order or with repeats is the same corpus.
    """

    texts: tuple[str, ...]
    role: str = "refs"

    @classmethod
    def of(cls, texts: Iterable[str], role: str = "refs") -> TextCorpus:
        """The distinct texts, sorted (normalise them first)."""
        return cls(tuple(sorted(set(texts))), role)

    @property
    def signature_id(self) -> str:
        """``refs-<sha8>-n<N>`` (an empty corpus: just the role, e.g. ``refs-of-call`` in listings)."""
        if not self.texts:
            return self.role
        digest = hashlib.sha256("\x00".join(self.texts).encode("utf-8")).hexdigest()[:8]
        return f"{self.role}-{digest}-n{len(self.texts)}"


@dataclass(frozen=True)
class PairwiseCompute:
    """Makes a batch compute function from ``fn(candidate, reference, params) -> Score`` (picklable)."""

    fn: Callable[[str, str, Mapping[str, Any]], Score]

    def __call__(self, candidates: Sequence[str], references: Sequence[str], params: Mapping[str, Any]) -> list[Score]:
        return [self.fn(c, r, params) for c, r in zip(candidates, references, strict=True)]


@dataclass(frozen=True)
class MetricDef:
    """One metric: everything benger needs to compute, store, label and sign it.

    ``compute(candidates, references, params)`` returns one ``Score`` (value, usually 0-1, and optional
    details) per pair; it receives the normalised texts and the resolved ``params``. ``params`` are the
    parameters that define the metric, in signature order; callers may override those listed in
    ``options``. ``resolve(params, references)`` (optional) turns defaults into concrete values before the
    signature is made (e.g. the encoder's identity). ``packages`` are distributions whose versions go into the
    signature; ``requires`` are ``(import name, pip name)`` pairs checked before use, installed by ``extra``.
    ``pairwise``: a pair's value never depends on the other pairs of the call (the runner may split a call
    into chunks); ``parallel``: cheap enough to run in worker processes. ``group``: a name under which
    ``--metrics`` selects this metric with its siblings (``rouge`` = rouge1, rouge2, rougeL).
    """

    key: str
    label: str
    family: str
    compute: ComputeFn
    params: Mapping[str, Any] = field(default_factory=dict)
    packages: tuple[str, ...] = ()
    requires: tuple[tuple[str, str], ...] = ()
    extra: str = "metrics"
    options: tuple[str, ...] = ()
    resolve: ResolveFn | None = None
    default: bool = False
    pairwise: bool = True
    parallel: bool = False
    order: int = 1000
    description: str = ""
    #: the name of the metric group it belongs to as the paper names it ("rouge": ROUGE-1/2/L), or ""
    group: str = ""

    def __post_init__(self) -> None:
        _check_token(self.key, "key")
        for name, value in self.params.items():
            _check_token(name, f"parameter name of {self.key}")
            if isinstance(value, str):
                _check_token(value, f"parameter {name} of {self.key}")
        unknown = set(self.options) - set(self.params)
        if unknown:
            raise ConfigError(f"metric {self.key!r}: options {sorted(unknown)} are not parameters")

    def bind(self, overrides: Mapping[str, Any] | None = None, references: Sequence[str] = ()) -> dict[str, Any]:
        """The concrete parameters: defaults, the overrides this metric accepts, then ``resolve``."""
        params = dict(self.params)
        for name, value in (overrides or {}).items():
            if name in self.options and value is not None:
                params[name] = value
        return self.resolve(params, references) if self.resolve else params

    def signature(self, params: Mapping[str, Any] | None = None) -> str:
        """``key|name:value|...|norm:...|v:pkg-version`` of the given (default: declared) parameters."""
        params = self.params if params is None else params
        parts = [self.key, *(f"{name}:{format_value(value)}" for name, value in params.items())]
        parts.append(f"norm:{TEXT_NORMALISATION_ID}")
        parts.extend(f"v:{pkg}-{package_version(pkg)}" for pkg in self.packages)
        sig = "|".join(parts)
        if len(sig) > MAX_SIGNATURE_LENGTH:
            raise ConfigError(f"metric {self.key!r}: signature longer than {MAX_SIGNATURE_LENGTH} characters: {sig}")
        return sig

    def check_dependencies(self) -> None:
        """Check each required module is installed (found, not imported); a missing one raises
        ``MissingDependencyError`` naming the extra."""
        for module, package in self.requires:
            require_module(f"metric {self.key!r} ({self.label})", self.extra, module, package)


def _check_token(text: str, what: str) -> None:
    if not text or any(c in text for c in "|\n") or (what == "key" and ":" in text):
        raise ConfigError(f"metric {what} {text!r} must be non-empty without '|', ':' or line breaks")


def format_value(value: Any) -> str:
    """A parameter as it appears in a signature: yes/no, none, numbers via ``repr``, or ``signature_id``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, int | float | str):
        return str(value)
    ident = getattr(value, "signature_id", None)
    if isinstance(ident, str):
        return ident
    raise ConfigError(f"parameter value {value!r} cannot go into a signature (give it a signature_id)")


def package_version(name: str) -> str:
    """The installed version of a distribution, or ``missing``."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "missing"


# ---------------------------------------------------------------- discovery


def _as_defs(obj: Any, source: str) -> list[MetricDef]:
    if callable(obj) and not isinstance(obj, MetricDef):
        obj = obj()
    items = [obj] if isinstance(obj, MetricDef) else list(obj) if isinstance(obj, list | tuple) else None
    if items is None or not all(isinstance(d, MetricDef) for d in items):
        raise ConfigError(f"{source} must give a MetricDef or a list of them, not {type(obj).__name__}")
    return items


def _add(registry: Registry[MetricDef], defn: MetricDef) -> None:
    registry.add(defn.key, defn, extra=defn.extra, description=defn.description or defn.label)


def _builtin_modules() -> list[tuple[str, list[MetricDef]]]:
    from benger.metrics import defs

    out = []
    for info in sorted(pkgutil.iter_modules(defs.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{defs.__name__}.{info.name}")
        out.append((module.__name__, _as_defs(getattr(module, "METRICS", []), module.__name__)))
    return out


def _register_builtins() -> None:
    for _, found in _builtin_modules():
        for defn in found:
            _add(METRICS, defn)


def _adopt(registry: Registry[MetricDef], name: str, value: Any) -> None:
    """An entry point names a ``MetricDef``, a list of them, or a function returning either."""
    for defn in _as_defs(value, f"entry point {name}"):
        _add(registry, defn)


#: every metric by key: the ``defs`` modules, the entry point group ``benger.metrics``, then ``register``
METRICS: Registry[MetricDef] = Registry("metric", ENTRY_POINT_GROUP, builtins=_register_builtins, adopt=_adopt)


def _ordered(defs: Iterable[MetricDef]) -> dict[str, MetricDef]:
    return {d.key: d for d in sorted(defs, key=lambda d: (d.order, d.key))}


def builtin_metrics() -> dict[str, MetricDef]:
    """The metrics of ``benger.metrics.defs`` only (no entry points), in display order."""
    METRICS.load()
    return _ordered(e.value for e in METRICS.entries() if e.source == BUILTIN)


def all_metrics() -> dict[str, MetricDef]:
    """Every registered metric by key, in display order (``order``, then key)."""
    return _ordered(e.value for e in METRICS.entries())


def get_metric(key: str) -> MetricDef:
    """The metric ``key``; an unknown key raises ``KeyError``."""
    return METRICS.get(key).value


def register(defn: MetricDef) -> MetricDef:
    """Register a metric for this process (a key that exists raises ``ConfigError``); returns it."""
    METRICS.load()
    if METRICS.find(defn.key) is not None:
        raise ConfigError(f"metric key {defn.key!r} is already registered")
    _add(METRICS, defn)
    return defn


def unregister(key: str) -> None:
    """Remove a metric added with ``register`` (built-in and entry-point metrics stay)."""
    entry = METRICS.find(key)
    if entry is not None and entry.source == RUNTIME:
        METRICS.remove(key)


def refresh() -> None:
    """Read the entry points again (after installing or removing a plugin in a running process)."""
    METRICS.refresh()
