"""What the NCCL communicators need, checked with a clear message."""


def require_nccl(name):
    """Raises RuntimeError naming ``name`` unless CuPy, NCCL and a GPU are here."""
    try:
        import cupy
        from cupy.cuda import nccl
    except ImportError as error:
        raise RuntimeError(
            '{} needs CuPy with NCCL (pip install cupy-cuda12x) and a CUDA '
            'GPU; use create_communicator("naive") or "flat" on the CPU '
            '({})'.format(name, error)
        ) from error
    if not getattr(nccl, 'available', True):
        raise RuntimeError('{}: this CuPy was built without NCCL'.format(name))
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # no driver
        raise RuntimeError('{} needs a CUDA GPU ({})'.format(name, error)) from error
    if count < 1:
        raise RuntimeError('{} needs a CUDA GPU; none is visible'.format(name))
    raise RuntimeError(
        '{}: the NCCL communicators are not part of chainerlite yet; use '
        'create_communicator("flat") with a CUDA-aware MPI, or "naive"'.format(name)
    )
