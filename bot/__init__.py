"""Chipfist package."""
