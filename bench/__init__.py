"""Reproducible benchmarks: `python -m bench NAME`."""
