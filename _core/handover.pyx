"""What the core takes from the package above it, handed down at import.

The core never imports ``chainerlite``: the Python modules that define what
it calls (type checks, ``F.*`` behind some Variable methods, the grad nodes
CuPy kernels, ``FunctionHook``) hand those objects
down with :func:`provide` when they are imported, and the core reads each
from a slot here (``provided(SLOT)``, a C call and a list read). Importing
``chainerlite`` imports all of them, and checks that none is missing.
"""
cimport cython

# provide()'s keywords, in the order of the slots of handover.pxd, and where
# each object is defined.
cdef tuple _NAMES = (
    'backend', 'functions', 'type_check', 'debug_summary', 'floordiv',
    'rfloordiv', 'FunctionHook', 'activation_kernels')
cdef tuple _SOURCES = (
    'chainerlite.backend', 'chainerlite.functions',
    'chainerlite.utils.type_check', 'chainerlite.variable._debug_summary',
    'chainerlite.functions.math.basic_math.floordiv',
    'chainerlite.functions.math.basic_math.rfloordiv',
    'chainerlite.function_hook.FunctionHook',
    'chainerlite.functions.activation._kernels')
cdef dict _SLOT_OF = {name: i for i, name in enumerate(_NAMES)}
cdef list _slots = [None] * N_SLOTS

if len(_NAMES) != N_SLOTS or len(_SOURCES) != N_SLOTS:
    raise ImportError('chainerlite._core.handover: its names and slots '
                      'differ in number')


def provide(**objects):
    """Hands objects of the package down to the core, by name.

    Each module that defines one calls this when it is imported; a later
    call replaces it (a reloaded module).

    Args:
        **objects: ``name=object``; the names are those of :func:`missing`
            before anything is provided.

    Raises:
        TypeError: an unknown name, or None (checked before any is set).
    """
    for name, obj in objects.items():
        if name not in _SLOT_OF:
            raise TypeError('handover.provide: the core takes no %r; it takes '
                            '%s' % (name, ', '.join(_NAMES)))
        if obj is None:
            raise TypeError('handover.provide: %s must not be None' % name)
    for name, obj in objects.items():
        _slots[<int>_SLOT_OF[name]] = obj


def missing():
    """Names of the objects not handed down yet (none once chainerlite is
    imported)."""
    return tuple([name for name, obj in zip(_NAMES, _slots) if obj is None])


@cython.boundscheck(False)
@cython.wraparound(False)
cdef object provided(int slot):
    obj = _slots[slot]
    if obj is None:
        raise RuntimeError(
            'chainerlite._core needs %s, which has not been handed down to '
            'it: import chainerlite (its modules hand what the core uses to '
            'chainerlite._core.handover.provide when they are imported)'
            % _SOURCES[slot])
    return obj
