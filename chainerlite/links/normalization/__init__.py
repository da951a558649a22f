"""Links of normalization layers, which keep learned scales and shifts."""
