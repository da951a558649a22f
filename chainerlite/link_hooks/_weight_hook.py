"""Base of the hooks that replace a link's weight during its forward."""

from chainerlite import link_hook
from chainerlite.links.connection.linear import Linear


def output_axis(link):
    """The axis of a link's weight that indexes its output channels.

    It is 1 for the deconvolution links (whose weight is ``(in, out,
    ...)``), 0 for the others (``(out, in, ...)`` or, for EmbedID,
    ``(vocabulary, out)``, whose rows are normalised alike).
    """
    for cls in type(link).__mro__:
        if cls.__name__.startswith('Deconvolution'):
            return 1
    return 0


def initialize_lazy_weight(link, weight, x):
    """Initialises a link's weight from its first input, as its forward
    would (links whose input size was left None)."""
    if weight.array is not None:
        return
    in_size = x.shape[1]
    if isinstance(link, Linear):
        in_size = x.size // x.shape[0]
    link._initialize_params(in_size)


class WeightHook(link_hook.LinkHook):
    """Link hook that computes the weight the link's forward uses.

    During the forward method, the attribute ``weight_name`` holds the
    Variable :meth:`compute_weight` returns; the parameter is put back
    after it. Subclasses implement :meth:`prepare` (state kept on the link,
    made once the weight is initialised), :meth:`release` and
    :meth:`compute_weight`.

    Args:
        weight_name (str): The attribute of the weight parameter.
        name (str): The name of the hook; the class's ``name`` when None.

    """

    def __init__(self, weight_name='W', name=None):
        self.weight_name = weight_name
        if name is not None:
            self.name = name
        self.axis = 0  # of the output channels in the weight
        self._prepared = False
        self._saved_weights = []

    def added(self, link):
        if link is None:
            raise NotImplementedError(
                '{} cannot be registered globally; add it to a link with '
                'link.add_hook'.format(type(self).__name__)
            )
        if not hasattr(link, self.weight_name):
            raise ValueError(
                '{}: the link {} has no weight {!r}'.format(
                    type(self).__name__, type(link).__name__, self.weight_name
                )
            )
        self.axis = output_axis(link)
        if getattr(link, self.weight_name).array is not None:
            self._prepare_once(link)

    def deleted(self, link):
        if self._prepared:
            self.release(link)
            self._prepared = False

    def _prepare_once(self, link):
        if not self._prepared:
            self.prepare(link, getattr(link, self.weight_name))
            self._prepared = True

    def forward_preprocess(self, cb_args):
        link = cb_args.link
        weight = getattr(link, self.weight_name)
        if not self._prepared:
            x = cb_args.args[0]
            initialize_lazy_weight(link, weight, x)
            self._prepare_once(link)
        self._saved_weights.append(weight)
        setattr(link, self.weight_name, self.compute_weight(link, weight))

    def forward_postprocess(self, cb_args):
        setattr(cb_args.link, self.weight_name, self._saved_weights.pop())

    def prepare(self, link, weight):
        """Sets up the state the hook keeps on ``link``."""

    def release(self, link):
        """Removes what :meth:`prepare` put on ``link``."""

    def compute_weight(self, link, weight):
        """Returns the Variable the forward uses in place of ``weight``."""
        raise NotImplementedError
