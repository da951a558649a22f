"""Writes a test case under ``out/opset<N>/<name>`` for the test helpers."""

import os

from chainerlite.onnx.export_testcase import export_testcase

TEST_OUT_DIR = 'out'


def gen_test_data_set(model, args, name, opset_version, **kwargs):
    """Exports ``model`` on ``args`` as a test case; returns its folder."""
    model.xp.random.seed(42)
    path = os.path.join(TEST_OUT_DIR, 'opset{}'.format(opset_version), name)
    export_testcase(model, args, path, opset_version=opset_version, **kwargs)
    return path
