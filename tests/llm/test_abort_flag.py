"""The native stop byte of a llama.cpp call (issue 26): read by C (``strlen``) with no Python per graph node,
set by a relay when the call's cancel event is set, one byte per call."""

from __future__ import annotations

import ctypes
import threading
import time

import pytest

from benger.llm import _abort
from benger.llm._abort import RELAY_POLL_S, AbortFlag, native_callback

#: the signature of llama-cpp-python's ``ggml_abort_callback`` (``bool (*)(void *)``), without importing it
CALLBACK = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p)


def _wait_until(check: object, timeout: float = 2.0) -> float:
    start = time.monotonic()
    while not check():  # type: ignore[operator]
        if time.monotonic() - start > timeout:
            raise AssertionError("the flag was not set in time")
        time.sleep(0.001)
    return time.monotonic() - start


@pytest.mark.parametrize("native", [True, False], ids=["strlen", "python-fallback"])
def test_the_callback_reports_the_flag_of_its_call(native: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if native:
        assert _abort._strlen_address() is not None  # Linux and macOS: the C library is in the process
    else:
        monkeypatch.setattr(_abort, "_strlen_address", lambda: None)
    callback = native_callback(CALLBACK)
    cancel = threading.Event()
    flag = AbortFlag(cancel)
    try:
        assert callback(flag.data) is False
        cancel.set()
        waited = _wait_until(lambda: callback(flag.data))
        assert waited < RELAY_POLL_S + 0.5
        assert flag.is_set()
    finally:
        flag.finish()


def test_the_strlen_callback_is_c_code_not_a_python_function() -> None:
    address = _abort._strlen_address()
    assert address is not None
    callback = native_callback(CALLBACK)
    assert ctypes.cast(callback, ctypes.c_void_p).value == address


def test_a_late_relay_cannot_stop_the_next_call() -> None:
    callback = native_callback(CALLBACK)
    first_cancel = threading.Event()
    first = AbortFlag(first_cancel)
    first.finish()
    second = AbortFlag(threading.Event())
    try:
        first_cancel.set()  # after its call ended: at most its own byte changes
        time.sleep(3 * RELAY_POLL_S)
        assert callback(second.data) is False
    finally:
        second.finish()


def test_a_finished_relay_ends() -> None:
    flag = AbortFlag(threading.Event())
    flag.finish()
    flag._relay.join(timeout=2 * RELAY_POLL_S + 1.0)
    assert not flag._relay.is_alive()
    assert not flag.is_set()
