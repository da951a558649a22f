"""The check every converter test makes: export, run in ONNX Runtime, compare."""

import numpy as np
import pytest

import chainerlite


@pytest.fixture
def onnx_matches():
    """``check(model, args, opset, **export_kwargs)``: the exported model's
    outputs in ONNX Runtime equal chainerlite's (test mode); returns the
    ModelProto."""
    pytest.importorskip('onnx', reason='the onnx package is not installed')
    ort = pytest.importorskip('onnxruntime', reason='onnxruntime is not installed')
    from chainerlite.onnx import export

    def check(model, args, opset, rtol=1e-5, atol=1e-5, **kwargs):
        args = args if isinstance(args, tuple) else (args,)
        with chainerlite.using_config('train', False):
            expected = model(*[chainerlite.Variable(a) for a in args])
        if isinstance(expected, chainerlite.Variable):
            expected = [expected]
        # named, since the graph lists a tuple's outputs last first (as Chainer)
        out_names = ['out{}'.format(i) for i in range(len(expected))]
        proto = export(
            model, args, opset_version=opset, output_names=out_names, **kwargs
        )
        initialized = {t.name for t in proto.graph.initializer}
        names = [i.name for i in proto.graph.input if i.name not in initialized]
        session = ort.InferenceSession(
            proto.SerializeToString(), providers=['CPUExecutionProvider']
        )
        actual = session.run(out_names, dict(zip(names, args)))
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert a.dtype == e.dtype
            np.testing.assert_allclose(a, e.array, rtol=rtol, atol=atol)
        return proto

    return check
