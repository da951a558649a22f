"""asv benchmarks of chainerlite (run from ``benchmarks/``: ``asv run``)."""
