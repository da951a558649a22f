"""Built-in converters, one module per family of functions.

``converters`` maps a FunctionNode class name to a callable taking
:class:`~chainerlite.onnx.converters.converter.FunctionConverterParams`
and returning ONNX nodes.
"""

from chainerlite.onnx.converters import activation  # noqa: F401
from chainerlite.onnx.converters import array  # noqa: F401
from chainerlite.onnx.converters import connection  # noqa: F401
from chainerlite.onnx.converters import indexing  # noqa: F401
from chainerlite.onnx.converters import loss  # noqa: F401
from chainerlite.onnx.converters import math  # noqa: F401
from chainerlite.onnx.converters import noise  # noqa: F401
from chainerlite.onnx.converters import normalization  # noqa: F401
from chainerlite.onnx.converters import pooling  # noqa: F401
from chainerlite.onnx.converters import recurrence  # noqa: F401
from chainerlite.onnx.converters import resize  # noqa: F401
from chainerlite.onnx.converters import rnn  # noqa: F401
from chainerlite.onnx.converters import vae  # noqa: F401
from chainerlite.onnx.converters.converter import converters  # noqa: F401
