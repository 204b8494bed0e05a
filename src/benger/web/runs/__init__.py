"""Runs from the browser (issue 28): set-up form and YAML, estimate, launch on Celery or in-process, live
progress, cancel and resume, failures, results links; an organisation's API keys, encrypted at rest."""

from benger.web.runs._launch import EXECUTORS, RunLauncher
from benger.web.runs._router import router

__all__ = ["EXECUTORS", "RunLauncher", "router"]
