"""benger.web: the FastAPI app of the human study (``benger serve``).

``create_app`` is imported on first use (PEP 562), so ``benger.web.access`` and the results viewer
(``benger view``) do not load the study, workbench and runs apps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.web._app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from benger.web._app import create_app

        return create_app
    raise AttributeError(f"module 'benger.web' has no attribute {name!r}")
