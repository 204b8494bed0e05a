"""benger.web.viewer: read-only results pages over any store (``benger view``; ``/view`` under ``benger serve``).

Leaderboard, solution, compare, browse, judge validation and error analysis (docs/viewer.md); served by
:func:`create_viewer_app` or through the study app's router list, written as files by :func:`write_bundle`.
"""

from benger.web.viewer._bundle import write_bundle
from benger.web.viewer._router import create_viewer_app, mount_static, router

__all__ = ["create_viewer_app", "mount_static", "router", "write_bundle"]
