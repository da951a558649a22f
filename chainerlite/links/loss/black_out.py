"""BlackOut loss layer."""

from chainerlite import initializers
from chainerlite import link
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.loss import black_out


class BlackOut(link.Link):
    """BlackOut loss layer (Ji et al., ICLR 2016).

    It holds the word embeddings ``W`` and a sampler drawing negative
    words with probabilities proportional to ``counts``, and computes
    :func:`~chainerlite.functions.black_out` (averaged over the batch).

    Args:
        in_size (int): Dimension of the input vectors.
        counts (sequence of int): Frequency of each word.
        sample_size (int): Number of negative samples per example.

    Attributes:
        W (Parameter): Embeddings of shape ``(len(counts), in_size)``.
        sampler (~chainerlite.utils.WalkerAlias): The negative sampler.
        sample_data: When not ``None``, the samples used instead of
            drawing new ones (an int32 array of shape ``(n,
            sample_size)``).

    """

    sample_data = None

    def __init__(self, in_size, counts, sample_size):
        super().__init__()
        self.sample_size = sample_size
        self.sampler = utils.WalkerAlias(counts)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(None), (len(counts), in_size)
            )

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x, t):
        """Returns the BlackOut loss of ``t`` given ``x``, averaged."""
        samples = self.sample_data
        if samples is None:
            samples = self.sampler.sample((x.shape[0], self.sample_size))
        return black_out.black_out(x, t, self.W, samples)
