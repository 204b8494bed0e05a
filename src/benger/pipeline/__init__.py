"""benger.pipeline."""
