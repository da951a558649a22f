"""The interface every ChainerMN communicator offers, and its configuration."""

import contextlib

import numpy


def _check_grad_dtype(value):
    if value is None:
        return None
    dtype = numpy.dtype(value)
    if dtype.kind != 'f':
        raise ValueError(
            'allreduce_grad_dtype must be a floating type (float16, float32 '
            'or float64) or None, not {}'.format(dtype)
        )
    return dtype.type


# name -> (default, check applied to a new value)
_CONFIGS = {
    'batched_copy': (True, bool),
    'allreduce_grad_dtype': (None, _check_grad_dtype),
}


class CommunicatorBase(object):
    """Interface definition of the ChainerMN communicators.

    Configuration (``set_config``/``get_config``) is kept in ``_configs``
    and is also readable as attributes (``comm.batched_copy``); inside
    :meth:`config_scope`, attribute assignments go to the configuration.
    """

    def __init__(self):
        object.__setattr__(
            self, '_configs', {name: default for name, (default, _) in _CONFIGS.items()}
        )
        object.__setattr__(self, '_in_config_scope', False)

    def __deepcopy__(self, memo):
        # a handle on the processes, not data: copies of a model share it
        return self

    def __getattr__(self, name):
        configs = self.__dict__.get('_configs')
        if configs is not None and name in configs:
            return configs[name]
        raise AttributeError(
            '{!r} object has no attribute {!r}'.format(type(self).__name__, name)
        )

    def __setattr__(self, name, value):
        if self.__dict__.get('_in_config_scope'):
            self._configs[name] = value
        else:
            object.__setattr__(self, name, value)

    @contextlib.contextmanager
    def config_scope(self):
        """Attribute assignments inside this block set configuration values."""
        previous = self._in_config_scope
        object.__setattr__(self, '_in_config_scope', True)
        try:
            yield
        finally:
            object.__setattr__(self, '_in_config_scope', previous)

    def set_config(self, name, value=True, **kwargs):
        """Sets configuration ``name`` (batched_copy, allreduce_grad_dtype)."""
        if name not in _CONFIGS:
            raise ValueError(
                '{}: unknown configuration {!r}; known: {}'.format(
                    type(self).__name__, name, ', '.join(sorted(_CONFIGS))
                )
            )
        self._configs[name] = _CONFIGS[name][1](value)

    def get_config(self, name=None):
        """The value of configuration ``name`` (all of them when ``None``)."""
        if name is None:
            return dict(self._configs)
        if name not in self._configs:
            raise ValueError(
                '{}: unknown configuration {!r}'.format(type(self).__name__, name)
            )
        return self._configs[name]

    @property
    def rank(self):
        """Rank of this process in the communicator."""
        raise NotImplementedError

    @property
    def size(self):
        """Number of processes in the communicator."""
        raise NotImplementedError

    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replaces each gradient of ``model`` by its mean over the processes."""
        raise NotImplementedError

    def allreduce_grad(self, model, zero_fill=False):
        """Former name of :meth:`multi_node_mean_grad`."""
        self.multi_node_mean_grad(model, zero_fill)

    def finalize(self):
        """Frees what the communicator holds; a no-op for MPI communicators."""
