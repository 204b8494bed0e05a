"""benger.report."""
