"""benger.study."""
