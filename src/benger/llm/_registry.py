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
function whose import runs ``@model_api``); they are loaded when a provider name is not found built in. The
providers are kept in ``PROVIDERS_REGISTRY``, a :class:`benger.registry.Registry` (one mechanism for every kind).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from benger.errors import ConfigError
from benger.llm._base import ProviderModel
from benger.llm._retry import RetryPolicy
from benger.registry import Registry, require
from benger.schema import SystemConfig

ENTRY_POINT_GROUP = "benger.providers"
ModelClass = type[ProviderModel]
#: a provider's own check of a system before any call: None, or (field, message) naming what is wrong
SystemCheck = Callable[[SystemConfig], "tuple[str, str] | None"]


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
    #: the values each benger-interpreted parameter may take (``params.structured_output``: the modes)
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    check: SystemCheck | None = None

    def check_requirements(self) -> None:
        """Raise MissingDependencyError when a required distribution is missing or outside its range."""
        require(f"the {self.name} provider", self.extra or self.name, self.requires)


def _normalise(name: str) -> str:
    return name.strip().lower()


#: every provider by name: the registrations of ``benger.llm._factory``, the entry point group
#: ``benger.providers`` (each a module whose import runs ``@model_api``), then ``@model_api`` at run time
PROVIDERS_REGISTRY: Registry[ProviderSpec] = Registry(
    "provider", ENTRY_POINT_GROUP, builtins="benger.llm._factory", normalise=_normalise
)


def model_api(
    name: str,
    *,
    aliases: tuple[str, ...] = (),
    requires: tuple[str, ...] = (),
    extra: str | None = None,
    needs_base_url: bool = False,
    description: str = "",
    choices: dict[str, tuple[str, ...]] | None = None,
    check: SystemCheck | None = None,
) -> Callable[[Callable[[], ModelClass]], Callable[[], ModelClass]]:
    """Register the decorated loader as provider ``name`` (see the module docstring).

    ``requires``: PEP 508 requirement strings checked before loading; ``extra``: the benger extra that
    installs them; ``needs_base_url``: systems of this provider must set ``base_url``; ``choices``: parameter
    -> the values it may take (``{"structured_output": (...)}``); ``check``: the provider's own look at a system
    before any call (a local model's name). Registering a name twice raises ValueError (a provider is defined in
    exactly one place)."""

    def register(loader: Callable[[], ModelClass]) -> Callable[[], ModelClass]:
        key = _normalise(name)
        spec = ProviderSpec(
            key, loader, tuple(aliases), tuple(requires), extra, needs_base_url, description,
            tuple((choices or {}).items()), check,
        )  # fmt: skip
        PROVIDERS_REGISTRY.add(
            key,
            spec,
            aliases=tuple(aliases),
            requires=tuple(requires),
            extra=extra,
            description=description,
            module=getattr(loader, "__module__", None),
        )
        return loader

    return register


def provider_spec(provider: str) -> ProviderSpec | None:
    """The registered provider for a name or alias (entry points loaded on a miss), or None."""
    entry = PROVIDERS_REGISTRY.find(provider)
    return None if entry is None else entry.value


def registered_providers() -> tuple[str, ...]:
    """The names of the registered providers, in registration order."""
    return PROVIDERS_REGISTRY.names()


def system_problem(system: SystemConfig) -> tuple[str, str] | None:
    """What makes ``system`` unusable before any call, as (field, message), or None: an unknown provider, a
    missing ``base_url``, a parameter value the provider does not take (``params.structured_output: bogus``) or
    what the provider's own check finds (an unknown local model). The one check of run configs, ``--model``
    and :func:`create_registered`; the field is relative to the system (``provider``, ``params.structured_output``)."""
    spec = provider_spec(system.provider)
    if spec is None:
        return "provider", f"unknown provider {system.provider!r}; known: {', '.join(registered_providers())}"
    if spec.needs_base_url and not system.base_url:
        return "base_url", f"provider {spec.name} needs a base_url"
    for param, allowed in spec.choices:
        value = system.params.get(param)
        if value is not None and value not in allowed:
            return f"params.{param}", f"{param} {value!r} is not one of {', '.join(allowed)} (provider {spec.name})"
    return spec.check(system) if spec.check is not None else None


def create_registered(system: SystemConfig, policy: RetryPolicy | None = None) -> ProviderModel:
    """The ChatModel for ``system.provider`` from the registry.

    Raises ConfigError (:func:`system_problem`, missing API key) or MissingDependencyError."""
    problem = system_problem(system)
    if problem is not None:
        raise ConfigError(f"system '{system.name}': field '{problem[0]}': {problem[1]}")
    spec = provider_spec(system.provider)
    assert spec is not None  # system_problem names an unknown provider
    spec.check_requirements()
    return spec.load()(system, policy)
