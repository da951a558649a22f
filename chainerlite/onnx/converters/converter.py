"""What a converter receives, and the registry of built-in converters."""


class FunctionConverterParams(object):
    """The arguments of one conversion, as external converters receive them.

    Attributes: ``func`` (the FunctionNode), ``opset_version``,
    ``input_names``, ``output_names`` (ONNX value names) and ``context``
    (the :class:`~chainerlite.onnx.context.Context` of the export).
    """

    def __init__(
        self,
        func=None,
        opset_version=None,
        input_names=None,
        output_names=None,
        context=None,
    ):
        self.func = func
        self.opset_version = opset_version
        self.input_names = input_names
        self.output_names = output_names
        self.context = context


class FunctionConverter(object):
    """Calls a built-in converter ``f(func, opset, inputs, outputs, context)``
    with the fields of a :class:`FunctionConverterParams`."""

    def __init__(self, converter):
        self.converter = converter

    def __call__(self, params):
        return self.converter(
            params.func,
            params.opset_version,
            params.input_names,
            params.output_names,
            params.context,
        )


def support(opset_versions):
    """Declares the opsets where a converter's ONNX operators changed.

    The wrapped converter gets the newest of ``opset_versions`` not above
    the requested one; below all of them it raises RuntimeError.
    """

    def wrap(converter):
        def dispatch(func, opset_version, *rest):
            usable = [v for v in opset_versions if v <= opset_version]
            if not usable:
                raise RuntimeError(
                    'ONNX-Chainer cannot convert `{}` of Chainer with ONNX '
                    'opset_version {}'.format(type(func).__name__, opset_version)
                )
            return converter(func, max(usable), *rest)

        dispatch.__name__ = converter.__name__
        dispatch.__doc__ = converter.__doc__
        return dispatch

    return wrap


converters = {}


def register(*names, opsets=None):
    """Registers a converter under the FunctionNode class names ``names``."""

    def wrap(converter):
        wrapped = support(opsets)(converter) if opsets else converter
        for name in names:
            converters[name] = FunctionConverter(wrapped)
        return wrapped

    return wrap
