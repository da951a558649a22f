"""NCCL as CuPy exposes it; a clear error where CuPy or NCCL is missing."""


def _nccl():
    try:
        from cupy.cuda import nccl
    except ImportError as error:
        raise RuntimeError(
            'chainermn.nccl needs CuPy built with NCCL (pip install '
            'cupy-cuda12x): {}'.format(error)
        ) from error
    return nccl


def get_build_version():
    """The NCCL version CuPy was built with (e.g. 22105 for 2.21.5)."""
    return _nccl().get_build_version()


def get_version():
    """The version of the NCCL library loaded at run time."""
    return _nccl().get_version()
