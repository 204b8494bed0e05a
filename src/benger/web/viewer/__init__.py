"""benger.web.viewer: read-only results pages over any store (``benger view``; ``/view`` under ``benger serve``).

Leaderboard, solution, compare, browse, judge validation and error analysis (docs/viewer.md); served by
:func:`create_viewer_app` or through the study app's router list, written as files by :func:`write_bundle`;
:func:`warm` computes the leaderboard ahead in a thread.
"""

from benger.web.viewer._bundle import write_bundle
from benger.web.viewer._router import create_viewer_app, mount_static, router, warm

__all__ = ["create_viewer_app", "mount_static", "router", "warm", "write_bundle"]
