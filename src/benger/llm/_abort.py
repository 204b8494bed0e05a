"""Stopping a running llama.cpp call without calling into Python on every step of its graph.

ggml asks the context's abort callback after every node of the compute graph (several hundred per generated
token), from the calling thread, while the other worker threads spin at the next barrier. A Python callback
(``ctypes``) there re-enters the interpreter and takes the GIL at every node, and waits for the GIL whenever
another Python thread holds it; raw llama-cpp-python sets no callback at all.

:class:`AbortFlag` is a byte that llama.cpp reads itself: the callback is the C library's ``strlen`` over a
two-byte buffer ``{flag, 0}``, which returns 1 while the flag is set and 0 otherwise, with no Python on the way
(``bool`` is returned in the low byte of the return register on the x86-64 and AArch64 ABIs, where ``strlen``'s
result, 0 or 1, is that byte). A short-lived relay thread sets the byte when the call's cancel event is set; each
call has its own flag, so a relay that wakes after its call ended cannot stop the next one. Where the C
library's ``strlen`` cannot be found (an unusual platform), the callback is a Python function reading the same
byte: slower, equally correct.
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any

#: how often a relay looks at its call's cancel event (the latency Ctrl-C adds to a running llama.cpp call)
RELAY_POLL_S = 0.05


def _strlen_address() -> int | None:
    """The address of the C library's ``strlen``, or None where it cannot be found."""
    try:
        libc = ctypes.cdll.msvcrt if os.name == "nt" else ctypes.CDLL(None)
        address = ctypes.cast(libc.strlen, ctypes.c_void_p).value
    except (OSError, AttributeError, TypeError):
        return None
    return int(address) if address else None


def native_callback(callback_type: Any) -> Any:
    """A ``callback_type`` (llama-cpp-python's ``ggml_abort_callback``) that reports whether the byte its data
    pointer points at is non-zero: ``strlen`` in C, or a Python function where that is missing. Keep the returned
    object alive as long as a context uses it."""
    address = _strlen_address()
    if address is not None:
        return callback_type(address)
    return callback_type(lambda data: bool(ctypes.cast(data, ctypes.POINTER(ctypes.c_char))[0] != b"\0"))


class AbortFlag:
    """One call's stop byte (``data`` is the pointer to pass as the callback's data) and the relay that sets it
    when ``cancel`` is set; :meth:`finish` ends the relay (call it when the call returns)."""

    def __init__(self, cancel: threading.Event) -> None:
        self._byte = ctypes.create_string_buffer(2)  # b"\0\0": strlen 0 (go on); b"\1\0": strlen 1 (stop)
        self.data = ctypes.cast(self._byte, ctypes.c_void_p)
        self._finished = threading.Event()
        self._relay = threading.Thread(target=self._watch, args=(cancel,), name="benger-llama-abort", daemon=True)
        self._relay.start()

    def _watch(self, cancel: threading.Event) -> None:
        while not self._finished.is_set():
            if cancel.wait(RELAY_POLL_S):
                self.set()
                return

    def set(self) -> None:
        """Ask the running call to stop at its graph's next node."""
        self._byte[0] = b"\x01"

    def is_set(self) -> bool:
        """True once :meth:`set` was called."""
        return self._byte[0] != b"\0"

    def finish(self) -> None:
        """End the relay (it stops within :data:`RELAY_POLL_S`; nothing waits for it)."""
        self._finished.set()
