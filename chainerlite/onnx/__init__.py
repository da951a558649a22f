"""Export of chainerlite models to ONNX, as Chainer 7.8.1's ``onnx_chainer``.

``export(model, args, ...)`` runs the model once, walks the graph it built
from the outputs back to the inputs and converts each function node to ONNX
operators (opsets 7 to 11); ``export_testcase`` also writes the inputs and
outputs as test data. ``import onnx_chainer`` gives this package under
:mod:`chainerlite.compat`. Needs the ``onnx`` package (the ``onnx`` extra).
"""

try:
    import onnx  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        'chainerlite.onnx needs the onnx package: pip install "chainerlite[onnx]"'
    ) from e

from chainerlite.onnx.export import MAXIMUM_OPSET_VERSION  # noqa: E402
from chainerlite.onnx.export import MINIMUM_OPSET_VERSION  # noqa: E402
from chainerlite.onnx.export import convert_parameter  # noqa: E402
from chainerlite.onnx.export import export  # noqa: E402
from chainerlite.onnx.export_testcase import export_testcase  # noqa: E402

__all__ = [
    'MAXIMUM_OPSET_VERSION',
    'MINIMUM_OPSET_VERSION',
    'convert_parameter',
    'export',
    'export_testcase',
]
