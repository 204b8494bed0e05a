"""The provider registry: one decorated function per provider (in the style of inspect_ai's ``@modelapi``).

A provider is registered by decorating a zero-argument function that imports and returns its model class::

    @model_api("anthropic", requires=("anthropic>=0.30",), extra="anthropic")
    def anthropic() -> type[ProviderModel]:
        from benger.llm._anthropic import AnthropicChatModel
        return AnthropicChatModel

Nothing is imported until a system uses the provider; then the required distributions are checked first
(installed at all, and inside the tested version range), so a missing or too-old SDK is one clear
``MissingDependencyError`` naming the extra to install, never a bare ``ModuleNotFoundError``. Third-party
packages register providers through the entry-point group ``benger.providers`` (each entry point a module or
function whose import runs ``@model_api``); they are loaded when a provider name is not found built in.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass

from packaging.requirements import Requirement

from benger.errors import ConfigError, MissingDependencyError
from benger.llm._base import ProviderModel
from benger.llm._retry import RetryPolicy
from benger.schema import SystemConfig

ENTRY_POINT_GROUP = "benger.providers"
ModelClass = type[ProviderModel]


@dataclass(frozen=True)
class ProviderSpec:
    """One registered provider: its name and aliases, how to load its class, and what it needs installed."""

    name: str
    load: Callable[[], ModelClass]
    aliases: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    extra: str | None = None
    needs_base_url: bool = False
    description: str = ""

    def check_requirements(self) -> None:
        """Raise MissingDependencyError when a required distribution is missing or outside its range."""
        for spec in self.requires:
            requirement = Requirement(spec)
            feature = f"the {self.name} provider"
            try:
                installed = importlib.metadata.version(requirement.name)
            except importlib.metadata.PackageNotFoundError as exc:
                raise MissingDependencyError(feature, self.extra or self.name, str(requirement)) from exc
            if installed not in requirement.specifier:
                raise MissingDependencyError(
                    f"{feature} (installed {requirement.name} {installed} is outside the tested range)",
                    self.extra or self.name,
                    str(requirement),
                )


_REGISTRY: dict[str, ProviderSpec] = {}
_ALIASES: dict[str, str] = {}
_entry_points_loaded = False


def model_api(
    name: str,
    *,
    aliases: tuple[str, ...] = (),
    requires: tuple[str, ...] = (),
    extra: str | None = None,
    needs_base_url: bool = False,
    description: str = "",
) -> Callable[[Callable[[], ModelClass]], Callable[[], ModelClass]]:
    """Register the decorated loader as provider ``name`` (see the module docstring).

    ``requires``: PEP 508 requirement strings checked before loading; ``extra``: the benger extra that
    installs them; ``needs_base_url``: systems of this provider must set ``base_url``. Registering a name
    twice raises ValueError (a provider is defined in exactly one place)."""

    def register(loader: Callable[[], ModelClass]) -> Callable[[], ModelClass]:
        key = name.strip().lower()
        for taken in (key, *aliases):
            if taken in _REGISTRY or taken in _ALIASES:
                raise ValueError(f"provider {taken!r} is registered twice")
        _REGISTRY[key] = ProviderSpec(key, loader, tuple(aliases), tuple(requires), extra, needs_base_url, description)
        for alias in aliases:
            _ALIASES[alias] = key
        return loader

    return register


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        entry.load()


def provider_spec(provider: str) -> ProviderSpec | None:
    """The registered provider for a name or alias (entry points loaded on a miss), or None."""
    key = provider.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _REGISTRY:
        _load_entry_points()
        key = _ALIASES.get(key, key)
    return _REGISTRY.get(key)


def registered_providers() -> tuple[str, ...]:
    """The names of the registered providers, in registration order."""
    return tuple(_REGISTRY)


def create_registered(system: SystemConfig, policy: RetryPolicy | None = None) -> ProviderModel:
    """The ChatModel for ``system.provider`` from the registry.

    Raises ConfigError (unknown provider, missing base_url, missing API key) or MissingDependencyError."""
    spec = provider_spec(system.provider)
    if spec is None:
        raise ConfigError(
            f"system '{system.name}': unknown provider {system.provider!r}; "
            f"use one of {', '.join(registered_providers())}"
        )
    if spec.needs_base_url and not system.base_url:
        raise ConfigError(f"system '{system.name}': provider {spec.name} needs a base_url")
    spec.check_requirements()
    return spec.load()(system, policy)
