"""Negative sampling loss layer."""

import numpy

import chainerlite
from chainerlite import initializers
from chainerlite import link
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.loss import negative_sampling


class NegativeSampling(link.Link):
    """Negative sampling loss layer (Mikolov et al., 2013).

    It holds the output embeddings ``W`` (zeros at first, of shape
    ``(len(counts), in_size)``) and a sampler that draws negative examples
    with probabilities proportional to ``counts ** power``, and computes
    :func:`~chainerlite.functions.negative_sampling`.

    Args:
        in_size (int): Dimension of the input vectors.
        counts (sequence of int): Frequency of each word.
        sample_size (int): Number of negative samples per example.
        power (float): Exponent applied to the counts.
        dtype: Dtype of ``W`` (``chainerlite.config.dtype`` when ``None``).

    Attributes:
        W (Parameter): Output embeddings.
        sampler (~chainerlite.utils.WalkerAlias): The negative sampler; it
            moves with the link between devices.

    """

    def __init__(self, in_size, counts, sample_size, power=0.75, dtype=None):
        super().__init__()
        dtype = chainerlite.get_dtype(dtype)
        vocab_size = len(counts)
        self.sample_size = sample_size
        probs = numpy.asarray(counts, numpy.float64) ** power
        self.sampler = utils.WalkerAlias(probs)
        with self.init_scope():
            self.W = variable.Parameter(initializers.Zero(dtype), (vocab_size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x, t, reduce='sum', **kwargs):
        """Computes the loss.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input vectors of
                shape ``(n, in_size)``.
            t (Variable or numpy.ndarray or cupy.ndarray): Word ids of shape
                ``(n,)``; ``-1`` ignores an example.
            reduce (str): ``'sum'`` or ``'no'``.
            return_samples (bool): Also return the samples drawn, an int32
                array of shape ``(n, sample_size + 1)`` whose first column
                is ``t``.

        Returns:
            Variable or tuple: The loss, and the samples if asked for.

        """
        return_samples = kwargs.pop('return_samples', False)
        if kwargs:
            raise TypeError(
                'forward() got unexpected keyword argument(s) {}'.format(
                    ', '.join(sorted(kwargs))
                )
            )
        return negative_sampling.negative_sampling(
            x,
            t,
            self.W,
            self.sampler.sample,
            self.sample_size,
            reduce=reduce,
            return_samples=return_samples,
        )
