"""benger.analysis."""
