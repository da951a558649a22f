"""Array backends (NumPy on the CPU, CuPy on the GPU)."""

from chainerlite.backends import cuda  # NOQA
from chainerlite.backends import intel64  # NOQA
from chainerlite.backends import _chainerx  # NOQA
from chainerlite.backends import _cpu  # NOQA
