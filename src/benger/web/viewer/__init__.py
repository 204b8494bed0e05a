"""benger.web.viewer: read-only results pages over any store (``benger view``; ``/view`` under ``benger serve``).

Leaderboard, solution, compare, browse, judge validation and error analysis (docs/viewer.md); served by
:func:`create_viewer_app` or through the study app's router list, written as files by :func:`write_bundle`;
:func:`warm` computes the leaderboard ahead in a thread.

The names are imported on first use (PEP 562): ``benger view`` starts the leaderboard in a thread
(:func:`warm`, which imports neither the web stack nor the study package) before FastAPI, Jinja and uvicorn are
imported, so the computation and those imports overlap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.web.viewer._bundle import write_bundle
    from benger.web.viewer._router import create_viewer_app, mount_static, router
    from benger.web.viewer._warm import warm

__all__ = ["create_viewer_app", "mount_static", "router", "warm", "write_bundle"]


def __getattr__(name: str) -> Any:
    if name == "write_bundle":
        from benger.web.viewer._bundle import write_bundle

        return write_bundle
    if name == "warm":
        from benger.web.viewer._warm import warm

        return warm
    if name in ("create_viewer_app", "mount_static", "router"):
        from benger.web.viewer import _router

        return getattr(_router, name)
    raise AttributeError(f"module 'benger.web.viewer' has no attribute {name!r}")
