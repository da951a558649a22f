"""Class decorators that generate one test class per parameter set."""

import itertools
import re
import sys
import types

_SINGLE_PARAM_MAXLEN = 100
_PARAMS_MAXLEN = 5000
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
            self.__name__, len(self.classes)
        )


def _middle_cut(text, limit):
    # Keeps both ends of a long text, the middle replaced by '...'.
    if len(text) <= limit:
        return text
    head = (limit - 3) // 2
    return text[:head] + '...' + text[len(text) - (limit - 3 - head) :]


def _param_to_str(value):
    # A class, function or module shows its __name__, anything else its
    # repr, as in Chainer's test names; memory addresses are dropped, since
    # names must be the same in every process (pytest-xdist workers compare
    # their collections).
    if isinstance(value, type) or (
        hasattr(value, '__name__') and isinstance(value.__name__, str)
    ):
        return value.__name__
    return _ADDRESS.sub('', repr(value))


def _class_name(base_name, index, param):
    # Chainer's form: the names in sorted order, each value cut to 100
    # characters and the whole list to 5000.
    params = ', '.join(
        '{}={}'.format(k, _middle_cut(_param_to_str(v), _SINGLE_PARAM_MAXLEN))
        for k, v in sorted(param.items())
    )
    params = _middle_cut(params, _PARAMS_MAXLEN)
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
    elif callable(target):
        return _parametrize_function(target, params)
    else:
        raise TypeError(
            'parameterize decorates test classes and functions, not {}'.format(
                type(target).__name__
            )
        )
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
                getattr(base, '_chainerlite_param', {}), **param
            )
            cls = type(base)(class_name, (base,), members)
            classes.append(cls)
            if namespace is not None:
                namespace[class_name] = cls
    return _ParameterizedClasses(name, module_name, classes)


def _parametrize_function(func, params):
    """Turns a test function into a pytest-parametrized one.

    Each parameter set becomes one call with the set's items as keyword
    arguments, so every set must have the same names.
    """
    import pytest

    names = list(params[0]) if params else []
    for param in params:
        if sorted(param) != sorted(names):
            raise ValueError(
                'parameterize on the function {} needs the same names in '
                'every parameter set: {} differs from {}'.format(
                    func.__name__, sorted(param), sorted(names)
                )
            )
    # The ids are the classes' names without a base (one line each).
    ids = [_class_name('', i, p)[1:].replace('\n', ' ') for i, p in enumerate(params)]
    # Names as a list: pytest then takes every value set as a tuple.
    values = [tuple(p[k] for k in names) for p in params]
    return pytest.mark.parametrize(names, values, ids=ids)(func)


def apply_to_classes(target, class_decorator):
    """Applies a class decorator to a class or to each parameterized class.

    Decorators such as :func:`~chainerlite.testing.fix_random` and the
    markers of :mod:`~chainerlite.testing.attr` are stacked on top of
    :func:`parameterize` and
    :func:`~chainerlite.testing.inject_backend_tests`, whose result is a
    placeholder standing for the classes they made: this applies
    ``class_decorator`` to each of them (and to anything else, such as a
    test function, directly).

    Args:
        target: A class, a function, or what a parameterizing decorator
            returned.
        class_decorator (callable): Takes and returns a class.

    Returns:
        What ``class_decorator`` returned, or for a placeholder a new
        placeholder of the decorated classes.

    """
    if not isinstance(target, _ParameterizedClasses):
        return class_decorator(target)
    module = sys.modules.get(target.__module__)
    namespace = None if module is None else module.__dict__
    classes = []
    for cls in target.classes:
        decorated = class_decorator(cls)
        if (
            namespace is not None
            and decorated is not cls
            and namespace.get(cls.__name__) is cls
        ):
            del namespace[cls.__name__]
            namespace[decorated.__name__] = decorated
        classes.append(decorated)
    return _ParameterizedClasses(target.__name__, target.__module__, classes)


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
    test classes. On a test function it is :func:`pytest.mark.parametrize`
    instead: each set is passed as keyword arguments (so every set must have
    the same names), with ids like ``param_0_{shape=(3, 2)}``.

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


def parameterize_pytest(names, values):
    """Parameterizes like :func:`pytest.mark.parametrize`, also classes.

    ``names`` and ``values`` are given as to ``pytest.mark.parametrize``.
    A test class gets one subclass per value, as from :func:`parameterize`
    (the names become attributes); a test function is parametrized by pytest.

    Args:
        names (str or list of str): Comma-separated names, or a list.
        values (list): One entry per parameter set: a tuple of values, one
            per name, or with a single name the value itself.

    Returns:
        callable: The decorator.

    .. admonition:: Example

        .. code-block:: python

            @testing.parameterize_pytest('n,square', [(2, 4), (3, 9)])
            class TestSquare(unittest.TestCase):
                def test_square(self):
                    assert self.n ** 2 == self.square

    """
    return parameterize(*from_pytest_parameterize(names, values))


def from_pytest_parameterize(names, values):
    """Turns :func:`pytest.mark.parametrize` arguments into the dicts that
    :func:`parameterize` takes.

    Args:
        names (str or list of str): Comma-separated names, or a list.
        values (list): One entry per parameter set: a tuple of values, one
            per name, or with a single name the value itself.

    Returns:
        list of dict: One ``{name: value}`` dict per entry of ``values``.

    Raises:
        ValueError: If an entry does not have one value per name.
    """
    if isinstance(names, str):
        names = [n.strip() for n in names.split(',') if n.strip()]
    names = list(names)
    params = []
    for value in values:
        if len(names) == 1:
            value = (value,)
        value = tuple(value)
        if len(value) != len(names):
            raise ValueError(
                'parameterize_pytest: {!r} has {} values for the {} names {}'.format(
                    value, len(value), len(names), names
                )
            )
        params.append(dict(zip(names, value)))
    return params


def product(parameter):
    """Makes the Cartesian product of parameter values.

    Args:
        parameter (dict or list): Either a dict mapping each name to a list
            of values, or a list of lists of dicts (then the same as
            :func:`product_dict` applied to them). A dict key naming
            several parameters separated by commas (``'shape,dtype'``)
            takes tuples of their values, which vary together. The names
            vary in sorted order, the last one fastest.

    Returns:
        list of dict: One dict per combination.

    .. admonition:: Example

        >>> from chainerlite import testing
        >>> testing.product({'a': [1, 2], 'b': ['x']})
        [{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'x'}]

    """
    if isinstance(parameter, dict):
        # As in Chainer, the names vary in sorted order, the last fastest:
        # the index in a class name (``_param_3``) depends on this order.
        keys = sorted(parameter)
        return [
            _split_joint_keys(dict(zip(keys, values)))
            for values in itertools.product(*[parameter[key] for key in keys])
        ]
    if isinstance(parameter, (list, tuple)):
        return product_dict(*parameter)
    raise TypeError(
        'product takes a dict or a list of lists of dicts, not {}'.format(
            type(parameter).__name__
        )
    )


def _split_joint_keys(param):
    # A key 'a,b' with the value (x, y) stands for a=x and b=y: values that
    # vary together.
    result = {}
    for key, value in param.items():
        if ',' not in key:
            result[key] = value
            continue
        names = [name.strip() for name in key.split(',')]
        if len(names) != len(value):
            raise ValueError(
                'product: key {!r} names {} parameters but its value {!r} '
                'has {}'.format(key, len(names), value, len(value))
            )
        result.update(zip(names, value))
    return result


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
