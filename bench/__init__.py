"""Benchmarks run from the command line (``python -m bench.<name>``)."""
