"""Package data: the demo corpus (original cases written for benger; see docs/corpora.md)."""
