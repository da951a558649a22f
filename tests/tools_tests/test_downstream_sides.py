"""tools/downstream/sides.py: agreement of two sides' saved arrays, and its line."""

import numpy

from tools.downstream import sides


def _save(tmp_path, side, **arrays):
    numpy.savez(tmp_path / ('m.%s.npz' % side), **arrays)


def test_agreement_within_tolerance_and_files_removed(tmp_path):
    _save(tmp_path, 'chainer', y=numpy.array([1.0, 2.0]), gW=numpy.ones(3))
    _save(tmp_path, 'chainerlite', y=numpy.array([1.0, 2.0 + 1e-12]), gW=numpy.ones(3))
    numpy.savez(tmp_path / 'm.params.npz', W=numpy.ones(3))
    record = {'name': 'm', 'dtype': 'float64', 'chainer': {'ok': True}}
    record['chainerlite'] = {'ok': True}
    sides.agreement(record, str(tmp_path), 1e-9)
    assert record['agrees']
    assert record['agreement']['where'] == 'y'
    assert record['agreement']['count'] == 2
    assert list(tmp_path.iterdir()) == []
    assert sides.describe(record).split()[:3] == ['m', 'float64', 'agrees']


def test_disagreement_and_missing_arrays(tmp_path):
    _save(tmp_path, 'chainer', y=numpy.array([1.0, 2.0]), gW=numpy.ones(3))
    _save(tmp_path, 'chainerlite', y=numpy.array([1.0, 2.5]))
    record = {'name': 'm', 'dtype': 'float64', 'chainer': {'ok': True}}
    record['chainerlite'] = {'ok': True}
    sides.agreement(record, str(tmp_path), 1e-9)
    assert not record['agrees']
    assert record['agreement']['missing'] == ['gW']
    assert 'DIFFERS' in sides.describe(record)


def test_a_failed_side_never_agrees(tmp_path):
    _save(tmp_path, 'chainer', y=numpy.ones(1))
    record = {'name': 'm', 'dtype': 'float32', 'chainer': {'ok': True}}
    record['chainerlite'] = {'ok': False, 'error': 'TypeError: bad'}
    sides.agreement(record, str(tmp_path), 1e-2)
    assert not record['agrees']
    assert 'agreement' not in record
    assert sides.describe(record).endswith('FAILS on chainerlite: TypeError: bad')
    record = {'name': 'm', 'chainer': {'ok': False, 'error': 'InvalidType: f32'}}
    assert 'not run: fails on Chainer (InvalidType: f32)' in sides.describe(record)
