"""The versions chainerlite runs with (``chainerlite.print_runtime_info``).
"""

import platform
import sys

import numpy

import chainerlite
from chainerlite.backends import cuda
from chainerlite.backends import intel64


class _RuntimeInfo(object):
    # The platform and the versions of chainerlite and its array backends.

    def __init__(self):
        self.platform_version = platform.platform()
        self.chainerlite_version = chainerlite.__version__
        self.numpy_version = numpy.__version__
        if cuda._cupy_imported:
            self.cupy_version = cuda.cupy.__version__
        else:
            self.cupy_version = None
        self.cuda_available = cuda.available

    def __str__(self):
        if self.cupy_version is None:
            cupy = 'Not Available'
        else:
            cupy = '{} (CUDA {})'.format(
                self.cupy_version,
                'available' if self.cuda_available else 'not available')
        lines = [
            ('Platform', self.platform_version),
            ('chainerlite', self.chainerlite_version),
            ('ChainerX', 'Not Available'),
            ('NumPy', self.numpy_version),
            ('CuPy', cupy),
            ('iDeep', 'Available' if intel64.is_ideep_available()
             else 'Not Available'),
        ]
        return ''.join('{}: {}\n'.format(k, v) for k, v in lines)


def _get_runtime_info():
    return _RuntimeInfo()


def print_runtime_info(out=None):
    """Prints the platform and the versions of chainerlite, NumPy and CuPy.

    Args:
        out: Text stream to write to; ``sys.stdout`` when None.

    """
    if out is None:
        out = sys.stdout
    out.write(str(_get_runtime_info()))
    if hasattr(out, 'flush'):
        out.flush()
