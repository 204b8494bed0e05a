"""benger.web: the FastAPI app of the human study (``benger serve``)."""

from benger.web._app import create_app

__all__ = ["create_app"]
