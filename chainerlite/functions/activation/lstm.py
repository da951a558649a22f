"""The LSTM activation under its older module path.

Chainer's ``lstm`` lives in ``chainer.functions.rnn.lstm``; code written
for older releases imports it from here.
"""

from chainerlite.functions.rnn.lstm import LSTM  # NOQA
from chainerlite.functions.rnn.lstm import LSTMGrad  # NOQA
from chainerlite.functions.rnn.lstm import lstm  # NOQA
