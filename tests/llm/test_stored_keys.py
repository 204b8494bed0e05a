"""Stored API keys (issue 28): Fernet under BENGER_SECRET_KEY, named when missing or bad, supplied to a run's
models through a context variable (never os.environ), so one run's keys never reach another's."""

from __future__ import annotations

import pytest

from benger.errors import ConfigError
from benger.llm._keys import SECRET_ENV, api_key_from_env, check_key_name, decrypt_key, encrypt_key, supplied_keys
from benger.llm._openai import OpenAIChatModel
from benger.schema import SystemConfig

#: A valid Fernet key (32 bytes of 0x01, url-safe base64).
SECRET = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="
PLAIN_KEY = "sk-test-Zq8wX3vN5rT7yL1pK9mB"


@pytest.mark.parametrize(
    ("value", "says"),
    [(None, "need the environment variable BENGER_SECRET_KEY"), ("", "need the environment variable"),
     ("not-a-key", "BENGER_SECRET_KEY is not a valid Fernet key"), ("ä" * 44, "is not a valid Fernet key")],
)  # fmt: skip
def test_a_missing_or_bad_server_key_is_named(monkeypatch: pytest.MonkeyPatch, value: str | None, says: str) -> None:
    if value is None:
        monkeypatch.delenv(SECRET_ENV, raising=False)
    else:
        monkeypatch.setenv(SECRET_ENV, value)
    with pytest.raises(ConfigError, match=says):
        encrypt_key(PLAIN_KEY)


def test_ciphertext_round_trips_and_a_changed_server_key_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SECRET_ENV, SECRET)
    sealed = encrypt_key(PLAIN_KEY)
    assert PLAIN_KEY not in sealed and PLAIN_KEY[-4:] not in sealed and decrypt_key(sealed) == PLAIN_KEY
    monkeypatch.setenv(SECRET_ENV, "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=")
    with pytest.raises(ConfigError, match="cannot be decrypted with the current BENGER_SECRET_KEY"):
        decrypt_key(sealed)


def test_supplied_keys_reach_the_model_and_only_inside_their_context(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "from-the-environment")
    system = SystemConfig(name="x", provider="openai", model="gpt-x")
    with supplied_keys({"OPENAI_API_KEY": PLAIN_KEY}):
        assert OpenAIChatModel(system)._api_key == PLAIN_KEY
    assert OpenAIChatModel(system)._api_key == "from-the-environment"
    assert api_key_from_env("OPENAI_API_KEY") == "from-the-environment"


@pytest.mark.parametrize(
    ("name", "ok"),
    [("OPENAI_API_KEY", True), ("MY_LAB_API_KEY", True), ("BENGER_SECRET_KEY", False), ("BENGER_X_API_KEY", False),
     ("openai_api_key", False), ("PATH", False), ("DATABASE_URL", False), ("OPENAI_API_KEY\n", False)],
)  # fmt: skip
def test_key_names(name: str, ok: bool) -> None:
    if ok:
        assert check_key_name(name) == name
    else:
        with pytest.raises(ConfigError, match="is not an API key name"):
            check_key_name(name)


def test_keys_of_two_threads_stay_apart() -> None:
    import threading

    seen: dict[str, str | None] = {}

    def run(name: str) -> None:
        with supplied_keys({"OPENAI_API_KEY": name}):
            threading.Event().wait(0.05)
            seen[name] = api_key_from_env("OPENAI_API_KEY")

    threads = [threading.Thread(target=run, args=(n,)) for n in ("org-a", "org-b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"org-a": "org-a", "org-b": "org-b"}
