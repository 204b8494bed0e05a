"""benger.stats."""
