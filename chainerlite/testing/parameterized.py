"""Class decorators that generate one test class per parameter set."""

import itertools
import re
import sys
import types

_SINGLE_PARAM_MAXLEN = 100
_NAME_MAXLEN = 1000
_ADDRESS = re.compile(r' at 0x[0-9a-fA-F]+')


class _ParameterizedClasses:
    """What a parameterizing decorator leaves in place of the class.

    It is not a class, so test collectors ignore it; the generated classes
    are module attributes of their own. Applying another decorator to it
    replaces its classes by their parameterized versions.
    """

    def __init__(self, name, module, classes):
        self.__name__ = name
        self.__module__ = module
        self.classes = classes

    def __repr__(self):
        return '<parameterized test classes of {}: {}>'.format(
            self.__name__, len(self.classes))


def _param_to_str(value):
    # Names must be the same in every process (pytest-xdist workers compare
    # their collections), so no memory address may appear in them.
    if isinstance(value, type) or (
            hasattr(value, '__name__') and isinstance(value.__name__, str)
            and not isinstance(value, (str, bytes))):
        return value.__name__
    if type(value) in (tuple, list):
        inner = ', '.join(_param_to_str(v) for v in value)
        return '({})'.format(inner) if type(value) is tuple else '[{}]'.format(inner)
    text = _ADDRESS.sub('', repr(value).replace('\n', ' '))
    if len(text) > _SINGLE_PARAM_MAXLEN:
        half = (_SINGLE_PARAM_MAXLEN - 3) // 2
        text = text[:half] + '...' + text[-half:]
    return text


def _class_name(base_name, index, param):
    params = ', '.join(
        '{}={}'.format(k, _param_to_str(v)) for k, v in param.items())
    if len(params) > _NAME_MAXLEN:
        params = params[:_NAME_MAXLEN] + '...'
    return '{}_param_{}_{{{}}}'.format(base_name, index, params)


def _class_value(value):
    # A plain function stored on a class would turn into a method.
    if isinstance(value, types.FunctionType):
        return staticmethod(value)
    return value


def _module_namespace(module_name, caller_globals):
    if caller_globals.get('__name__') == module_name:
        return caller_globals
    module = sys.modules.get(module_name)
    return None if module is None else module.__dict__


def _decorate(target, params, caller_globals):
    if isinstance(target, _ParameterizedClasses):
        bases = target.classes
        name = target.__name__
        module_name = target.__module__
    elif isinstance(target, type):
        bases = [target]
        name = target.__name__
        module_name = target.__module__
    else:
        raise TypeError(
            'parameterize decorates test classes, not {}'.format(
                type(target).__name__))
    namespace = _module_namespace(module_name, caller_globals)

    classes = []
    for base in bases:
        if namespace is not None and namespace.get(base.__name__) is base:
            del namespace[base.__name__]
        for index, param in enumerate(params):
            class_name = _class_name(base.__name__, index, param)
            members = {k: _class_value(v) for k, v in param.items()}
            members['__module__'] = module_name
            members['__qualname__'] = class_name
            members['_chainerlite_param'] = dict(
                getattr(base, '_chainerlite_param', {}), **param)
            cls = type(base)(class_name, (base,), members)
            classes.append(cls)
            if namespace is not None:
                namespace[class_name] = cls
    return _ParameterizedClasses(name, module_name, classes)


def parameterize(*params):
    """Makes one test class per parameter set.

    For each dict of ``params``, a subclass of the decorated class is made
    with the dict's items as class attributes, named like
    ``TestFoo_param_0_{shape=(3, 2), dtype=float32}`` and put into the
    class's module, where pytest and unittest find it. The name of the
    decorated class is left bound to a non-class placeholder so that the
    unparameterized class is not collected. Decorators stack: each
    parameterizes every class made by the one below it.

    Works with :class:`unittest.TestCase` subclasses and with plain pytest
    test classes.

    Args:
        *params (dict): Parameter sets, mapping attribute names to values.

    Returns:
        callable: The class decorator.

    .. admonition:: Example

        .. code-block:: python

            @testing.parameterize(*testing.product({
                'shape': [(3,), (2, 3)],
                'dtype': [numpy.float16, numpy.float32],
            }))
            class TestSum:
                def test_sum(self):
                    x = numpy.ones(self.shape, self.dtype)
                    assert x.sum() == x.size

    """
    params = [dict(p) for p in params]

    def decorator(target):
        # Called from the body of the module that defines the class.
        return _decorate(target, params, sys._getframe(1).f_globals)

    return decorator


def product(parameter):
    """Makes the Cartesian product of parameter values.

    Args:
        parameter (dict or list): Either a dict mapping each name to a list
            of values, or a list of lists of dicts (then the same as
            :func:`product_dict` applied to them).

    Returns:
        list of dict: One dict per combination.

    .. admonition:: Example

        >>> from chainerlite import testing
        >>> testing.product({'a': [1, 2], 'b': ['x']})
        [{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'x'}]

    """
    if isinstance(parameter, dict):
        keys = list(parameter)
        return [dict(zip(keys, values))
                for values in itertools.product(*parameter.values())]
    if isinstance(parameter, (list, tuple)):
        return product_dict(*parameter)
    raise TypeError(
        'product takes a dict or a list of lists of dicts, not {}'.format(
            type(parameter).__name__))


def product_dict(*parameters):
    """Makes every combination of one dict from each list, merged.

    Args:
        *parameters (list of dict): Lists of parameter sets.

    Returns:
        list of dict: One merged dict per combination.

    .. admonition:: Example

        >>> from chainerlite import testing
        >>> testing.product_dict([{'a': 1}, {'a': 2}], [{'b': 3, 'c': 4}])
        [{'a': 1, 'b': 3, 'c': 4}, {'a': 2, 'b': 3, 'c': 4}]

    """
    result = []
    for dicts in itertools.product(*parameters):
        merged = {}
        for d in dicts:
            merged.update(d)
        result.append(merged)
    return result
