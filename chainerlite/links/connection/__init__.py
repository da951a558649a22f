"""Links of connection layers, such as fully-connected layers."""
