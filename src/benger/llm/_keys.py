"""API keys that are not in the process environment: stored encrypted, handed to models for one run.

An organisation's keys are kept encrypted (Fernet: AES-128-CBC + HMAC-SHA256, from ``cryptography``) under the
server key in ``BENGER_SECRET_KEY``. A run that uses them decrypts them into :func:`supplied_keys`, a context
variable (so one run's keys never reach another run of the same process, and ``os.environ`` is never
changed); :func:`api_key_from_env` — what every provider asks for its key — looks there first, then in the
environment.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Any

from benger.errors import ConfigError

SECRET_ENV = "BENGER_SECRET_KEY"
#: The names a key may be stored under (what a system's ``api_key_env`` names): ``OPENAI_API_KEY``, ... Never a
#: ``BENGER_*`` setting, so a run config cannot make a provider send the server key (or another setting) away.
KEY_NAME = re.compile(r"^(?!BENGER_)[A-Z][A-Z0-9_]{0,60}_API_KEY$")

_SUPPLIED: ContextVar[Mapping[str, str] | None] = ContextVar("benger_supplied_keys", default=None)


def check_key_name(name: str) -> str:
    """``name`` when it is a valid key name (:data:`KEY_NAME`), else ConfigError saying what is allowed."""
    if not KEY_NAME.fullmatch(name):
        raise ConfigError(
            f"{name!r} is not an API key name: use capitals, digits and _, ending in _API_KEY (OPENAI_API_KEY), "
            "not a BENGER_ setting"
        )
    return name


def _fernet() -> Any:
    """The Fernet of the server key; ConfigError naming ``BENGER_SECRET_KEY`` when it is missing or invalid."""
    try:
        from cryptography.fernet import Fernet
    except ImportError as exc:  # pragma: no cover - the web extra installs it
        from benger.errors import MissingDependencyError

        raise MissingDependencyError("stored API keys", "web", "cryptography") from exc
    raw = os.environ.get(SECRET_ENV, "").strip()
    if not raw:
        raise ConfigError(
            f"stored API keys need the environment variable {SECRET_ENV} (a Fernet key: create one with "
            "`python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())'`)"
        )
    try:
        return Fernet(raw.encode("ascii"))
    except (ValueError, UnicodeEncodeError):
        raise ConfigError(
            f"the environment variable {SECRET_ENV} is not a valid Fernet key (32 url-safe base64-encoded bytes, "
            "44 characters)"
        ) from None


def check_secret_key() -> None:
    """Raise ConfigError (naming ``BENGER_SECRET_KEY``) unless the server key is set and valid."""
    _fernet()


def encrypt_key(plain: str) -> str:
    """The ciphertext (text) of an API key under the server key."""
    if not plain or plain != plain.strip() or "\n" in plain:
        raise ConfigError("an API key is one line without leading or trailing spaces")
    token: bytes = _fernet().encrypt(plain.encode("utf-8"))
    return token.decode("ascii")


def decrypt_key(token: str) -> str:
    """The API key of a ciphertext; ConfigError when the server key is not the one it was stored under."""
    from cryptography.fernet import InvalidToken

    try:
        plain: bytes = _fernet().decrypt(token.encode("ascii"))
    except InvalidToken:
        raise ConfigError(
            f"a stored API key cannot be decrypted with the current {SECRET_ENV} (was the server key changed?): "
            "set the key again"
        ) from None
    return plain.decode("utf-8")


_SEALED: ContextVar[Mapping[str, str] | None] = ContextVar("benger_sealed_keys", default=None)


@contextlib.contextmanager
def supplied_keys(keys: Mapping[str, str], sealed: Mapping[str, str] | None = None) -> Iterator[None]:
    """Within this block (and the tasks and threads started with its context) :func:`api_key_from_env` finds
    ``keys`` (name -> key) before the environment; ``sealed`` (name -> ciphertext, the same keys) is what the
    Celery executor sends its workers (:func:`sealed_for_workers`), which decrypt them with their own copy of
    the server key."""
    outer = _SUPPLIED.get() or {}
    token = _SUPPLIED.set({**outer, **keys})
    sealed_token = _SEALED.set({**(_SEALED.get() or {}), **(sealed or {})})
    try:
        yield
    finally:
        _SEALED.reset(sealed_token)
        _SUPPLIED.reset(token)


def sealed_for_workers() -> dict[str, str]:
    """The ciphertexts of the keys supplied to this context (empty outside :func:`supplied_keys`)."""
    return dict(_SEALED.get() or {})


def api_key_from_env(name: str) -> str | None:
    """The key called ``name``: a supplied one (:func:`supplied_keys`), else the environment's, else None."""
    supplied = _SUPPLIED.get()
    if supplied and supplied.get(name):
        return supplied[name]
    return os.environ.get(name) or None
