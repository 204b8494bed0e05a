"""Alembic migrations of the benger store (run programmatically by ``benger.store.open_store``)."""
