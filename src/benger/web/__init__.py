"""benger.web."""
