"""Errors of the study whose messages are German templates, so the web UI can translate every one.

A ``StudyError`` keeps its template and values apart: ``reason`` is the German text (the UI's source
language, also what the CLI prints), and the web layer looks the template up in its i18n table before
filling in the values. tests/web/test_i18n.py checks that every template raised here has a translation.
"""

from __future__ import annotations

from typing import Any

from benger.errors import InputError


class StudyError(InputError):
    """Bad input or a refused step of the study; ``template`` is German with ``{name}`` placeholders."""

    def __init__(self, template: str, *, field: str | None = None, **values: Any) -> None:
        self.template = template
        self.values = values
        super().__init__(template.format(**values), field=field)


class AlreadySubmitted(StudyError):
    """The participant already submitted this task (or the timer submitted it); the page must reload."""


class DraftConflict(StudyError):
    """A save or submission based on a draft version the server no longer holds (another tab saved since)."""


class RateLimited(StudyError):
    """Too many login attempts for this account or this account and address; try again later."""


class WrongState(StudyError):
    """The study's lifecycle state does not allow this step (e.g. a submission after the study closed)."""


def de_number(value: float) -> str:
    """A number as German text: decimal comma, no trailing zeros (0.5 -> "0,5", 3.0 -> "3")."""
    return f"{value:g}".replace(".", ",")
