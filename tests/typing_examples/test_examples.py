"""The type-checked examples (``make typecheck``) also run."""

import importlib.util
import pathlib

import pytest

pytest.importorskip('typing_extensions')


def _load(name):
    path = pathlib.Path(__file__).with_name(name + '.py')
    spec = importlib.util.spec_from_file_location('typing_examples_' + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_mlp(tmp_path):
    y = _load('train_mlp').main(str(tmp_path))
    assert y.shape == (24,)
    assert (tmp_path / 'model.npz').exists()


def test_variables():
    z = _load('variables').main()
    assert z.shape == ()
