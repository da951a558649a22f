"""Helpers for testing exported models (``onnx_chainer.testing``)."""
