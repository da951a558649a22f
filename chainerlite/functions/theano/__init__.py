"""Theano wrappers (Chainer's ``chainer.functions.theano``); see
:mod:`chainerlite.functions.theano.theano_function`."""
