"""Link hook that runs a link's forward under ``F.forget``."""

import threading

from chainerlite import backend
from chainerlite import configuration
from chainerlite import link_hook
from chainerlite import variable
from chainerlite.functions.util import forget as _forget
from chainerlite.functions.util import forget_policy


def _is_input(value):
    return isinstance(value, variable.Variable) or backend._is_array(value)


class _ForgottenForward(object):
    # Stands in for the forward method of a link that has a ForgetHook (an
    # entry of the link's __dict__, which Link.__call__ finds first). The
    # link it computes is the one the hook saw being called, so a copy of the
    # link that shares the hook runs its own forward.

    def __init__(self, hook, link, previous):
        self.hook = hook
        self.link = link
        self.previous = previous  # an earlier entry of __dict__, or None

    def run(self, link, args, kwargs):
        if self.previous is not None:
            return self.previous(*args, **kwargs)
        return type(link).forward(link, *args, **kwargs)

    def __call__(self, *args, **kwargs):
        stack = self.hook._calls()
        link = stack.pop() if stack else self.link  # else called directly
        names = list(kwargs)
        values = list(args) + [kwargs[name] for name in names]
        slots = [i for i, value in enumerate(values) if _is_input(value)]
        if not slots or not configuration.config.enable_backprop:
            return self.run(link, args, kwargs)
        # Constants are bound; the arrays and variables become the inputs of
        # forget (and are not referenced here, which would keep them alive).
        template = [None if i in slots else value for i, value in enumerate(values)]
        count = len(args)

        def forward(*xs):
            full = list(template)
            for i, x in zip(slots, xs):
                full[i] = x
            return self.run(link, full[:count], dict(zip(names, full[count:])))

        return _forget.forget(
            forward,
            *[values[i] for i in slots],
            keep=self.hook.keep,
            chain=self.hook.chain,
        )


class ForgetHook(link_hook.LinkHook):
    """Link hook that calls the forward of a link under :func:`F.forget
    <chainerlite.functions.forget>`.

    Added to a link (:meth:`~chainerlite.Link.add_hook`), it makes each call
    of the link keep only its inputs and outputs and recompute the rest
    during backward, without editing the link's code: the arrays and
    variables among the arguments (positional or keyword) become the inputs
    of ``forget``, the other arguments are passed as they are; the forward
    must return a variable or a tuple of variables. In no-backprop mode the
    link runs as usual. Deleting the hook restores the link's own forward.
    :class:`~chainerlite.link_hooks.ForgetPlan` adds these hooks to the
    blocks it chooses.

    The hook cannot be registered globally (``with hook:`` raises
    ``NotImplementedError``): forgetting every link at once would recompute
    the nested ones over and over.

    Args:
        keep: What ``forget`` keeps of the forward's intermediate results
            (its ``keep`` argument): the outputs it picks are not
            recomputed. None (the default) keeps nothing.
        chain (bool): ``forget``'s ``chain`` argument: an input returned by
            another forgotten link (one that is not chained) is computed
            again during backward rather than kept.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> from chainerlite.link_hooks import ForgetHook
        >>> layer = chainer.links.Linear(3, 2)
        >>> _ = layer.add_hook(ForgetHook())
        >>> y = layer(np.ones((1, 3), np.float32))
        >>> y.creator.label
        'Forget'
        >>> layer.delete_hook('ForgetHook')
        >>> layer(np.ones((1, 3), np.float32)).creator.label
        'LinearFunction'

    """

    name = 'ForgetHook'

    def __init__(self, keep=None, chain=False):
        forget_policy.as_policy(keep)  # a bad keep raises here
        self.keep = keep
        self.chain = bool(chain)
        self._local = threading.local()

    def _calls(self):
        # The links whose call has begun (pushed by forward_preprocess) and
        # whose forward has not yet started, in this thread.
        try:
            return self._local.stack
        except AttributeError:
            stack = self._local.stack = []
            return stack

    def __getstate__(self):
        # The thread-local call stacks are neither copied nor pickled.
        state = dict(self.__dict__)
        del state['_local']
        return state

    def __setstate__(self, state):
        self.keep = None  # a hook pickled before it had a keep or a chain
        self.chain = False
        self.__dict__.update(state)
        self._local = threading.local()

    def added(self, link):
        if link is None:
            raise NotImplementedError(
                'ForgetHook cannot be registered globally; add it to a link '
                'with link.add_hook'
            )
        previous = link.__dict__.get('forward')
        link.__dict__['forward'] = _ForgottenForward(self, link, previous)

    def deleted(self, link):
        current = link.__dict__.get('forward')
        if not isinstance(current, _ForgottenForward) or current.hook is not self:
            raise RuntimeError(
                'ForgetHook.deleted: the forward of {} was replaced after the '
                'hook was added'.format(type(link).__name__)
            )
        if current.previous is None:
            del link.__dict__['forward']
        else:
            link.__dict__['forward'] = current.previous

    def forward_preprocess(self, args):
        self._calls().append(args.link)
