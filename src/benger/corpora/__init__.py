"""Corpora: the typed schema of tasks, loaders for the official release layout, user files and the demo corpus."""

from benger.schema import AREAS, Area, Corpus, FalloesungTask, PrincipleItem, Task, normalise_answer, normalise_area

__all__ = ["AREAS", "Area", "Corpus", "FalloesungTask", "PrincipleItem", "Task", "normalise_answer", "normalise_area"]
