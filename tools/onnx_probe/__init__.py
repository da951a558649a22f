"""ONNX export of every public function of ``chainer.functions``: Chainer
7.8.1's ``onnx_chainer`` against ``chainerlite.onnx`` (``make onnx-probe``).

Each function is called once, with the first of its calls in
``tools/kink_cases.py`` and the floating inputs redrawn as finite float32
values, inside a one-function model; the model is exported at each opset,
the file is run in ONNX Runtime and the outputs are compared with the
library's own forward. ``child`` does that for one library, ``__main__``
compares the two and scores the result against ``known.json``.
"""
