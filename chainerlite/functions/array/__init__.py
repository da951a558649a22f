"""Functions that move, reshape, broadcast or select array elements."""
