"""Functions with learnable-parameter inputs, such as fully-connected layers."""
