"""The state of stateful recurrent links over shrinking batches.

Sequences sorted by decreasing length give batches that shrink over time:
a step then updates only the first rows of the state, and the other rows
keep their values.
"""

from chainerlite import link
from chainerlite import variable
from chainerlite.functions.array import concat
from chainerlite.functions.array import split_axis
from chainerlite.functions.rnn import lstm
from chainerlite.links.connection import linear
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check


def split(state, batch):
    """Splits ``state`` into the rows a batch of ``batch`` updates and the
    rest (``None`` when there is none).

    Raises:
        TypeError: If ``batch`` exceeds the rows of ``state`` (Chainer's
            LSTM raises TypeError; its GRU and MGU fail in a type check,
            so this is also an ``InvalidType``).
    """
    rows = state.shape[0]
    if rows < batch:
        raise type_check.InvalidTypeTypeError(
            'x.shape[0] <= h.shape[0]',
            '{} > {}'.format(batch, rows),
            'The batch size of x must be equal to or less than '
            'the size of the previous state h.',
        )
    if rows == batch:
        return state, None
    return split_axis.split_axis(state, [batch], axis=0)


def join(updated, rest):
    """The new state: the updated rows followed by ``rest``."""
    if rest is None:
        return updated
    return concat.concat((updated, rest), axis=0)


class StateMixin(object):
    """State handling of a stateful link: ``reset_state`` and moving the
    state with the link. The link names its state attributes in
    ``state_names``."""

    state_names = ('h',)

    def reset_state(self):
        """Forgets the state: the next call starts a new sequence."""
        for name in self.state_names:
            setattr(self, name, None)

    def set_state(self, *states, **named):
        """Sets the state, moved to the link's device.

        Args:
            states (Variable): One Variable per name of ``state_names``
                (``h``, or ``c`` and ``h``), of shape ``(batch, out_size)``,
                given in that order or by name (``set_state(c=c, h=h)``), as
                Chainer's ``set_state(c, h)`` takes them.

        Raises:
            TypeError: If the states given are not exactly one per name, or
                a state is not a Variable (then also an AssertionError, as
                Chainer's assertion).

        """
        names = self.state_names
        given = dict(zip(names, states))
        for name, state in named.items():
            if name not in names or name in given:
                raise TypeError(
                    'set_state got {} keyword {!r}'.format(
                        'a repeated' if name in given else 'an unexpected', name
                    )
                )
            given[name] = state
        if len(states) > len(names) or len(given) != len(names):
            raise TypeError(
                'set_state takes {} states ({}), not {}'.format(
                    len(names), ', '.join(names), len(states) + len(named)
                )
            )
        states = tuple(given[name] for name in names)
        for name, state in zip(self.state_names, states):
            if not isinstance(state, variable.Variable):
                raise _chainer_errors.AssertedTypeError(
                    '{} must be a Variable, not {}'.format(name, type(state).__name__)
                )
            state.to_device(self.device)
        for name, state in zip(self.state_names, states):
            setattr(self, name, state)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for name in self.state_names:
            state = getattr(self, name)
            if state is not None:
                visitor.visit_variable(state)


class StatefulLSTMBase(StateMixin, link.Chain):
    """A stateful LSTM layer with the gates ``upward(x) + lateral(h)``;
    subclasses define the step from the gates."""

    state_names = ('c', 'h')

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)
        self.reset_state()

    def _gates(self, x):
        # The four gate pre-activations (a, i, f, o) of a step.
        gates = self.upward(x)
        if self.h is not None:
            gates = gates + self.lateral(self.h)
        return lstm._gate_variables(gates)

    def _zeros(self, x):
        return self.xp.zeros((x.shape[0], self.state_size), x.dtype)
