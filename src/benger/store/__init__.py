"""benger.store."""
