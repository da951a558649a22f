"""The LSTM link under its older module path.

Chainer's ``LSTM`` link lives in ``chainer.links.rnn.lstm``; code written
for older releases imports it from here.
"""

from chainerlite.links.rnn.lstm import LSTM  # NOQA
