"""benger.metrics."""
