"""Function hook that marks each function call as an NVTX range."""

from chainerlite import function_hook
from chainerlite.backends import cuda


class CUDAProfileHook(function_hook.FunctionHook):
    """Function hook that names function calls in CUDA profiler timelines.

    Each forward call is wrapped in an NVTX range named
    ``'<label>.forward'`` and each backward call in one named
    ``'<label>.backward'`` (``label`` is the function's
    :attr:`~chainerlite.FunctionNode.label`), pushed before the call and
    popped after it, so nested calls appear as nested ranges. Profilers such
    as Nsight Systems (``nsys profile``) then show which function launched
    which kernels. A call that raises leaves its range open.

    The hook needs CuPy, a CUDA device and NVTX: creating it without them
    raises :class:`RuntimeError`. It can be imported anywhere.

    .. admonition:: Example

        Code example (needs a GPU; run under ``nsys profile``)::

            from chainerlite.function_hooks import CUDAProfileHook
            with CUDAProfileHook():
                loss = model(x_gpu)
                loss.backward()
    """

    name = 'CUDAProfileHook'

    def __init__(self):
        try:
            cuda.check_cuda_available()
        except RuntimeError as e:
            raise RuntimeError(
                'CUDAProfileHook needs CuPy and a CUDA device: %s' % e
            ) from e
        nvtx = cuda.cupy.cuda.nvtx
        if not getattr(nvtx, 'available', True):
            raise RuntimeError(
                'CUDAProfileHook needs NVTX, which this CuPy installation cannot load.'
            )
        self._push = nvtx.RangePush
        self._pop = nvtx.RangePop

    def forward_preprocess(self, function, in_data):
        self._push(function.label + '.forward')

    def forward_postprocess(self, function, in_data):
        self._pop()

    def backward_preprocess(self, function, in_data, out_grad):
        self._push(function.label + '.backward')

    def backward_postprocess(self, function, in_data, out_grad):
        self._pop()
