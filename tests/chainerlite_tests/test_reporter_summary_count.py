"""Summary counts in an int, as Chainer 7.8.1's does, so that its snapshot
holds ``_n`` as an integer (found by the differential harness,
tools/diff_chainer); fractional weights still count."""

import numpy

from chainerlite import reporter
from chainerlite import serializers


def test_count_is_an_int_in_the_snapshot():
    summary = reporter.Summary()
    summary.add(numpy.float32(2.0))
    summary.add(3.0)
    saved = {}
    summary.serialize(serializers.DictionarySerializer(saved))
    assert saved['_n'].dtype.kind == 'i' and int(saved['_n']) == 2
    assert summary.compute_mean() == 2.5


def test_fractional_weights():
    summary = reporter.Summary()
    summary.add(4.0, weight=0.5)
    summary.add(1.0, weight=1.5)
    assert summary.compute_mean() == (2.0 + 1.5) / 2.0
