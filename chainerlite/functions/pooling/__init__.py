"""Pooling and unpooling functions over spatial windows."""
