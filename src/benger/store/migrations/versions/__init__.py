"""Alembic revision files (``0001_core``, then ``0002_study``, ...)."""
