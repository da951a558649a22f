"""What static chains call around their functions: ``@static_code`` and the
forward hook of a scheduled function.

Static chains run define-by-run in chainerlite (see
:mod:`chainerlite.graph_optimizations.static_graph`), so both simply run the
code they are given.
"""


def static_code(*args, **kwargs):
    """Marks a function as code that must run at every call of a static
    chain.  Since static chains always run define-by-run, the function is
    called as is."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return args[0]
    return lambda func: func


def static_forward_optimizations(func, inputs):
    """Runs the forward of the node ``func`` on the arrays ``inputs`` for a
    static schedule; with define-by-run static chains, that is
    ``func.forward(inputs)``.

    Args:
        func (~chainerlite.FunctionNode): The node.
        inputs (tuple of arrays): Its input arrays.

    Returns:
        tuple of arrays: The outputs of ``func.forward``.
    """
    return func.forward(inputs)
