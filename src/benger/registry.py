"""One way to extend benger (issue 31): a registry per kind, filled by decorators and by entry points.

Every kind of extension — metrics, providers, statistics, rubrics and corpus readers — is kept in one
:class:`Registry`. An entry comes from one of three places:

1. benger itself: the registry imports its ``builtins`` module (or calls its ``builtins`` function) on first use,
   whose decorators register the built-in entries;
2. an installed distribution: every entry point of the registry's group (``benger.metrics``, ``benger.providers``,
   ``benger.statistics``, ``benger.rubrics``, ``benger.corpora``). Loading it either runs the decorators of the
   module it names, or gives a value the registry adopts under the entry point's name (how depends on the kind);
3. code at run time: the kind's decorator or :meth:`Registry.add` (notebooks, tests).

Nothing heavy is imported to register: an entry may name the distributions it needs (PEP 508 ``requires``) and
the benger extra that installs them; :meth:`Entry.check` (called by the kind before it uses the entry) raises
:class:`~benger.errors.MissingDependencyError` naming the extra. :func:`registries` lists the kinds created so far
(``benger extensions`` lists them all), :func:`refresh` makes them read the entry points again (after installing a
plugin in a running process).

This module is the lowest layer: it imports nothing of benger but :mod:`benger.errors`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from benger.errors import ConfigError, MissingDependencyError

T = TypeVar("T")

#: the source of entries registered by benger's own modules
BUILTIN = "built-in"
#: the source of entries registered at run time (no module of benger, no entry point)
RUNTIME = "runtime"


class RegistryError(ConfigError, ValueError):
    """A name registered twice, a bad entry point, or a value the registry cannot hold."""


def require(feature: str, extra: str, requirements: tuple[str, ...]) -> None:
    """Raise :class:`MissingDependencyError` unless every PEP 508 requirement is installed inside its range.

    ``feature`` names what needs them (``"the anthropic provider"``), ``extra`` the benger extra installing them."""
    from packaging.requirements import InvalidRequirement, Requirement  # here: only a provider's check needs it

    for spec in requirements:
        try:
            requirement = Requirement(spec)
        except InvalidRequirement as exc:
            raise RegistryError(f"{feature}: requirement {spec!r} is not PEP 508: {exc}") from None
        try:
            installed = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError as exc:
            raise MissingDependencyError(feature, extra, str(requirement)) from exc
        if installed not in requirement.specifier:
            raise MissingDependencyError(
                f"{feature} (installed {requirement.name} {installed} is outside the tested range)",
                extra,
                str(requirement),
            )


def require_module(feature: str, extra: str, module: str, package: str) -> None:
    """Raise :class:`MissingDependencyError` naming ``package`` and ``extra`` unless ``module`` can be imported.

    Only looks for it (``importlib.util.find_spec``): nothing is imported, so checking torch costs no seconds of
    import and a Ctrl-C meanwhile stops at once (issue 26); the code that uses a module imports it there. The
    parent packages of a dotted name are imported to find it."""
    try:
        found = importlib.util.find_spec(module)  # None also for a module blocked by ``sys.modules[name] = None``
    except ValueError:  # imported already, without a spec (``__main__``, a module made at run time)
        return
    except ImportError as exc:  # a parent package of a dotted name is missing
        raise MissingDependencyError(feature, extra, package) from exc
    if found is None:
        raise MissingDependencyError(feature, extra, package)


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered item: its name, the value, where it came from and what it needs installed."""

    kind: str
    name: str
    value: T
    source: str = RUNTIME
    aliases: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    extra: str | None = None
    description: str = ""

    @property
    def feature(self) -> str:
        return f"the {self.name} {self.kind}"

    def check(self) -> None:
        """Raise :class:`MissingDependencyError` (naming the extra) when a required distribution is missing."""
        require(self.feature, self.extra or self.name, self.requires)


Ident = tuple[str, str, str]
#: the entry points being loaded now, innermost last: (source, (group, name, value))
_LOADING: list[tuple[str, Ident]] = []


def _point_source(point: importlib.metadata.EntryPoint, group: str) -> str:
    dist = getattr(point, "dist", None)
    owner = f", distribution {dist.name}" if dist is not None and getattr(dist, "name", None) else ""
    return f"entry point {point.name} = {point.value} (group {group}{owner})"


def _origin(module: str | None) -> str:
    return BUILTIN if module is not None and (module == "benger" or module.startswith("benger.")) else RUNTIME


Adopt = Callable[["Registry[Any]", str, Any], None]


def _adopt_value(registry: Registry[Any], name: str, value: Any) -> None:
    """The default: a module registered its entries when imported; any other value is the entry ``name``."""
    if type(value).__name__ == "module":
        return
    registry.add(name, value)


@dataclass
class Registry(Generic[T]):
    """The entries of one kind (see the module docstring).

    ``builtins``: a module to import, or a function to call, that registers the built-in entries (once, on first
    use); ``adopt(registry, name, value)``: how an entry point's loaded value becomes entries; ``normalise``: how a
    name is written before lookup (providers: stripped and lower-cased)."""

    kind: str
    group: str
    builtins: str | Callable[[], None] | None = None
    adopt: Adopt = _adopt_value
    normalise: Callable[[str], str] = str.strip
    _entries: dict[str, Entry[T]] = field(default_factory=dict, init=False, repr=False)
    _aliases: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _builtins_loaded: bool = field(default=False, init=False, repr=False)
    #: the names each entry point (group, name, value) registered here (a plugin module may fill several kinds)
    _points: dict[Ident, list[str]] = field(default_factory=dict, init=False, repr=False)
    _points_read: bool = field(default=False, init=False, repr=False)
    _known: dict[Ident, importlib.metadata.EntryPoint] | None = field(default=None, init=False, repr=False)
    _builtin_loading: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        _ALL[self.kind] = self

    # ------------------------------------------------------------ registering

    def add(
        self,
        name: str,
        value: T,
        *,
        source: str | None = None,
        aliases: tuple[str, ...] = (),
        requires: tuple[str, ...] = (),
        extra: str | None = None,
        description: str = "",
        module: str | None = None,
    ) -> Entry[T]:
        """Register ``value`` as ``name`` (a name or alias taken already raises :class:`RegistryError`).

        ``source`` defaults to the entry point being loaded, else ``built-in`` when ``module`` (the module that
        defines the value) is part of benger, else ``runtime``."""
        self.load_builtins()  # a built-in's name is taken before anything else registers
        key = self.normalise(name)
        if not key:
            raise RegistryError(f"a {self.kind} needs a non-empty name")
        aliases = tuple(self.normalise(a) for a in aliases)
        for taken in (key, *aliases):
            if taken in self._entries or taken in self._aliases:
                first = self._entries.get(self._aliases.get(taken, taken))
                where = f" (by {first.source})" if first is not None else ""
                raise RegistryError(f"{self.kind} {taken!r} is registered twice; it is already registered{where}")
        origin, ident = (source, None) if source is not None else self._attribute(module)
        entry = Entry(self.kind, key, value, origin, aliases, tuple(requires), extra, " ".join(description.split()))
        self._entries[key] = entry
        for alias in aliases:
            self._aliases[alias] = key
        if ident is not None:
            self._points.setdefault(ident, []).append(key)
        return entry

    def _attribute(self, module: str | None) -> tuple[str, Ident | None]:
        """Where an entry registered now comes from: benger's own module; an entry point of this kind's group
        naming the defining module; the entry point being loaded (of any kind); else run time."""
        if self._builtin_loading or _origin(module) == BUILTIN:
            return BUILTIN, None
        if module is not None:
            for ident, point in self._group_points().items():
                if point.module == module:
                    return _point_source(point, self.group), ident
        return _LOADING[-1] if _LOADING else (RUNTIME, None)

    def decorator(self, name: str, **options: Any) -> Callable[[T], T]:
        """``@registry.decorator(name, ...)``: registers the decorated object as ``name`` and returns it."""

        def wrap(value: T) -> T:
            self.add(name, value, module=getattr(value, "__module__", None), **options)
            return value

        return wrap

    def remove(self, name: str) -> Entry[T] | None:
        """Forget ``name`` (and its aliases); returns the entry, or None when there was none."""
        entry = self._entries.pop(self.normalise(name), None)
        for alias in entry.aliases if entry else ():
            self._aliases.pop(alias, None)
        return entry

    # ------------------------------------------------------------ discovery

    def load_builtins(self) -> None:
        """Register the built-in entries (once; no entry point is read)."""
        if self._builtins_loaded or self.builtins is None:
            return
        self._builtins_loaded = self._builtin_loading = True
        try:
            if isinstance(self.builtins, str):
                importlib.import_module(self.builtins)
            else:
                self.builtins()
        finally:
            self._builtin_loading = False

    def _group_points(self) -> dict[Ident, importlib.metadata.EntryPoint]:
        if self._known is None:
            found = importlib.metadata.entry_points(group=self.group)
            self._known = {(self.group, p.name, p.value): p for p in found}
        return self._known

    def _load_entry_points(self) -> None:
        if self._points_read:
            return
        self._points_read = True
        current = self._group_points()
        alive = set(current)
        for group in {ident[0] for ident in self._points} - {self.group}:
            alive |= {(group, p.name, p.value) for p in importlib.metadata.entry_points(group=group)}
        for gone in [ident for ident in self._points if ident not in alive]:
            for name in self._points.pop(gone):
                self.remove(name)
        for ident, point in current.items():
            if ident in self._points:
                continue
            self._points[ident] = []
            source = _point_source(point, self.group)
            _LOADING.append((source, ident))
            try:
                try:
                    value = point.load()  # a module's decorators register as this entry point
                except Exception as exc:
                    for name in self._points.pop(ident):
                        self.remove(name)
                    raise RegistryError(f"{source} cannot be loaded: {type(exc).__name__}: {exc}") from exc
                try:
                    self.adopt(self, point.name, value)
                except RegistryError:
                    raise
                except (TypeError, ValueError) as exc:
                    raise RegistryError(f"{source}: {exc}") from exc
            finally:
                _LOADING.pop()

    def load(self) -> None:
        """Register the built-ins and every entry point not loaded yet."""
        self.load_builtins()
        self._load_entry_points()

    def refresh(self) -> None:
        """Read the entry points again on next use: new ones are loaded, the entries of those that are gone are
        removed (a module imported before is not imported again)."""
        self._points_read = False
        self._known = None

    # ------------------------------------------------------------ lookup

    def find(self, name: str) -> Entry[T] | None:
        """The entry of a name or alias, or None; built-ins first, the entry points only on a miss."""
        self.load_builtins()
        key = self.normalise(name)
        key = self._aliases.get(key, key)
        if key not in self._entries:
            self._load_entry_points()
            key = self._aliases.get(key, key)
        return self._entries.get(key)

    def get(self, name: str) -> Entry[T]:
        """The entry of a name or alias; unknown raises ``KeyError``."""
        entry = self.find(name)
        if entry is None:
            raise KeyError(name)
        return entry

    def has(self, name: str) -> bool:
        """Whether ``name`` is registered now (built-ins loaded; no entry point is read)."""
        self.load_builtins()
        key = self.normalise(name)
        return key in self._entries or key in self._aliases

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.find(name) is not None

    def entries(self) -> list[Entry[T]]:
        """Every entry, in registration order (built-ins, entry points, run time)."""
        self.load()
        return list(self._entries.values())

    def builtin_names(self) -> tuple[str, ...]:
        """The names benger itself registers (no entry point is read)."""
        self.load_builtins()
        return tuple(e.name for e in self._entries.values() if e.source == BUILTIN)

    def names(self) -> tuple[str, ...]:
        """The registered names (no aliases), in registration order."""
        return tuple(entry.name for entry in self.entries())


_ALL: dict[str, Registry[Any]] = {}


def registries() -> dict[str, Registry[Any]]:
    """The registries created so far, by kind (``benger extensions`` imports the modules that create them)."""
    return dict(_ALL)


def refresh() -> None:
    """Make every registry read its entry points again on next use."""
    for registry in _ALL.values():
        registry.refresh()
