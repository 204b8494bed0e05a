"""The embedded model's flash attention (``params.flash_attn``, default off as llama-cpp-python leaves it): part of
the process-wide model key, honoured by the context llama.cpp creates, refused clearly when it is not a boolean,
and part of a system's identity when a config sets it."""

from __future__ import annotations

from typing import Any

import pytest

from benger.errors import ConfigError
from benger.llm._llama import LlamaKey, load_llama, parse_switch
from benger.llm._local import LocalChatModel
from benger.schema import SystemConfig

# llama.cpp's enum llama_flash_attn_type: AUTO = -1, DISABLED = 0, ENABLED = 1
ENABLED, DISABLED = 1, 0


def _system(**params: Any) -> SystemConfig:
    return SystemConfig(name="smol", provider="local", model="smollm2-135m", tier="local", params=params)


@pytest.mark.parametrize(
    ("params", "expected"), [({}, False), ({"flash_attn": True}, True), ({"flash_attn": False}, False)]
)
def test_the_setting_is_part_of_the_model_key(params: dict[str, Any], expected: bool) -> None:
    assert LocalChatModel(_system(**params)).key.flash_attn is expected


@pytest.mark.parametrize("value", ["false", "no", 0, 1, "", [True]])
def test_anything_but_a_boolean_is_refused_naming_the_field(value: object) -> None:
    with pytest.raises(ConfigError, match=r"^system 'smol': params.flash_attn: expected true or false, got "):
        LocalChatModel(_system(flash_attn=value))
    assert parse_switch(None, "f", default=False) is False


def test_a_config_that_sets_it_names_another_system() -> None:
    assert _system().config_hash() != _system(flash_attn=False).config_hash()
    assert _system(flash_attn=True).config_hash() != _system(flash_attn=False).config_hash()


def test_llama_cpp_creates_the_context_as_the_key_says() -> None:
    pytest.importorskip("llama_cpp")
    on, off = (LocalChatModel(_system(n_ctx=512, flash_attn=flag)).key for flag in (True, False))
    assert on != off  # two contexts: a system with it off never gets one created with it on
    assert load_llama(on).llama.context_params.flash_attn_type == ENABLED
    assert load_llama(off).llama.context_params.flash_attn_type == DISABLED
    assert load_llama(LlamaKey(on.path, 512)) is load_llama(off)  # the default is off
