"""Fault scripts of the stub server: per-request scripted faults and a seeded random fault rate."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from benger.testing._behaviours import BEHAVIOURS

KNOWN_FAULTS = ("timeout", "malformed", "badjson", "length", "delay", *BEHAVIOURS)


@dataclass(frozen=True)
class Fault:
    """One fault: an HTTP status (with Retry-After seconds for 429) or a named misbehaviour."""

    kind: str
    status: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, spec: str) -> Fault:
        """``"429"``, ``"429:2"`` (Retry-After 2 s), ``"500"``, ``"timeout"``, ``"delay:1.5"``, ``"malformed"``, ..."""
        head, _, arg = spec.strip().partition(":")
        seconds = float(arg) if arg else None
        if head.isdigit():
            status = int(head)
            if not 400 <= status <= 599:
                raise ValueError(f"fault status must be 4xx or 5xx, got {spec!r}")
            return cls(kind=str(status), status=status, seconds=seconds)
        if head not in KNOWN_FAULTS:
            raise ValueError(f"unknown fault {spec!r}; use an HTTP status (429:2, 500) or one of {KNOWN_FAULTS}")
        return cls(kind=head, seconds=seconds)

    def __str__(self) -> str:
        return self.kind if self.seconds is None else f"{self.kind}:{self.seconds:g}"


class FaultPlan:
    """Scripted faults (first matching requests get them in order) plus a random fault rate."""

    def __init__(
        self,
        faults: dict[str, list[str]] | None = None,
        *,
        fault_rate: float = 0.0,
        random_faults: tuple[str, ...] = ("429:1", "500"),
        seed: int = 0,
    ) -> None:
        if not 0.0 <= fault_rate <= 1.0:
            raise ValueError("fault_rate must be between 0 and 1")
        self._scripts = {pattern: [Fault.parse(s) for s in specs] for pattern, specs in (faults or {}).items()}
        self._random_faults = [Fault.parse(s) for s in random_faults]
        self._rate = fault_rate
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    def next_fault(self, key: str, text: str) -> Fault | None:
        """The fault for a request with messages hash ``key`` and message text ``text`` (None: answer normally).

        A pattern matches when it equals the key, or is "*", or is a substring of the text.
        """
        with self._lock:
            for pattern, queue in self._scripts.items():
                if queue and (pattern in ("*", key) or pattern in text):
                    return queue.pop(0)
            if self._rate and self._random_faults and self._rng.random() < self._rate:
                return self._random_faults[self._rng.randrange(len(self._random_faults))]
        return None
