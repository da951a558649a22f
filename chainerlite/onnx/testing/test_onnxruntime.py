"""Runs an exported test case in ONNX Runtime and compares the outputs."""

import glob
import os

import numpy as np
import onnx

try:
    import onnxruntime

    ONNXRUNTIME_AVAILABLE = True
except ImportError:
    ONNXRUNTIME_AVAILABLE = False


def load_test_data(data_dir, input_names, output_names):
    """``(inputs, outputs)``: dicts name -> array read from ``data_dir``.

    A tensor whose name is among the expected names keeps it; the others
    take the remaining names in order.
    """
    loaded = []
    for kind, names in (('input', input_names), ('output', output_names)):
        names = list(names)
        values = {}
        for path in sorted(glob.glob(os.path.join(data_dir, kind + '_*.pb'))):
            tensor = onnx.load_tensor(path)
            if tensor.name in names:
                name = tensor.name
                names.remove(name)
            else:
                name = names.pop(0)
            values[name] = onnx.numpy_helper.to_array(tensor)
        loaded.append(values)
    return tuple(loaded)


def check_model_expect(test_path, input_names=None, rtol=1e-5, atol=1e-5):
    """Runs ``test_path/model.onnx`` on each test data set; compares outputs.

    Raises:
        ImportError: onnxruntime is not installed.
        AssertionError: the graph's inputs differ from ``input_names``, or
            an output differs from the recorded one.
    """
    if not ONNXRUNTIME_AVAILABLE:
        raise ImportError('ONNX Runtime is not found on checking module.')
    with open(os.path.join(test_path, 'model.onnx'), 'rb') as f:
        model = onnx.load_model(f)
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=['CPUExecutionProvider']
    )
    rt_inputs = [v.name for v in session.get_inputs()]
    rt_outputs = [v.name for v in session.get_outputs()]
    if input_names is not None:
        assert sorted(input_names) == sorted(rt_inputs)
    for entry in sorted(os.listdir(test_path)):
        if not entry.startswith('test_data_set_'):
            continue
        data_dir = os.path.join(test_path, entry)
        inputs, outputs = load_test_data(data_dir, rt_inputs, rt_outputs)
        results = session.run(list(outputs.keys()), inputs)
        for expected, actual in zip(outputs.values(), results):
            np.testing.assert_allclose(expected, actual, rtol=rtol, atol=atol)
