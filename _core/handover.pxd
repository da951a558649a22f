# What the core calls in the package above it, one slot each: the package
# hands each object down when it is imported (handover.provide), and the
# core reads it with provided(SLOT). The order is that of handover._NAMES.
cdef enum:
    BACKEND             # module chainerlite.backend
    FUNCTIONS           # package chainerlite.functions
    TYPE_CHECK          # module chainerlite.utils.type_check
    DEBUG_SUMMARY       # chainerlite.variable._debug_summary
    FLOORDIV            # chainerlite.functions.math.basic_math.floordiv
    RFLOORDIV           # chainerlite.functions.math.basic_math.rfloordiv
    FUNCTION_HOOK       # class chainerlite.function_hook.FunctionHook
    ACTIVATION_KERNELS  # module chainerlite.functions.activation._kernels
    N_SLOTS

cdef object provided(int slot)
