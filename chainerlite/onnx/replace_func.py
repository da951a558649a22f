"""Make any Python function appear as one function node (``as_funcnode``)."""

import contextlib
import inspect

import chainerlite
import chainerlite.functions as F


def _is_var(value):
    return isinstance(value, chainerlite.Variable)


def _flatten(values):
    if not isinstance(values, (list, tuple)):
        return [values]
    flat = []
    for value in values:
        flat.extend(_flatten(value))
    return flat


class WrappedFunctionNode(chainerlite.FunctionNode):
    """A function node that runs ``func(*args, **kwargs)`` as its forward.

    Its inputs are ``arg_vars`` (the Variables among the arguments); its
    outputs are the arrays of the (possibly nested) value ``func``
    returns, flattened; ``reconstruct_return_value`` puts them back in that
    structure. Backward differentiates through what ``func`` computed when
    it returned Variables only. ``attributes`` become attributes of the
    node, for the converter to read; ``custom_function_node_name`` is the
    name the exporter looks converters up by.
    """

    def __init__(self, name, func, args, kwargs, arg_vars, attributes=None):
        self.custom_function_node_name = name
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.arg_vars = arg_vars
        self.internal_results = None
        self.skeleton = None
        for key, value in (attributes or {}).items():
            setattr(self, key, value)

    def forward(self, xs):
        self.xs = xs
        results = self.func(*self.args, **self.kwargs)
        flat = []

        def skeleton_of(value):
            if isinstance(value, tuple):
                return tuple(skeleton_of(v) for v in value)
            if isinstance(value, list):
                return [skeleton_of(v) for v in value]
            if isinstance(value, dict):
                return {k: skeleton_of(v) for k, v in value.items()}
            flat.append(value)
            return len(flat) - 1

        self.skeleton = skeleton_of(results)
        arrays = tuple(v.array if _is_var(v) else v for v in flat)
        if all(_is_var(v) for v in flat):
            self.internal_results = flat
        if not chainerlite.is_arrays_compatible(arrays):
            raise ValueError(
                "returned values from the function wrapped by 'as_funcnode' must "
                'consist only array, function name: {}'.format(
                    self.custom_function_node_name
                )
            )
        return arrays

    def backward(self, target_input_indexes, grad_outputs):
        if self.internal_results is None:
            raise ValueError(
                'the target function does not support backward, propagation is failed'
            )
        grads = chainerlite.grad(
            self.internal_results, self.arg_vars, grad_outputs=grad_outputs
        )
        return tuple(
            g if i in target_input_indexes else None for i, g in enumerate(grads)
        )

    def reconstruct_return_value(self, outputs):
        """``outputs`` arranged as the wrapped function's return value."""

        def build(skeleton):
            if isinstance(skeleton, tuple):
                return tuple(build(s) for s in skeleton)
            if isinstance(skeleton, list):
                return [build(s) for s in skeleton]
            if isinstance(skeleton, dict):
                return {k: build(s) for k, s in skeleton.items()}
            return outputs[skeleton]

        return build(self.skeleton)


def fake_as_funcnode(alt_func, name, rename_attributes=None, experimental_warning=True):
    """Wraps ``alt_func`` so that each call is one function node named ``name``.

    The Variables among the arguments (also inside lists and tuples whose
    elements are all Variables) become the node's inputs; every other
    argument, defaults included, becomes an attribute of the node named
    ``argN`` (positional) or by its keyword, renamed by
    ``rename_attributes`` (pairs ``(index or keyword, new name)``). The
    wrapped function returns Variables in the structure ``alt_func``
    returned (arrays become Variables).

    Raises:
        ValueError: no Variable among the arguments, or a list mixing
            Variables and other values.
    """
    renames = dict(rename_attributes or ())
    signature = inspect.signature(alt_func)

    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        for i, (key, value) in enumerate(bound.arguments.items()):
            if i >= len(args):
                kwargs[key] = value
        inputs = []
        attributes = {}

        def take(key, value):
            if _is_var(value):
                inputs.append(value)
                return
            if isinstance(value, (list, tuple)):
                flat = _flatten(value)
                is_var = [_is_var(v) for v in flat]
                if all(is_var):
                    inputs.extend(flat)
                    return
                if any(is_var):
                    raise ValueError(
                        'arguments mixed variable and other type are not supported'
                    )
            default = key if isinstance(key, str) else 'arg{}'.format(key)
            attributes[renames.get(key, default)] = value

        for i, value in enumerate(args):
            take(i, value)
        for key, value in kwargs.items():
            take(key, value)
        if not inputs:
            raise ValueError(
                "arguments of the function wrapped by 'as_funcnode' must include "
                'at least one chainer.Variable, function name: {}'.format(name)
            )
        node = WrappedFunctionNode(name, alt_func, args, kwargs, inputs, attributes)
        return node.reconstruct_return_value(node.apply(inputs))

    if experimental_warning:
        chainerlite.utils.experimental('as_funcnode')
    return wrapper


def as_funcnode(name, rename_attributes=None):
    """Decorator form of :func:`fake_as_funcnode`."""

    def wrap(func):
        return fake_as_funcnode(func, name, rename_attributes=rename_attributes)

    return wrap


# Functions that chainerlite computes without a single function node of
# their own; while an export runs they are wrapped into one node each.
def _wrapped_functions():
    return [(F, 'sign'), (F, 'n_step_gru'), (F.rnn.n_step_gru, 'n_step_gru')]


@contextlib.contextmanager
def patch_functions():
    """While active, the functions above each trace as one node."""
    originals = []
    for module, attr in _wrapped_functions():
        original = getattr(module, attr)
        originals.append((module, attr, original))
        setattr(
            module, attr, fake_as_funcnode(original, attr, experimental_warning=False)
        )
    try:
        yield
    finally:
        for module, attr, original in originals:
            setattr(module, attr, original)
