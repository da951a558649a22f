"""Where a model step runs: the CPU, or the first CUDA device.

On the GPU chainerlite (and Chainer) take the data as CuPy arrays and move
the model with ``to_device('@cupy:0')``; PyTorch builds its model and data
under ``torch.device('cuda')`` (``torch.as_tensor`` copies NumPy data there).
Steps end with ``float(loss)``, which waits for the device, so a step's wall
time covers its kernels.
"""

import contextlib

DEVICES = ('cpu', 'gpu')


class Placement:
    """The CPU: arrays, links and PyTorch's default device stay as they are."""

    def arrays(self, data):
        return data

    def link(self, link):
        pass

    def context(self):
        return contextlib.nullcontext()


class CudaPlacement(Placement):
    """The first CUDA device."""

    def __init__(self, library):
        self.library = library
        if library == 'torch':
            import torch

            if not torch.cuda.is_available():
                raise RuntimeError('device gpu: torch sees no CUDA device')
            self.torch = torch
        else:
            try:
                import cupy
            except ImportError as e:
                raise RuntimeError(f'device gpu: {library} needs CuPy ({e})') from e
            self.cupy = cupy

    def arrays(self, data):
        if isinstance(data, (tuple, list)):
            return type(data)(self.arrays(a) for a in data)
        return self.cupy.asarray(data)

    def link(self, link):
        link.to_device('@cupy:0')

    def context(self):
        return self.torch.device('cuda')


def placement(library, device):
    """The :class:`Placement` of ``device`` (``'cpu'`` or ``'gpu'``)."""
    if device not in DEVICES:
        raise ValueError(f'unknown device {device!r}; one of {", ".join(DEVICES)}')
    return Placement() if device == 'cpu' else CudaPlacement(library)
