"""benger.workers."""
