"""The one factory of rich consoles for everything benger prints on a terminal.

benger prints data, never rich markup: system and judge names, config ids, rubric ids such as
``[a441f5cf, falloesung@1]``, file paths and model replies. With rich's default (markup on) a bracketed
run that looks like a style tag (``[a441f5cf, ...]`` but not ``[5a514ce5, ...]``) vanished from the
leaderboard's provenance caption. Every console is made here, with markup off.
"""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

from rich.console import Console

#: the exit code of a writer whose reader went away (``benger systems | head -1``): 128 + SIGPIPE, as a shell
#: reports a program that SIGPIPE ended
EXIT_BROKEN_PIPE = 141


def leave_on_broken_pipe() -> NoReturn:
    """End the process quietly because stdout's reader is gone: stdout is pointed at /dev/null (Python's flush
    at exit would fail on it again and print "Exception ignored ...") and the exit code is 141. The one
    handling of a broken pipe; the CLI's error boundary and every console of :func:`console` end here."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a test runner's stdout): nothing left to flush
        pass
    raise SystemExit(EXIT_BROKEN_PIPE)


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """rich's own handling exits with 1, which scripts read as an error of benger."""
        self.quiet = True
        leave_on_broken_pipe()


def console(*, stderr: bool = False, **options: Any) -> Console:
    """A rich Console (stdout, or stderr with ``stderr=True``) that prints text literally (markup off);
    ``options`` are further ``rich.console.Console`` arguments (``width``, ``soft_wrap``, ...). A broken pipe on
    it ends the process quietly with exit code 141 (:func:`leave_on_broken_pipe`)."""
    return _Console(stderr=stderr, markup=False, **options)
