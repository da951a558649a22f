"""The harness's labels stages: a replay of a stage under a recording hook,
in a scratch of its own, compared as a sequence (forward) or a multiset
(backward); a labels difference is an aspect but not scored."""

import numpy

import chainerlite

from tools.diff_chainer import labels
from tools.diff_chainer import pair


def _forward(lib, s):
    s['x'] = lib.Variable(numpy.array([1.0, -2.0, 3.0]))
    s['y'] = lib.functions.sum(lib.functions.relu(s['x']) * 2.0)
    return s['y']


def _grad(lib, s):
    return lib.grad([s['y']], [s['x']])


def test_a_labels_stage_follows_each_recorded_stage():
    stages = [('forward', _forward), ('retained', _forward), ('grad', _grad)]
    names = [name for name, _ in labels.interleaved(stages)]
    assert names == ['forward', 'forward labels', 'retained', 'grad', 'grad labels']


def test_replays_record_in_a_scratch_of_their_own():
    scratch = {}
    y = _forward(chainerlite, scratch)
    forward = labels.recorded('forward', _forward)(chainerlite, scratch)
    grad = labels.recorded('grad', _grad)(chainerlite, scratch)
    assert scratch['y'] is y and scratch['hooked']['y'] is not y
    # the forward in the order applied; a backward's nodes as a multiset
    assert forward == {'forward': 'ReLU _ * 2.0 Sum', 'backward': ''}
    assert grad == {
        'forward': 'BroadcastTo ReLUGrad2 _ * 2.0',
        'backward': 'ReLU Sum _ * 2.0',
    }


def test_a_labels_difference_is_an_aspect_outside_the_shares():
    tally = pair.Tally()
    only_labels = [('grad labels', "grad labels['forward']: 'A' vs 'B'")]
    tally.add(only_labels, True, 'case')
    tally.add([('grad', 'values differ')] + only_labels, True, 'case')
    assert (tally.cases, tally.agreed, tally.agreed_with_references) == (2, 1, 1)
    assert tally.labels_differed == 2
    assert tally.aspects == {'grad labels': 2, 'grad': 1}
    assert list(tally.kinds) == ['other @ grad']
    assert labels.is_labels_aspect('grad2 labels:raises')
    assert not labels.is_labels_aspect('grad2')
