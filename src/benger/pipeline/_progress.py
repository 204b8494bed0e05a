"""Progress display: a rich bar with ETA, tokens, cost and status counts (plain lines when not a terminal)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from benger._console import console as new_console


@dataclass
class RunStats:
    """Counts of one runner pass; ``errors`` holds (unit key, message) of units that raised."""

    label: str = ""
    total: int = 0
    done: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    errors: list[tuple[str, str]] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None

    def record(self, status: str, input_tokens: int | None, output_tokens: int | None, cost: float | None) -> None:
        self.done += 1
        self.counts[status] = self.counts.get(status, 0) + 1
        self.input_tokens += input_tokens or 0
        self.output_tokens += output_tokens or 0
        self.cost_usd += cost or 0.0

    @property
    def elapsed_s(self) -> float:
        return (self.finished or time.monotonic()) - self.started

    def summary(self) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items())) or "nothing to do"
        if self.errors:
            parts += f", errors {len(self.errors)}"
        return (
            f"{self.label}: {self.done}/{self.total} ({parts}); tokens in {self.input_tokens:,} / out "
            f"{self.output_tokens:,}; cost ${self.cost_usd:.4f}; {self.elapsed_s:.1f} s"
        )


#: Seconds between two updates of the rich bar (its refresh rate is 10 per second).
BAR_UPDATE_S = 0.1


class ProgressReporter:
    """Shows a runner's progress. ``enabled=False`` shows nothing (benchmarks, library use)."""

    def __init__(self, console: Console | None = None, *, enabled: bool = True, plain_every_s: float = 10.0) -> None:
        self.console = console or new_console(stderr=True)
        self.enabled = enabled
        self.plain_every_s = plain_every_s
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._stats: RunStats | None = None
        self._last_plain = 0.0
        self._last_bar = 0.0

    def _fields(self, stats: RunStats) -> dict[str, Any]:
        counts = " ".join(f"{k}={v}" for k, v in sorted(stats.counts.items()))
        info = f"tok {stats.input_tokens:,}/{stats.output_tokens:,} · ${stats.cost_usd:.4f}" + (
            f" · {counts}" if counts else ""
        )
        return {"info": info}

    def start(self, stats: RunStats) -> None:
        self._stats = stats
        if not self.enabled:
            return
        if self.console.is_terminal:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                TextColumn("{task.fields[info]}"),
                console=self.console,
            )
            self._progress.start()
            self._task = self._progress.add_task(stats.label, total=stats.total, **self._fields(stats))
        else:
            self.console.print(f"{stats.label}: {stats.total} items to do")
            self._last_plain = time.monotonic()

    @property
    def needs_heartbeat(self) -> bool:
        """Plain (non-terminal) output prints a line every ``plain_every_s`` even when nothing finished."""
        return self.enabled and self._progress is None

    def update(self, *, heartbeat: bool = False) -> None:
        stats = self._stats
        if not self.enabled or stats is None:
            return
        now = time.monotonic()
        if self._progress is not None and self._task is not None:
            # the bar redraws 10 times a second: newer numbers than that are never seen, so skip the work
            if now - self._last_bar >= BAR_UPDATE_S or stats.done == stats.total:
                self._last_bar = now
                self._progress.update(self._task, completed=stats.done, **self._fields(stats))
            return
        if now - self._last_plain >= self.plain_every_s or (stats.done == stats.total and not heartbeat):
            self._last_plain = now
            eta = ""
            if 0 < stats.done < stats.total:
                eta = f", ETA {stats.elapsed_s / stats.done * (stats.total - stats.done):.0f} s"
            elapsed = f", {stats.elapsed_s:.0f} s elapsed"
            self.console.print(
                f"{stats.label}: {stats.done}/{stats.total}{elapsed}{eta} · {self._fields(stats)['info']}"
            )

    def stop(self) -> None:
        if self._progress is not None:
            if self._task is not None and self._stats is not None:  # the last numbers, even if throttled
                self._progress.update(self._task, completed=self._stats.done, **self._fields(self._stats))
            self._progress.stop()
            self._progress = None
        if self.enabled and self._stats is not None:
            self.console.print(self._stats.summary())
