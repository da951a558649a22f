"""Input/output names and customised input shapes of an export."""

import chainerlite


def _pin(context, named_vars, var, new_name):
    del named_vars[context.get_name(var)]
    named_vars[new_name] = var
    context.set_name(var, new_name, pinned=True)


def rename_variables(context, variables, named_vars, new_names, prefix='Input'):
    """Renames the graph inputs (or outputs) ``variables`` to ``new_names``.

    ``variables`` is a list/tuple, a dict or one Variable, as the model
    took (or returned) them; ``named_vars`` (name -> Variable) is updated
    in place. Without ``new_names`` they become ``<prefix>_<i>``.
    """
    if isinstance(variables, (list, tuple)):
        if new_names is None:
            new_names = ['{}_{}'.format(prefix, i) for i in range(len(named_vars))]
        if not isinstance(new_names, (list, tuple)) or len(variables) != len(new_names):
            raise ValueError(
                'Replacing name list is not match with input (or output) variables'
            )
        for var, name in zip(variables, new_names):
            _pin(context, named_vars, var, name)
    elif isinstance(variables, dict):
        if new_names is None:
            new_names = {k: '{}_{}'.format(prefix, i) for i, k in enumerate(variables)}
        if not isinstance(new_names, (list, tuple, dict)) or len(variables) != len(
            new_names
        ):
            raise ValueError(
                'Replacing name dict is not match with input (or output) variables'
            )
        if isinstance(new_names, (list, tuple)):
            new_names = dict(zip(variables.keys(), new_names))
        for key, var in variables.items():
            if key not in new_names:
                raise ValueError(
                    'Key of replacing name is not found in variables: {!r}'.format(key)
                )
            _pin(context, named_vars, var, new_names[key])
    elif isinstance(variables, chainerlite.Variable):
        if not new_names:
            new_names = prefix + '_0'
        if isinstance(new_names, (list, tuple)):
            if len(new_names) != 1:
                raise ValueError('Replacing name must be single')
            new_names = new_names[0]
        elif not isinstance(new_names, str):
            raise ValueError(
                'Type {} is not supported for single variable'.format(type(new_names))
            )
        _pin(context, named_vars, variables, new_names)


def format_customized_shapes(args, shapes):
    """Checks ``input_shapes`` against ``args``; returns one shape per input."""
    if isinstance(args, (list, tuple)):
        if not isinstance(shapes, list) or len(args) != len(shapes):
            raise ValueError('Customized shapes cannot fit for input list')
        for i, (arg, shape) in enumerate(zip(args, shapes)):
            if len(arg.shape) != len(shape):
                raise ValueError(
                    'Index-{} shape length must be same as input'.format(i)
                )
        return shapes
    if isinstance(args, dict):
        if not isinstance(shapes, (list, dict)) or len(args) != len(shapes):
            raise ValueError('Customized shapes cannot fit for input dict')
        if isinstance(shapes, list):
            shapes = dict(zip(args.keys(), shapes))
        formatted = []
        for key, arg in args.items():
            if key not in shapes:
                raise ValueError(
                    'Key "{}" is not found in customized shapes'.format(key)
                )
            if len(arg.shape) != len(shapes[key]):
                raise ValueError(
                    'Key "{}" shape length must be same as input'.format(key)
                )
            formatted.append(shapes[key])
        return formatted
    if isinstance(shapes, list):
        if len(shapes) != 1:
            raise ValueError('Customized shape must be single')
    elif isinstance(shapes, tuple):
        shapes = [shapes]
    else:
        raise ValueError(
            'Type {} is not supported for single input'.format(type(shapes))
        )
    if len(args.shape) != len(shapes[0]):
        raise ValueError('Shape length must be same as input')
    return shapes
