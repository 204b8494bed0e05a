"""Validation runs from the browser (issue 28): ``validate-judge`` for a finished run's judge, against the
release's picks or the organisation's own reviews, launched in-process or on Celery, with progress and the
result table."""

from benger.web.validations._launch import ValidationLauncher
from benger.web.validations._router import router

__all__ = ["ValidationLauncher", "router"]
