"""Array backends (NumPy on the CPU, CuPy on the GPU)."""
from chainerlite.backends import cuda  # NOQA
