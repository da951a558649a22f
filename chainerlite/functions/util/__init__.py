"""Utility functions that change how a computation is recorded."""
